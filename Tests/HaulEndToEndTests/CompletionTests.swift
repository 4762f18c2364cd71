import Foundation
import HaulTestSupport
import Testing

/// The installed completion scripts, each sourced in its own shell and asked what a TAB offers (issue: completions
/// that complete): every option of the main command and of the subcommands, files, directories, the values of
/// `--stream`, `--stream-quality` and `--theme`, and task ids with their names, silently none without a queue.
@Suite(
    .timeLimit(.minutes(3)),
    .enabled(if: BuiltTools.haulManual != nil || BuiltTools.madeByMake, "haul-manual is not built"))
struct CompletionTests {
    static let scripts = InstallTests.repository + "/Tests/HaulEndToEndTests/Scripts"

    /// A prefix haul is installed into, with a home holding a file, a folder, a user theme and (on request) a queue.
    final class Installed: Sendable {
        let prefix: TemporaryDirectory
        var home: String { prefix.file("home") }
        var path: String { "\(prefix.path)/bin:/usr/bin:/bin" }

        init() async throws {
            prefix = try TemporaryDirectory()
            let (status, out, err) = try await InstallTests.run(
                InstallTests.repository + "/scripts/install.sh",
                [InstallTests.binDirectory, prefix.path, prefix.path, try InstallTests.requireHaulManual()])
            try #require(status == 0, "\(out)\n\(err)")
            let files = FileManager.default
            try files.createDirectory(atPath: home + "/.config/haul/themes", withIntermediateDirectories: true)
            try files.createDirectory(atPath: home + "/work/folder", withIntermediateDirectories: true)
            try Data("url\n".utf8).write(to: URL(fileURLWithPath: home + "/work/links.txt"))
            try Data("inherits = \"default\"\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/haul/themes/sunset.toml"))
        }

        deinit { prefix.remove() }

        /// The shell's candidates for `line`, run in `home/work` with a clean environment.
        func complete(_ shell: String, _ line: String, timeout: Duration = .seconds(30)) async throws -> [String] {
            let arguments: [String]
            switch shell {
            case "bash":
                arguments = ["bash", "--norc", "--noprofile", CompletionTests.scripts + "/complete_bash.sh",
                             prefix.file("share/bash-completion/completions/haul"), line]
            case "zsh":
                arguments = ["zsh", "-f", CompletionTests.scripts + "/complete_zsh.zsh", prefix.file("share/zsh/site-functions"), line]
            default:
                arguments = ["fish", "--no-config", "-c",
                             "source \(prefix.file("share/fish/vendor_completions.d/haul.fish")); complete -C '\(line)'"]
            }
            let process = try HaulProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                arguments: ["-i", "PATH=\(path)", "HOME=\(home)", "TERM=dumb"] + arguments, environment: [:],
                currentDirectory: URL(fileURLWithPath: home + "/work"))
            let status = try await process.waitForExit(timeout: timeout)
            #expect(status == 0, "\(shell) '\(line)': \(process.stderrText())")
            return process.stdoutLines().filter { !$0.isEmpty }
        }

        /// The words alone (zsh's and fish's descriptions dropped).
        func words(_ shell: String, _ line: String) async throws -> [String] {
            try await complete(shell, line).map { candidate in
                String(candidate.split(separator: "\t").first.map { $0.components(separatedBy: " -- ")[0] } ?? "")
            }
        }
    }

    static let shells = ["bash", "zsh", "fish"].filter { shell in
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
    }

    // One install per test, every shell asked in it (an install takes a few seconds on a busy machine).
    @Test func optionsOfTheMainCommandAndOfEachSubcommand() async throws {
        let installed = try await Installed()
        for shell in Self.shells {
        #expect(try await installed.words(shell, "haul --lim").contains("--limit-rate"))
        #expect(try await installed.words(shell, "haul run --li").contains("--limit-rate"))
        #expect(try await installed.words(shell, "haul --state").contains("--state-dir"))
        #expect(try await installed.words(shell, "haul add --mir").contains("--mirror"))
        #expect(try await installed.words(shell, "haul remove --del").contains("--delete-file"))
        #expect(try await installed.words(shell, "haul schedule --cl").contains("--clear"))
        #expect(try await installed.words(shell, "haul p").contains("pause"))
        #expect(try await installed.words(shell, "haul http://127.0.0.1/a --lim").contains("--limit-rate"), "\(shell): after a link")
        #expect(try await installed.words(shell, "haul -j 2 http://127.0.0.1/a --retr").contains("--retries"), "\(shell)")
        }
    }

    @Test func filesDirectoriesAndValues() async throws {
        let installed = try await Installed()
        for shell in Self.shells {
        for option in ["-i", "--load-cookies", "--netrc-file", "--ca-cert", "--config"] {
            let offered = try await installed.words(shell, "haul \(option) li")
            #expect(offered.contains { $0.hasPrefix("links.txt") }, "\(shell) \(option): \(offered)")
        }
        for option in ["-d", "--state-dir"] {
            let offered = try await installed.words(shell, "haul \(option) f")
            #expect(offered.contains { $0.hasPrefix("folder") }, "\(shell) \(option): \(offered)")
            #expect(!offered.contains { $0.hasPrefix("links.txt") }, "\(shell) \(option): \(offered)")
        }
        #expect(Set(try await installed.words(shell, "haul --stream ")).isSuperset(of: ["auto", "off"]))
        #expect(!(try await installed.words(shell, "haul --stream ")).contains("pause"))
        let afterLink = try await installed.words(shell, "haul http://127.0.0.1/a -d f")
        #expect(afterLink.contains { $0.hasPrefix("folder") }, "\(shell): \(afterLink)")
        #expect(Set(try await installed.words(shell, "haul add --stream-quality ")).isSuperset(of: ["best", "worst", "720"]))
        let themes = try await installed.words(shell, "haul --theme ")
        #expect(Set(themes).isSuperset(of: ["default", "monochrome", "light", "sunset"]), "\(shell): \(themes)")
        }
    }

    @Test func taskIdsWithTheirNames() async throws {
        let installed = try await Installed()
        let state = installed.home + "/.local/state/haul"
        // No queue: nothing offered, nothing printed, nothing created.
        for shell in Self.shells {
            #expect(try await installed.complete(shell, "haul pause ").filter { $0.first?.isNumber == true } == [])
            #expect(!FileManager.default.fileExists(atPath: state))
        }

        let add = try HaulProcess(
            URL(fileURLWithPath: installed.prefix.file("bin/haul")),
            arguments: ["add", "--state-dir", state, "-d", installed.home, "https://example.invalid/first.iso",
                        "https://example.invalid/second.iso"])
        #expect(try await add.waitForExit(timeout: .seconds(30)) == 0, "\(add.stderrText())")
        for shell in Self.shells {
        for command in ["pause", "resume", "remove", "set-url"] {
            let offered = try await installed.complete(shell, "haul \(command) ")
            #expect(offered.contains { $0.hasPrefix("1") } && offered.contains { $0.hasPrefix("2") }, "\(shell) \(command): \(offered)")
            if shell != "bash" {
                #expect(offered.contains { $0.hasPrefix("2") && $0.contains("second.iso") }, "\(shell) \(command): \(offered)")
            }
        }
        }
    }
}

import Foundation
import HaulTestSupport
import Testing

/// `make install` into a prefix and `make uninstall` out of it, checked as a user would (DESIGN §10): the binary
/// runs without the toolchain on PATH, `man -l` renders the page, bash completes `haul pa` to `pause`, the unit
/// passes `systemd-analyze verify`, and uninstalling leaves the prefix as it was.
@Suite(
    .timeLimit(.minutes(2)),
    .enabled(if: BuiltTools.haulManual != nil || BuiltTools.madeByMake, "haul-manual is not built"))
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binDirectory = BuiltTools.binDirectory
    static func requireHaulManual() throws -> String {
        try #require(BuiltTools.haulManual, "no haul-manual in \(binDirectory): `swift build` builds it")
    }

    /// Every path under `root`, relative, sorted.
    static func tree(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(60)
    ) async throws -> (Int32, String, String) {
        let process = try HaulProcess(URL(fileURLWithPath: executable), arguments: arguments, environment: environment ?? [:])
        let status = try await process.waitForExit(timeout: timeout)
        return (status, process.stdoutText(), process.stderrText())
    }

    @Test func installAndUninstallLeaveThePrefixAsItWas() async throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        // A prefix in use: its own files and directories stay.
        try FileManager.default.createDirectory(atPath: prefix.file("share/man"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: prefix.file("share/man/keep.txt")))
        let before = Self.tree(prefix.path)

        let (installed, out, err) = try await Self.run(
            Self.repository + "/scripts/install.sh", [Self.binDirectory, prefix.path, prefix.path, try Self.requireHaulManual()])
        #expect(installed == 0, "\(out)\n\(err)")

        // Installed stripped; the build folder's copy keeps its symbols (make bench, debuggers).
        let (_, installedSections, _) = try await Self.run("/usr/bin/readelf", ["-S", "-W", prefix.file("bin/haul")])
        let (_, builtSections, _) = try await Self.run("/usr/bin/readelf", ["-S", "-W", Self.binDirectory + "/haul"])
        #expect(!installedSections.contains(".symtab") && !installedSections.contains(".debug_info")
            && !installedSections.contains(".comment"))
        #expect(builtSections.contains(".symtab"))

        // The binary runs with no toolchain on PATH.
        let (version, printed, _) = try await Self.run(
            "/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", prefix.file("bin/haul"), "--version"])
        #expect(version == 0 && !printed.isEmpty)

        // The man page renders without a warning and documents the subcommands.
        let (man, page, manErrors) = try await Self.run("/usr/bin/man", ["-l", prefix.file("share/man/man1/haul.1")], environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(man == 0 && manErrors.isEmpty, "\(manErrors)")
        #expect(page.contains("haul") && page.contains("set-url"), "\(page.prefix(500))")

        // `systemctl --user stop` (SIGTERM: haul saves every byte and exits 130) is a success, and reload is SIGHUP.
        let unit = try String(contentsOfFile: prefix.file("lib/systemd/user/haul.service"), encoding: .utf8)
        #expect(unit.contains("\nSuccessExitStatus=130\n"), "\(unit)")
        #expect(unit.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"), "\(unit)")
        #expect(unit.contains("\nExecStart=\(prefix.path)/bin/haul "), "\(unit)")
        // The unit is valid where systemd is there to say so.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let (verified, _, verifyErrors) = try await Self.run("/usr/bin/systemd-analyze", ["verify", prefix.file("lib/systemd/user/haul.service")])
            #expect(verified == 0, "\(verifyErrors)")
        }
        #expect(FileManager.default.fileExists(atPath: prefix.file("share/haul/themes/default.toml")))

        let (removed, _, removeErrors) = try await Self.run(Self.repository + "/scripts/uninstall.sh", [prefix.path])
        #expect(removed == 0, "\(removeErrors)")
        #expect(Self.tree(prefix.path) == before)
    }

    /// `make install` installs what builds and runs haul, never the test servers or Python packages.
    @Test func installNeedsOnlyWhatBuildsAndRunsHaul() async throws {
        let deps = Self.repository + "/scripts/install-deps.sh"
        let (_, build, _) = try await Self.run(deps, ["--print"])
        let (_, test, _) = try await Self.run(deps, ["--test", "--print"])
        let buildPackages = Set(build.split(separator: "\n").map(String.init))
        #expect(buildPackages == ["libcurl4-openssl-dev", "libncurses-dev", "libsqlite3-dev"], "\(build)")
        #expect(Set(test.split(separator: "\n").map(String.init)).isSuperset(of: ["tinyproxy", "microsocks", "nginx", "zsh", "fish"]))
        let (planned, plan, planErrors) = try await Self.run(
            "/usr/bin/make", ["-n", "-C", Self.repository, "install", "PREFIX=/nonexistent/haul-prefix"])
        #expect(planned == 0, "\(planErrors)")
        let steps = plan.split(separator: "\n")
        #expect(steps.contains { $0.hasSuffix("scripts/install-deps.sh") }, "\(plan)")
        #expect(!steps.contains { $0.contains("--test") || $0.contains("pip") }, "\(plan)")
    }

    @Test(.enabled(if: TmuxDriver.isAvailable)) func bashCompletesASubcommandInARealShell() async throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let (installed, out, err) = try await Self.run(
            Self.repository + "/scripts/install.sh", [Self.binDirectory, prefix.path, prefix.path, try Self.requireHaulManual()])
        #expect(installed == 0, "\(out)\n\(err)")
        let tmux = try TmuxDriver(command: "env -i TERM=xterm PATH=\(prefix.path)/bin:/usr/bin:/bin HOME=\(prefix.path) bash --norc --noprofile -i")
        defer { tmux.kill() }
        try tmux.send("PS1='$ '; shopt -s extglob progcomp; source \(prefix.path)/share/bash-completion/completions/haul; complete -p haul", literal: true)
        try tmux.send("Enter")
        _ = try await tmux.waitFor("complete -o filenames -F _haul haul")
        try tmux.send("clear", literal: true)
        try tmux.send("Enter")
        try tmux.send("haul pa", literal: true)
        try tmux.send("Tab")
        _ = try await tmux.waitFor("$ haul pause")
    }
}

/// Where the built programs are.
enum BuiltTools {
    static let binDirectory = HaulProcess.binDirectory().path
    /// Whether `make` named the build (it builds haul-manual too, so a missing one fails the suite then).
    static let madeByMake = HaulProcess.binDirectory().origin == .variable
    /// The man page writer (Sources/haul-manual), built beside haul.
    static var haulManual: String? {
        let path = binDirectory + "/haul-manual"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

import Foundation
import HaulTestSupport
import Testing

/// `make install` into a prefix and `make uninstall` out of it, checked as a user would (DESIGN §10): the binary
/// runs without the toolchain on PATH, `man -l` renders the page, bash completes `haul pa` to `pause`, the unit
/// passes `systemd-analyze verify`, and uninstalling leaves the prefix as it was.
@Suite(
    .timeLimit(.minutes(2)),
    .enabled(if: BuiltTools.generateManual != nil || BuiltTools.madeByMake, "generate-manual is not built (make test builds it)"))
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binDirectory = BuiltTools.binDirectory
    static var generateManual: String? { BuiltTools.generateManual }

    static func requireGenerateManual() throws -> String {
        try #require(generateManual, "no generate-manual in \(binDirectory): `make test-e2e` builds it")
    }

    /// Every path under `root`, relative, sorted.
    static func tree(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> (Int32, String, String) {
        let process = try HaulProcess(URL(fileURLWithPath: executable), arguments: arguments, environment: environment ?? [:])
        let status = try await process.waitForExit(timeout: .seconds(60))
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
            Self.repository + "/scripts/install.sh", [Self.binDirectory, prefix.path, prefix.path, try Self.requireGenerateManual()])
        #expect(installed == 0, "\(out)\n\(err)")

        // The binary runs with no toolchain on PATH.
        let (version, printed, _) = try await Self.run(
            "/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", prefix.file("bin/haul"), "--version"])
        #expect(version == 0 && !printed.isEmpty)

        // The man page renders without a warning and documents the subcommands.
        let (man, page, manErrors) = try await Self.run("/usr/bin/man", ["-l", prefix.file("share/man/man1/haul.1")], environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(man == 0 && manErrors.isEmpty, "\(manErrors)")
        #expect(page.contains("haul") && page.contains("set-url"), "\(page.prefix(500))")

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

    @Test(.enabled(if: TmuxDriver.isAvailable)) func bashCompletesASubcommandInARealShell() async throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let (installed, out, err) = try await Self.run(
            Self.repository + "/scripts/install.sh", [Self.binDirectory, prefix.path, prefix.path, try Self.requireGenerateManual()])
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
    /// Whether `make` named the build (it builds generate-manual too, so a missing one fails the suite then).
    static let madeByMake = HaulProcess.binDirectory().origin == .variable
    /// The argument parser's man page generator, built beside haul by `make test` and `make test-e2e`.
    static var generateManual: String? {
        let path = binDirectory + "/generate-manual"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

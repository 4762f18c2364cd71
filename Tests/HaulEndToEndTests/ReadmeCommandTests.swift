import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Every `haul` command the README shows is run as written (issue: a CLI that helps), and none is refused as a
/// usage error (exit 2) or crashes. Links to other hosts go to a local server that answers 404, so each download
/// fails at once and nothing leaves 127.0.0.1; the README's settings file is read by `haul config`.
@Suite(.timeLimit(.minutes(3)))
struct ReadmeCommandTests {
    static let readme = InstallTests.repository + "/README.md"
    /// The commands that name tasks by id.
    static let takesIds: Set<String> = ["pause", "resume", "remove", "set-url", "limit"]

    /// A home, a working directory and a settings file (no retries: every link fails at once) for one session.
    final class Sandbox: Sendable {
        let root: TemporaryDirectory
        let server: FaultServer
        let rpcPort: UInt16
        var home: String { root.file("home") }
        var work: String { root.file("work") }
        var environment: [String: String] {
            ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
             "XDG_RUNTIME_DIR": root.file("run")]
        }

        init(server: FaultServer) throws {
            root = try TemporaryDirectory()
            self.server = server
            rpcPort = try #require(LoopbackPort.free())
            let files = FileManager.default
            for folder in [work, root.file("run"), home + "/Downloads", home + "/.config/haul", home + "/.local/bin", home + "/cookies"] {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root.file("run"))
            let written: [(String, String, Int)] = [
                (home + "/.config/haul/config.toml", "retries = 0\n", 0o644),
                (home + "/.config/haul/secret", "readme-secret\n", 0o600),
                (home + "/.config/haul/rpc-secret", "readme-secret\n", 0o600),
                (home + "/cookies.txt", "# Netscape HTTP Cookie File\n", 0o600),
                (home + "/cookies/example.txt", "# Netscape HTTP Cookie File\n", 0o600),
                (home + "/.netrc", "machine 127.0.0.1 login user password pass\n", 0o600),
                (home + "/.local/bin/yt-dlp", "#!/bin/sh\nexit 1\n", 0o755),
                (work + "/links.txt", server.url("/readme/listed.bin") + "\n", 0o644),
            ]
            for (path, text, mode) in written {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                try files.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            }
        }

        /// `words` with the README's placeholders made real: `~/` this home, links to the local server, a free RPC port.
        func made(_ words: [String]) -> [String] {
            var previous = ""
            return words.map { word in
                defer { previous = word }
                if previous == "--rpc-listen" { return String(rpcPort) }
                if word.hasPrefix("~/") { return home + word.dropFirst() }
                let bare = word.replacingOccurrences(of: "...", with: "")
                if ["URL", "URL1", "URL2", "NEW-LINK"].contains(bare) { return server.url("/readme/\(bare.lowercased()).bin") }
                guard let link = URLComponents(string: word), let scheme = link.scheme, scheme.hasPrefix("http"),
                      link.host != "127.0.0.1" else { return word }
                var local = link
                local.scheme = "http"
                local.host = "127.0.0.1"
                local.port = Int(server.port)
                return local.string ?? word
            }
        }

        func run(_ words: [String]) async throws -> (Int32, String) {
            let process = try HaulProcess(
                binary: "haul", arguments: Array(words.dropFirst()), environment: environment,
                currentDirectory: URL(fileURLWithPath: work))
            do {
                return (try await process.waitForExit(timeout: .seconds(30)), process.stderrText())
            } catch {
                return (-1, "\(error)\n" + process.stderrText())
            }
        }

        /// Ends a background haul a session started.
        func stop() async {
            _ = try? await run(["haul", "stop"])
        }
    }

    @Test func everyCommandIsTakenAsWritten() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        for task in 1...8 {
            var slow = FaultPlan.file(size: 64 << 20, seed: UInt64(task))
            slow.throttle = 64 << 10
            server.route("/readme/task\(task).bin", slow)
        }
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let examples = ReadmeExamples(markdown: text)
        #expect(examples.sessions.flatMap(\.commands).count >= 50, "the README's commands were found")
        // Each session on a queue of its own, three at a time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, session) in examples.sessions.enumerated() {
                if index >= 3 { try await group.next() }
                group.addTask { try await Self.play(session, server: server) }
            }
            try await group.waitForAll()
        }
    }

    /// Runs one session's commands in order on a sandbox of its own.
    static func play(_ session: ReadmeExamples.Session, server: FaultServer) async throws {
        let sandbox = try Sandbox(server: server)
        defer { sandbox.root.remove() }
        let commands = session.commands.map(sandbox.made)
        // Tasks for the ids the commands name (`haul pause 3`, `haul set-url 7 …`), slow enough to stay unfinished.
        if commands.contains(where: { $0.count > 2 && takesIds.contains($0[1]) && Int($0[2]) != nil }) {
            let links = (1...8).map { server.url("/readme/task\($0).bin") }
            let (status, message) = try await sandbox.run(["haul", "add"] + links)
            try #require(status == 0, "\(message)")
        }
        let daemon = commands.contains { $0.dropFirst().first == "daemon" }
        for (index, words) in commands.enumerated() {
            // The attached list needs a terminal (BackgroundAttachTests runs it in tmux); without one it is refused.
            if daemon && words == ["haul"] { continue }
            // What a resume resumes is paused first.
            if words.count > 2, words[1] == "resume", let id = Int(words[2]) { _ = try await sandbox.run(["haul", "pause", String(id)]) }
            let (status, message) = try await sandbox.run(words)
            let written = session.commands[index].joined(separator: " ")
            #expect((0...3).contains(status) && status != 2, "README line \(session.line): `\(written)` exited \(status): \(message)")
        }
        if daemon { await sandbox.stop() }
    }

    @Test func theSettingsFileIsRead() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let examples = ReadmeExamples(markdown: text)
        #expect(!examples.settingsFiles.isEmpty)
        for file in examples.settingsFiles {
            let sandbox = try Sandbox(server: server)
            defer { sandbox.root.remove() }
            try Data(file.utf8).write(to: URL(fileURLWithPath: sandbox.home + "/.config/haul/config.toml"))
            let (status, message) = try await sandbox.run(["haul", "config"])
            #expect(status == 0, "\(message)\n\(file)")
        }
    }

    @Test func shellWordsAreSplitAsAShellSplitsThem() {
        let words = ReadmeExamples.words(of: "haul add URL; haul --referer '*' --all-proxy '' -d ~/Downloads  # a comment")
        #expect(words == [["haul", "add", "URL"], ["haul", "--referer", "*", "--all-proxy", "", "-d", "~/Downloads"]])
        #expect(ReadmeExamples.inlineCommands(in: "run `haul list --json`, not `haul config [run options]`") == ["haul list --json"])
    }
}

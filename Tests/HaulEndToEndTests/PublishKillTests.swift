import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `kill -9` injected at each step of publishing a finished file or stream (with strace): the next run leaves exactly
/// one file under the task's name, with the right bytes, no part file, and the task completed under that name.
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
struct PublishKillTests {
    /// Calls on the way to a published file: marking the new part file, the first data sync (the database's or a
    /// checkpoint's), the rename that publishes (killed before it), and the directory's sync after it (killed after
    /// the rename, before the task is recorded).
    @Test(arguments: ["fsetxattr", "fdatasync", "renameat2", "fsync"], [false, true])
    func aKillAtEachStepLeavesOneFile(call: String, stream: Bool) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 1 << 20, seed: 97)
        server.route("/small.bin", plan)
        let hls = try HLSStream(server, name: "small", query: "segments=8&segsize=128k")
        let (link, name, bytes) = stream ? (hls.url(), "index.ts", hls.expectedOutput()) : (server.url("/small.bin"), "small.bin", plan.body.bytes())
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        // Killed at the first call of its kind (strace delivers the signal as the call is entered).
        let killed = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/strace"),
            arguments: ["-f", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):signal=SIGKILL:when=1",
                        haul, "--headless", "--state-dir", run.state, "-d", run.downloads, link])
        let status = try await killed.waitForExit(timeout: .seconds(60))
        #expect(status != 0, "haul was killed at \(call): \(killed.stderrText())")

        let (again, _, err) = try await run.run(["--headless"], directory: true)
        #expect(again == 0, "\(err)")
        let tasks = try await run.list()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: run.downloads).sorted()) ?? []
        guard !tasks.isEmpty else {
            // Killed before the add itself was durable: no task, and nothing was written for it.
            #expect(names.isEmpty, "killed at \(call): \(names)")
            return
        }
        #expect(names == [name], "killed at \(call): \(names)")
        expectSameBytes(run.file(name), bytes)
        #expect(tasks.count == 1)
        #expect(tasks.first?["state"] as? String == "completed")
        #expect(tasks.first?["name"] as? String == name, "\(tasks)")
    }
}

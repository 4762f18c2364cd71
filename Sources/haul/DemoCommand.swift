import ArgumentParser
import FaultServer
import Foundation
import HaulCore

/// `haul demo`: serve a demo queue from 127.0.0.1 and open it in a scratch state directory.
///
/// The queue shows what haul is for: a large rate-limited file, a CJK name, a file whose server drops
/// the connection half-way (it resumes), a name from Content-Disposition, and a 404.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Start a local demo server and open a queue of its files.")

    @Flag(help: "Run without the live list.") var headless = false

    @Option(help: "Scratch directory for the demo's queue and downloads.")
    var workDirectory = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/haul-demo"

    func run() async throws {
        let server: FaultServer
        do {
            server = try FaultServer(lifetime: .seconds(3600))
        } catch {
            throw UsageFailure(message: "cannot start the demo server on 127.0.0.1: \(error)")
        }
        defer { server.stop() }
        let urls = server.installDemoRoutes()
        // A fresh queue each time, so the demo always tells the same story.
        try? FileManager.default.removeItem(atPath: workDirectory + "/state")
        try? FileManager.default.removeItem(atPath: workDirectory + "/downloads")
        note("demo server on http://127.0.0.1:\(server.port) — files go to \(workDirectory)/downloads")
        let run = try RunCommand.parse(
            urls + ["--state-dir", workDirectory + "/state", "-d", workDirectory + "/downloads", "-j", "3"]
                + (headless ? ["--headless"] : []))
        do {
            try await run.run()
        } catch let code as ExitCode where code.rawValue == ExitStatus.taskFailed.rawValue {
            // One demo URL is a 404 on purpose: "some task failed" is the expected ending.
            note("demo finished: the 404 task failed on purpose; the files are in \(workDirectory)/downloads")
        }
    }
}

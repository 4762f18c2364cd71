import ArgumentParser
import Foundation

/// `haul demo`: start the local demo server and open a queue of its files in a scratch state dir.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Start a local demo server and open a queue of its files.")

    @Flag(help: "Run without the live list.") var headless = false

    func run() throws {
        let script = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let server = script.appendingPathComponent("haul-fault-server").path
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw UsageFailure(message: "haul-fault-server was not found next to haul (\(server)); run `make demo`")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let demo = ProcessInfo.processInfo.environment["HAUL_DEMO_SCRIPT"] ?? "scripts/demo.sh"
        process.arguments = [demo, script.path] + (headless ? ["--headless"] : [])
        try process.run()
        process.waitUntilExit()
        throw ExitCode(process.terminationStatus)
    }
}

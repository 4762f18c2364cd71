import ArgumentParser
import Foundation
import HaulRemote
import HaulStore

/// `haul stop`: the background haul saves its state and exits.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop the background haul (state saved; tasks resume on its next start).")

    @OptionGroup var state: StateOptions

    func run() async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        guard let owner = session.owner else {
            note("no haul is running for \(session.directory.path)")
            return
        }
        let pid = try? await owner.processID()
        // The answer to the shutdown can be lost when the owner closes its socket first: then the owner
        // going away within a few seconds is the answer.
        var unanswered: (any Error)?
        do {
            try await owner.shutdown()
        } catch {
            unanswered = error
        }
        // Done once the owner let go of the queue (its lock) and its socket.
        let deadline = ContinuousClock.now + (unanswered == nil ? .seconds(60) : .seconds(5))
        while session.runner != nil || FileManager.default.fileExists(atPath: session.directory.socketPath) {
            guard ContinuousClock.now < deadline else {
                if let unanswered {
                    throw CommandFailure.ownerUnreachable(pid: pid, context: "to the request to stop", reason: "\(unanswered)")
                }
                throw CommandFailure.runtime("the running haul\(pid.map { " (pid \($0))" } ?? "") did not stop within 60 s")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        note("stopped\(pid.map { " haul (pid \($0))" } ?? ""); every task's bytes are saved")
    }
}

import ArgumentParser
import Foundation
import HaulCore
import HaulReport
import HaulStore
import HaulTerminal

/// `haul list [--json] [--state STATE]`: print the queue, or the tasks in one state.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the queue.")

    @OptionGroup var stateOptions: StateOptions
    @Flag(help: "One JSON object per line.") var json = false
    @Option(help: "Only the tasks in this state: waiting, running, paused, failed or completed.") var state: String?

    func validate() throws {
        if let state, TaskState(rawValue: state) == nil {
            throw ValidationError("--state \(state): not a state (waiting, running, paused, failed, completed)")
        }
    }

    func run() async throws {
        let session = try QueueSession.open(stateDirectory: stateOptions.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let wanted = state.flatMap(TaskState.init(rawValue:))
        let format = QueueListing.Format(json: json, ascii: !json && !CharacterLocale.adopt(), state: wanted)
        // A row or a page at a time, as read: the queue is never held whole.
        let printed: Int
        do {
            printed = try await endpoint.printListing(format)
            await endpoint.close()
        } catch {
            await endpoint.close()
            throw error
        }
        if printed == 0 { note(wanted.map { "no task is \($0.rawValue)" } ?? "the queue is empty") }
        // Why nothing runs, on stderr (stdout stays the tasks).
        guard !json else { return }
        do {
            if let schedule = try session.store.loadSchedule(), let text = schedule.note(at: Date(), calendar: .current) { note(text) }
        } catch {
            note("\(error)")
        }
    }
}

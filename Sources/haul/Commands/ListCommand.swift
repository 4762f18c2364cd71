import ArgumentParser
import Foundation
import HaulCore
import HaulStore

/// `haul list [--json]`: print the queue.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the queue.")

    @OptionGroup var state: StateOptions
    @Flag(help: "One JSON object per line.") var json = false

    func run() async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let tasks = try await endpoint.tasks()
        await endpoint.close()
        if tasks.isEmpty { note("the queue is empty") }
        for task in tasks { print(json ? QueueListing.jsonLine(task) : QueueListing.line(task)) }
        // Why nothing runs, on stderr (stdout stays the tasks).
        guard !json else { return }
        do {
            if let schedule = try session.store.loadSchedule(), let text = schedule.note(at: Date(), calendar: .current) { note(text) }
        } catch {
            note("\(error)")
        }
    }
}

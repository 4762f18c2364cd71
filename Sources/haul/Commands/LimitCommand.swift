import ArgumentParser
import Foundation
import HaulCore
import HaulStore

/// `haul limit [ID] RATE`: change a running haul's bandwidth caps live (one task, or all together).
struct LimitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Cap one task (haul limit ID RATE) or all downloads together (haul limit RATE) while haul runs; 0 lifts the cap.")

    @Argument(help: "An optional task id, then the rate (500K, 2M, 0 for none).") var values: [String] = []
    @OptionGroup var state: StateOptions

    func validate() throws {
        guard (1...2).contains(values.count) else { throw ValidationError("give RATE, or ID and RATE") }
        _ = try rate()
        if values.count == 2, Int64(values[0]) == nil { throw ValidationError("'\(values[0])' is not a task id") }
    }

    /// The rate given (the last value); nil for none.
    private func rate() throws -> RateLimit? {
        try RateLimit.parseArgument(values[values.count - 1])
    }

    func run() async throws {
        let rate = try rate()
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        guard endpoint.ownerPID != nil else {
            await endpoint.close()
            throw CommandFailure.runtime("no haul is running; start one with --limit-rate or --max-overall-download-limit")
        }
        let command: QueueCommand = values.count == 2 ? .setTaskLimit(TaskID(Int64(values[0]) ?? 0), rate) : .setOverallLimit(rate)
        let result = try await endpoint.perform([command])[0]
        if let failure = result.failure(verb: "limit", again: state.repeated) { throw failure }
        note("\(values.count == 2 ? "#\(values[0])" : "all downloads"): \(rate.rateText)")
    }
}

import ArgumentParser
import HaulCore

/// `haul set-url ID URL [--keep-bytes | --restart]`: a new link for an unfinished task, keeping its bytes when
/// the new link serves the same file (DESIGN §8).
struct SetURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-url",
        abstract: "Give an unfinished task a new link (an expired signed link, a mirror); its bytes are kept when the new link serves the same file.",
        discussion: """
            The next answer must have the same length; where both links carry an ETag or Last-Modified and
            they differ, the task stops with both named unless --keep-bytes or --restart says what to do.
            A running task is stopped with its bytes saved and goes on from the new link.
            """)

    @Argument(help: "The task's id (see haul list).") var id: Int64
    @Argument(help: "The new link.") var url: String
    @Flag(name: .customLong("keep-bytes"), help: "Keep the bytes even if the new link's ETag or Last-Modified differ (same length still required).")
    var keepBytes = false
    @Flag(name: .customLong("restart"), help: "Drop the kept bytes and fetch the whole file from the new link.")
    var restart = false
    @Option(name: .customLong("mirror"), help: "Another link to the same file (repeatable): replaces the task's mirrors; without it they stay.")
    var mirrors: [String] = []
    @OptionGroup var state: StateOptions

    func validate() throws {
        if keepBytes && restart { throw ValidationError("--keep-bytes and --restart cannot both be given") }
        // The link and its mirrors are checked here first: one refused leaves the task as it was.
        do {
            _ = try TaskIntake.mirrors(mirrors, of: try TaskIntake.url(url))
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let change: LinkChange = restart ? .restart : keepBytes ? .keepBytes : .sameFile
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let result: CommandResult
        do {
            var commands: [QueueCommand] = [.setURL(TaskID(id), url: url, change: change)]
            if !mirrors.isEmpty { commands.append(.setMirrors(TaskID(id), mirrors)) }
            let results = try await endpoint.perform(commands)
            result = results.first { $0.failure(verb: "set the link of") != nil } ?? results[0]
        } catch {
            await endpoint.close()
            throw error
        }
        await endpoint.close()
        if let failure = result.failure(verb: "set the link of") { throw failure }
        note("#\(id): link set\(change == .restart ? "; it starts over" : change == .keepBytes ? "; its bytes are kept" : "")")
    }
}

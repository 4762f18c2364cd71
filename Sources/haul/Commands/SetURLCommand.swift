import ArgumentParser
import HaulCore
import HaulTransfer

/// `haul set-url ID URL [--keep-bytes | --restart]`: a new link for an unfinished task, keeping its bytes when
/// the new link serves the same file (DESIGN §8).
struct SetURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-url",
        abstract: "Give an unfinished task a new link (an expired signed link, a mirror); its bytes are kept when the new link serves the same file.",
        discussion: """
            A task that keeps bytes asks the new link for a few of them at once: it must serve a file of the same
            length and, where both links carry one, the same Last-Modified and (from the same host or server
            software) the same ETag; otherwise the link is not changed and the difference is named, unless
            --keep-bytes or --restart says what to do. A link that cannot be reached now is taken with a warning
            and checked when the task resumes. A running task is stopped with its bytes saved and goes on from
            the new link.
            """)

    @Argument(help: "The task's id (see haul list).", completion: .custom(TaskCompletion.candidates)) var id: Int64
    @Argument(help: "The new link.") var url: String
    @Flag(name: .customLong("keep-bytes"), help: "Keep the bytes even if the new link's ETag or Last-Modified differ (same length still required).")
    var keepBytes = false
    @Flag(name: .customLong("restart"), help: "Drop the kept bytes and fetch the whole file from the new link.")
    var restart = false
    @Option(name: .customLong("mirror"), help: ArgumentHelp(
        "Another link to the same file (repeatable): replaces the task's mirrors; without it they stay.", valueName: "url"))
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
            try await checkNewLink(on: endpoint, change: change)
            var commands: [QueueCommand] = [.setURL(TaskID(id), url: url, change: change)]
            if !mirrors.isEmpty { commands.append(.setMirrors(TaskID(id), mirrors)) }
            let results = try await endpoint.perform(commands)
            result = results.first { $0.failure(verb: "set the link of", again: state.repeated) != nil } ?? results[0]
        } catch {
            await endpoint.close()
            throw error
        }
        await endpoint.close()
        if let failure = result.failure(verb: "set the link of", again: state.repeated) { throw failure }
        note("#\(id): link set\(change == .restart ? "; it starts over" : change == .keepBytes ? "; its bytes are kept" : "")")
    }

    /// Asks the new link for a few of the bytes the task does not hold yet (`LinkProbe`); throws when it serves
    /// another file, warns when it cannot say. An unknown or finished task is left to the command's own answer.
    private func checkNewLink(on endpoint: QueueEndpoint, change: LinkChange) async throws {
        guard let task = try await endpoint.tasks().first(where: { $0.id == TaskID(id) }), task.state.isUnfinished,
              let link = try? TaskIntake.url(url)
        else { return }
        switch await LinkProbe.check(task, newLink: link, change: change, options: Self.probeOptions()) {
        case .notNeeded, .sameFile:
            return
        case let .refused(error):
            throw CommandFailure.usage("#\(id): the link was not changed: \(error.description)")
        case let .unconfirmed(reason):
            note("warning: #\(id): the new link could not be checked now (\(reason)); it is checked when the task resumes")
        }
    }

    /// The settings file's CA bundle, as the resume will trust it (a bundle given only on a run's command line is not
    /// known here: such a link is taken with the warning).
    static func probeOptions() -> TransferOptions {
        (try? RunSettings.load(config: nil, commandLine: [:]))?.linkCheckOptions ?? RunSettings.linkCheckTimeouts
    }
}

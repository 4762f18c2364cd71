import Foundation
import HaulTestSupport
import Testing

/// A queue longer than the live list's first screen (issue 29): the list draws its first tasks at once, a banner
/// counting the rest, then every task, on its own and attached to a background haul (the rest read a page at a
/// time), through tmux.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable)) struct LongQueueListTests {
    /// More than the first screen of either list (2,000 tasks).
    static let count = 2_500

    /// A run whose queue is `count` paused tasks added from one input file (one group).
    func pausedQueue() async throws -> HaulRun {
        let run = try HaulRun()
        let input = run.root.path + "/list.txt"
        try (1...Self.count).map { "http://127.0.0.1:9/file-\($0).bin" }.joined(separator: "\n")
            .write(toFile: input, atomically: true, encoding: .utf8)
        for (arguments, directory) in [(["add", "-i", input], true), (["pause", "--all"], false)] {
            let (status, _, errors) = try await run.run(arguments, directory: directory)
            #expect(status == 0, "haul \(arguments): \(errors)")
        }
        return run
    }

    /// The list shows every task, with no banner left, and its group opens on every task.
    func showsEveryTask(_ run: HaulRun) async throws {
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)", width: 120, height: 30)
        defer { tmux.kill() }
        try await tmux.waitFor("every task shown", timeout: .seconds(30)) {
            $0.contains("Downloading \(Self.count) ") && $0.contains("\(Self.count) paused") && !$0.contains("reading the queue")
        }
        try tmux.send("Right")
        let open = try await tmux.waitFor("▾ list.txt")
        #expect(open.contains("0/\(Self.count) done"), "the group counts every task:\n\(open)")
        try tmux.send("q")
    }

    @Test func theListShowsEveryTaskOfALongQueue() async throws {
        try await showsEveryTask(try await pausedQueue())
    }

    @Test func theAttachedListShowsEveryTaskOfALongQueue() async throws {
        let run = try await pausedQueue()
        let daemon = try await BackgroundDaemon(run)
        defer { daemon.kill() }
        try await showsEveryTask(run)
    }
}

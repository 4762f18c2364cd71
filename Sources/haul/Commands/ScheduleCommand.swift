import ArgumentParser
import Foundation
import HaulCore
import HaulStore

/// `haul schedule [WINDOW ...] [--limit WINDOW=RATE ...] [--clear]`: when the queue runs and how fast, kept in the
/// queue database and applied live by a running haul (DESIGN §10). Without arguments it shows the schedule.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Run the queue only in some hours, or cap it in some hours (local time).",
        discussion: """
            A window is [DAYS] HH:MM[:SS]-HH:MM[:SS]: 01:00-07:00, mon-fri 22:00-06:30 (over midnight it belongs to \
            the day it starts), sat,sun 00:00-24:00, fri-mon 1:00-2:00. Outside every run window running tasks go \
            back in line and nothing starts, except a task resumed by hand.

            A cap window ends in =RATE: --limit 08:00-18:00=1M. Where cap windows overlap the lowest cap holds, \
            and =0 lifts every cap while it is on: --limit 00:00-24:00=1M --limit sat,sun 00:00-24:00=0.

            Giving windows replaces the whole schedule; --clear removes it.
            """)

    @Argument(help: "Run windows; none keeps the queue running at all hours.") var windows: [String] = []
    @Option(name: .customLong("limit"), help: ArgumentHelp("A cap window, HH:MM-HH:MM=RATE (repeatable).", valueName: "window=rate")) var limits: [String] = []
    @Flag(help: "Remove the schedule: the queue always runs, with no scheduled cap.") var clear = false
    @OptionGroup var state: StateOptions

    func validate() throws {
        if clear && !(windows.isEmpty && limits.isEmpty) { throw ValidationError("--clear takes no windows") }
        _ = try schedule()
    }

    /// The schedule the arguments give.
    func schedule() throws -> Schedule {
        let given = Self.joined(windows: windows, limits: limits)
        do {
            let schedule = Schedule(
                runWindows: try given.run.map { text throws(ScheduleError) in try ScheduleWindow(parsing: text, cap: false) },
                capWindows: try given.cap.map { text throws(ScheduleError) in try ScheduleWindow(parsing: text, cap: true) })
            try schedule.checkWindowCount()
            return schedule
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        guard clear || !windows.isEmpty || !limits.isEmpty else {
            let stored = (try session.store.loadSchedule()) ?? Schedule()
            // A running haul knows what holds now (a schedule set aside with the list's z included).
            let live: String?? = session.owner == nil ? nil : await { () async -> String?? in
                guard let endpoint = try? await QueueEndpoint.open(session) else { return nil }
                let note = await endpoint.scheduleNote()
                await endpoint.close()
                return note
            }()
            print(Self.describe(stored, live: live))
            return
        }
        let schedule = try schedule()
        let endpoint = try await QueueEndpoint.open(session)
        let result: CommandResult
        do {
            result = try await endpoint.perform([.setSchedule(schedule)])[0]
        } catch {
            await endpoint.close()
            throw error
        }
        await endpoint.close()
        if let failure = result.failure(verb: "set the schedule of", again: state.repeated) { throw failure }
        print(Self.describe(schedule))
    }

    /// The windows and what they mean now.
    /// - Parameter live: what the running haul says holds now, when one answered (`.some(nil)`: nothing holds).
    static func describe(_ schedule: Schedule, live: String?? = nil, now: Date = Date(), calendar: Calendar = .current) -> String {
        guard !schedule.isEmpty else { return "no schedule: the queue runs at all hours with no scheduled cap" }
        var lines: [String] = []
        if !schedule.runWindows.isEmpty { lines.append("runs   " + schedule.runWindows.map(\.description).joined(separator: "  ")) }
        if !schedule.capWindows.isEmpty { lines.append("caps   " + schedule.capWindows.map(\.description).joined(separator: "  ")) }
        let note = live ?? schedule.note(at: now, calendar: calendar)
        lines.append("now    " + (note ?? "running, no scheduled cap"))
        return lines.joined(separator: "\n")
    }
}

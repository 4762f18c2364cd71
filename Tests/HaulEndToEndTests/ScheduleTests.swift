import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul schedule` through the built binary with windows seconds wide (DESIGN §10): a queued task waits for its
/// window, then runs; the schedule is kept, shown and cleared.
@Suite(.timeLimit(.minutes(1))) struct ScheduleTests {
    /// `HH:MM:SS` of `date` in this process's time zone (haul reads the same one).
    static func clock(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
    }

    @Test func aQueuedTaskWaitsForItsWindowThenRuns() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let plan = FaultPlan.file(size: 200_000, seed: 91)
        server.route("/night.bin", plan)
        let run = try HaulRun()
        let opens = Date().addingTimeInterval(4)
        let window = Self.clock(opens) + "-" + Self.clock(opens.addingTimeInterval(120))
        let (set, shown, setError) = try await run.run(["schedule", window])
        #expect(set == 0, "\(setError)")
        #expect(shown.contains("runs   \(window)") && shown.contains("now    scheduled: resumes at \(Self.clock(opens))"), "\(shown)")
        let (_, _, listed) = try await run.run(["list"])
        #expect(listed.contains("scheduled: resumes at \(Self.clock(opens))"), "haul list says why nothing runs: \(listed)")

        let runner = try run.start(["--headless", "--keep-running", "--json", server.url("/night.bin")])
        defer { runner.terminate() }
        let upAt = try await eventuallyValue("the runner up", timeout: .seconds(20)) { () -> Date? in
            events(runner, named: "added").isEmpty ? nil : Date()
        }
        // However late the runner comes up, the task starts only once the window is open (to the second: the
        // window's times are whole seconds).
        let started = try await eventuallyValue("started", timeout: .seconds(20)) { () -> Date? in
            events(runner, named: "started").isEmpty ? nil : Date()
        }
        #expect(started >= opens.addingTimeInterval(-1), "started \(started), the window opens \(opens)")
        try await eventually("completed in the window", timeout: .seconds(20)) { !events(runner, named: "completed").isEmpty }
        // The log said why it waited, and when the window opened (a runner that came up late never waited: only one
        // up a second before the window must have said so).
        let told = events(runner, named: "schedule").map { $0["message"] as? String }
        if upAt < opens.addingTimeInterval(-1) {
            #expect(told.first == "scheduled: resumes at \(Self.clock(opens))", "\(told)")
            #expect(told.last == .some(nil), "the window opened: \(told)")
        }
        expectSameBytes(run.file("night.bin"), plan.body.bytes())

        let (cleared, none, _) = try await run.run(["schedule", "--clear"])
        #expect(cleared == 0 && none.contains("no schedule"), "\(none)")
        let (_, again, _) = try await run.run(["schedule"])
        #expect(again.contains("no schedule"), "kept: \(again)")
    }

    @Test func aThousandWindowsAreTakenAndTheNextIsRefused() async throws {
        let run = try HaulRun()
        // A day-long cap and one-second caps above it: the cap never changes, so the search reads every day.
        func second(_ index: Int) -> String { String(format: "10:%02d:%02d", index / 60, index % 60) }
        let short = (0..<1000).flatMap { (index: Int) -> [String] in ["--limit", second(index) + "-" + second(index + 1) + "=2M"] }
        let (refused, _, error) = try await run.run(["schedule", "--limit", "00:00-24:00=1M"] + short)
        #expect(refused == 2 && error.contains("1001 windows") && error.contains("at most 1000"), "\(error)")
        let (taken, _, takenError) = try await run.run(["schedule", "--limit", "00:00-24:00=1M"] + short.dropLast(2), timeout: .seconds(30))
        #expect(taken == 0, "\(takenError)")
        let (listed, _, note) = try await run.run(["list"], timeout: .seconds(30))
        #expect(listed == 0 && note.contains("schedule: cap 1.0 MiB/s"), "\(note)")
    }

    @Test func aBadWindowIsRefusedNamingIt() async throws {
        let run = try HaulRun()
        let (status, _, error) = try await run.run(["schedule", "25:00-26:00"])
        #expect(status == 2 && error.contains("'25:00-26:00'"), "\(error)")
        let (capStatus, _, capError) = try await run.run(["schedule", "--limit", "08:00-18:00"])
        #expect(capStatus == 2 && capError.contains("needs its cap"), "\(capError)")
        let (_, shown, _) = try await run.run(["schedule"])
        #expect(shown.contains("no schedule"), "nothing was kept: \(shown)")
    }
}

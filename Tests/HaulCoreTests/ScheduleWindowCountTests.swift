import Foundation
import HaulTestSupport
import Testing
@testable import HaulCore

/// A schedule with many windows (DESIGN §10): its next change is found by reading the windows once, so a thousand
/// one-second windows answer at once; more than `Schedule.maxWindows` are refused, by the value and by the controller.
/// The time limit bounds the search: reading every window at every window's edge took 30 s a search.
@Suite(.timeLimit(.minutes(1))) struct ScheduleWindowCountTests {
    static let berlin = ScheduleTests.berlin

    static func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Date {
        ScheduleTests.at(year, month, day, hour, minute, second)
    }

    /// A full-day cap plus `count` one-second windows two seconds apart from 10:00, on `days` (every day when empty).
    static func crowded(fullDay: Int64, seconds count: Int, cap: Int64, days: Set<Int> = []) -> Schedule {
        let full = ScheduleWindow(start: 0, end: 86400, cap: fullDay)
        let short = (0..<count).map { ScheduleWindow(days: days, start: 36000 + 2 * $0, end: 36000 + 2 * $0 + 1, cap: cap) }
        return Schedule(capWindows: [full] + short)
    }

    @Test func aThousandHigherCapsUnderAFullDayCapNeverChangeIt() {
        let schedule = Self.crowded(fullDay: 1 << 20, seconds: 1000, cap: 2 << 20)
        // Several moments, a DST day among them: each search reads ten days of a thousand and one windows.
        for moment in [Self.at(2026, 11, 25, 9), Self.at(2026, 11, 25, 10, 0, 1), Self.at(2026, 3, 28, 12), Self.at(2026, 10, 25, 1)] {
            #expect(schedule.cap(at: moment, calendar: Self.berlin) == 1 << 20)
            #expect(schedule.nextChange(after: moment, calendar: Self.berlin) == nil, "\(moment)")
        }
    }

    @Test func aThousandLowerCapsOnSundayAreFoundFromMidweek() {
        let schedule = Self.crowded(fullDay: 1 << 20, seconds: 1000, cap: 512 << 10, days: [1])
        // From Wednesday 25 November 2026 the first lower cap is Sunday 29th at 10:00:00, then it ends a second later.
        let sunday = Self.at(2026, 11, 29, 10)
        #expect(schedule.nextChange(after: Self.at(2026, 11, 25, 12), calendar: Self.berlin) == sunday)
        #expect(schedule.nextChange(after: sunday, calendar: Self.berlin) == Self.at(2026, 11, 29, 10, 0, 1))
        #expect(schedule.nextChange(after: Self.at(2026, 11, 29, 10, 33, 18), calendar: Self.berlin) == Self.at(2026, 11, 29, 10, 33, 19),
                "the last short window ends at 10:33:19")
        #expect(schedule.nextChange(after: Self.at(2026, 11, 29, 10, 33, 19), calendar: Self.berlin) == Self.at(2026, 12, 6, 10),
                "then not until next Sunday")
    }

    @Test func theSearchAnswersAsTestingEveryWindowAtEveryEdgeDid() throws {
        // Windows over midnight, on some days, across both DST changes, against the search as it was written first.
        let texts = ["mon-fri 22:00-06:30", "sat,sun 00:00-24:00", "02:00-02:30", "fri-mon 23:30-01:15", "wed 12:00-12:00:01"]
        let caps = ["08:00-18:00=1M", "mon-fri 12:00-13:00=256K", "01:30-03:30=2M", "sun 23:00-01:00=512K", "02:15-02:45=1M"]
        var moments: [Date] = []
        for day in [(2026, 3, 27), (2026, 3, 29), (2026, 10, 24), (2026, 10, 25), (2026, 11, 25)] {
            for hour in [0, 1, 2, 3, 6, 12, 22, 23] { moments.append(Self.at(day.0, day.1, day.2, hour, 20)) }
        }
        for runs in 0...texts.count {
            for capCount in [0, 2, caps.count] {
                let schedule = Schedule(
                    runWindows: try texts.prefix(runs).map { try ScheduleWindow(parsing: $0, cap: false) },
                    capWindows: try caps.prefix(capCount).map { try ScheduleWindow(parsing: $0, cap: true) })
                for moment in moments {
                    #expect(schedule.nextChange(after: moment, calendar: Self.berlin) == Self.reference(schedule, after: moment),
                            "\(schedule.runWindows) \(schedule.capWindows) after \(moment)")
                }
            }
        }
    }

    /// The search as first written: every window's start and end on each day from the day before to eight after,
    /// each tested against every window.
    static func reference(_ schedule: Schedule, after date: Date) -> Date? {
        let calendar = berlin
        let times = Set((schedule.runWindows + schedule.capWindows).flatMap { [$0.start, $0.end % 86400] })
        guard !times.isEmpty, let today = calendar.dateInterval(of: .day, for: date)?.start else { return nil }
        var moments: Set<Date> = []
        for offset in -1...8 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            for seconds in times {
                var parts = calendar.dateComponents([.year, .month, .day], from: day)
                (parts.hour, parts.minute, parts.second) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
                if let moment = calendar.date(from: parts), moment > date { moments.insert(moment) }
            }
        }
        let now = (schedule.runs(at: date, calendar: calendar), schedule.cap(at: date, calendar: calendar))
        return moments.sorted().first { (schedule.runs(at: $0, calendar: calendar), schedule.cap(at: $0, calendar: calendar)) != now }
    }

    @Test func theThousandAndFirstWindowIsRefused() throws {
        try Self.crowded(fullDay: 1 << 20, seconds: 999, cap: 2 << 20).checkWindowCount()
        let over = Self.crowded(fullDay: 1 << 20, seconds: 1000, cap: 2 << 20)
        #expect(throws: ScheduleError.tooManyWindows(count: 1001, limit: 1000)) { try over.checkWindowCount() }
        let message = ScheduleError.tooManyWindows(count: 1001, limit: 1000).description
        #expect(message.contains("1001 windows") && message.contains("at most 1000"), "\(message)")
    }

    @Test func theControllerRefusesTooManyWindowsAndKeepsTheSchedule() async throws {
        let store = MemoryTaskStore()
        let kept = Schedule(runWindows: [ScheduleWindow(start: 3600, end: 7200)])
        try store.saveSchedule(kept)
        let controller = DownloadController(store: store, driver: ScriptedDriver(), snapshots: SnapshotBox(), configuration: .init(maxConcurrent: 1))
        let result = await controller.perform(.setSchedule(Self.crowded(fullDay: 1 << 20, seconds: 1000, cap: 2 << 20)))
        #expect(result == .rejected(ScheduleError.tooManyWindows(count: 1001, limit: 1000).description))
        #expect(try store.loadSchedule() == kept)
        #expect(await controller.currentSchedule() == kept)
    }
}

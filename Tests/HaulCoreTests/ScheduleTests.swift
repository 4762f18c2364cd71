import Foundation
import HaulCore
import Testing

/// The schedule as a pure value on a given clock, in Berlin (DESIGN §10): windows over midnight, DST, empty.
struct ScheduleTests {
    static let berlin: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    /// A local wall-clock time in Berlin.
    static func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Date {
        berlin.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    static func window(_ text: String, cap: Bool = false) throws -> ScheduleWindow { try ScheduleWindow(parsing: text, cap: cap) }

    @Test func anEmptyScheduleAlwaysRunsWithoutACap() {
        let schedule = Schedule()
        #expect(schedule.runs(at: Self.at(2026, 11, 25, 3), calendar: Self.berlin))
        #expect(schedule.cap(at: Self.at(2026, 11, 25, 3), calendar: Self.berlin) == nil)
        #expect(schedule.nextChange(after: Self.at(2026, 11, 25, 3), calendar: Self.berlin) == nil)
    }

    @Test func aNightWindowRunsOnlyAtNightAndSaysWhenItResumes() throws {
        let schedule = Schedule(runWindows: [try Self.window("01:00-07:00")])
        let noon = Self.at(2026, 11, 25, 12)
        #expect(!schedule.runs(at: noon, calendar: Self.berlin))
        #expect(schedule.nextChange(after: noon, calendar: Self.berlin) == Self.at(2026, 11, 26, 1))
        #expect(schedule.runs(at: Self.at(2026, 11, 26, 1), calendar: Self.berlin))
        #expect(schedule.runs(at: Self.at(2026, 11, 26, 6, 59, 59), calendar: Self.berlin))
        #expect(!schedule.runs(at: Self.at(2026, 11, 26, 7), calendar: Self.berlin))
        #expect(schedule.nextChange(after: Self.at(2026, 11, 26, 2), calendar: Self.berlin) == Self.at(2026, 11, 26, 7))
    }

    @Test func aWindowOverMidnightBelongsToTheDayItStarts() throws {
        // Friday 22:00 to Saturday 06:30, and Monday to Thursday likewise; not Saturday night into Sunday.
        let schedule = Schedule(runWindows: [try Self.window("mon-fri 22:00-06:30")])
        #expect(schedule.runs(at: Self.at(2026, 11, 27, 23), calendar: Self.berlin), "Friday night")
        #expect(schedule.runs(at: Self.at(2026, 11, 28, 6), calendar: Self.berlin), "Saturday early morning")
        #expect(!schedule.runs(at: Self.at(2026, 11, 28, 23), calendar: Self.berlin), "Saturday night")
        #expect(!schedule.runs(at: Self.at(2026, 11, 30, 3), calendar: Self.berlin), "Monday early (Sunday night)")
        #expect(schedule.nextChange(after: Self.at(2026, 11, 28, 12), calendar: Self.berlin) == Self.at(2026, 11, 30, 22),
                "from Saturday noon the next start is Monday 22:00")
    }

    @Test func capWindowsTakeTheLowestCap() throws {
        let schedule = Schedule(capWindows: [try Self.window("08:00-18:00=1M", cap: true), try Self.window("mon-fri 12:00-13:00=256K", cap: true)])
        #expect(schedule.cap(at: Self.at(2026, 11, 25, 9), calendar: Self.berlin) == 1 << 20)
        #expect(schedule.cap(at: Self.at(2026, 11, 25, 12, 30), calendar: Self.berlin) == 256 << 10)
        #expect(schedule.cap(at: Self.at(2026, 11, 29, 12, 30), calendar: Self.berlin) == 1 << 20, "Sunday")
        #expect(schedule.cap(at: Self.at(2026, 11, 25, 19), calendar: Self.berlin) == nil)
        #expect(schedule.runs(at: Self.at(2026, 11, 25, 19), calendar: Self.berlin), "cap windows do not stop the queue")
        #expect(schedule.nextChange(after: Self.at(2026, 11, 25, 9), calendar: Self.berlin) == Self.at(2026, 11, 25, 12))
    }

    @Test func springForwardSkipsAnHourOfLocalTime() throws {
        // 29 March 2026: 02:00 CET becomes 03:00 CEST; 02:00-02:30 never happens that night.
        let skipped = Schedule(runWindows: [try Self.window("02:00-02:30")])
        let before = Self.at(2026, 3, 29, 1, 59, 59)
        #expect(!skipped.runs(at: before, calendar: Self.berlin))
        #expect(!skipped.runs(at: before.addingTimeInterval(1), calendar: Self.berlin), "the next second is 03:00 CEST")
        // A night window keeps its wall-clock times: 01:00-07:00 is five hours long that night.
        let night = Schedule(runWindows: [try Self.window("01:00-07:00")])
        let start = Self.at(2026, 3, 29, 1)
        let end = try #require(night.nextChange(after: start, calendar: Self.berlin))
        #expect(end == Self.at(2026, 3, 29, 7) && end.timeIntervalSince(start) == 5 * 3600)
    }

    @Test func fallBackRepeatsAnHourOfLocalTime() throws {
        // 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:00-03:00 happens twice, and both are in the window.
        let schedule = Schedule(runWindows: [try Self.window("02:00-03:00")])
        let first = Self.at(2026, 10, 25, 2, 30)
        #expect(schedule.runs(at: first, calendar: Self.berlin))
        #expect(schedule.runs(at: first.addingTimeInterval(3600), calendar: Self.berlin), "02:30 again, an hour later")
        let night = Schedule(runWindows: [try Self.window("01:00-07:00")])
        let end = try #require(night.nextChange(after: Self.at(2026, 10, 25, 1), calendar: Self.berlin))
        #expect(end.timeIntervalSince(Self.at(2026, 10, 25, 1)) == 7 * 3600, "seven hours that night")
    }

    @Test func secondsInWindowsForShortTests() throws {
        let window = try Self.window("01:00:05-01:00:09")
        #expect(window.start == 3605 && window.end == 3609)
        let schedule = Schedule(runWindows: [window])
        #expect(schedule.runs(at: Self.at(2026, 11, 25, 1, 0, 5), calendar: Self.berlin))
        #expect(!schedule.runs(at: Self.at(2026, 11, 25, 1, 0, 9), calendar: Self.berlin))
        #expect(window.description == "01:00:05-01:00:09")
    }

    @Test(arguments: [
        ("mon-fri 01:00-07:00", "mon-fri 01:00-07:00"), ("sat,sun 00:00-24:00", "sat,sun 00:00-24:00"),
        ("fri-mon 22:00-02:00", "fri-mon 22:00-02:00"), ("Mon 08:00-09:30:15", "mon 08:00-09:30:15"),
        ("1:00-2:00", "01:00-02:00"), ("sun,sat 9:30-10:00", "sun,sat 09:30-10:00"),
    ])
    func windowsReadAndPrint(text: String, printed: String) throws {
        #expect(try Self.window(text).description == printed)
    }

    @Test(arguments: [
        ("01:00", ScheduleError.malformed("01:00")), ("25:00-26:00", .malformed("25:00-26:00")), ("1:0-2:00", .malformed("1:0-2:00")),
        ("001:00-02:00", .malformed("001:00-02:00")),
        ("01:00-01:00", .emptyWindow("01:00-01:00")), ("mon-xyz 01:00-02:00", .badDay("mon-xyz")), ("24:00-01:00", .malformed("24:00-01:00")),
        ("01:00-02:00=1M", .capOutsideLimit("01:00-02:00=1M")), ("01:60-02:00", .malformed("01:60-02:00")),
    ])
    func badRunWindowsAreNamed(text: String, error: ScheduleError) {
        #expect(throws: error) { try ScheduleWindow(parsing: text, cap: false) }
    }

    @Test func capWindowsNeedARate() throws {
        #expect(throws: ScheduleError.limitNeedsRate("08:00-18:00")) { try ScheduleWindow(parsing: "08:00-18:00", cap: true) }
        #expect(throws: ScheduleError.badRate("fast")) { try ScheduleWindow(parsing: "08:00-18:00=fast", cap: true) }
        #expect(try ScheduleWindow(parsing: "08:00-18:00=1M", cap: true).description == "08:00-18:00=1M")
    }

    @Test func theDaysAreKeptAsGivenAndRead() throws {
        let window = try Self.window("fri-mon 22:00-02:00")
        #expect(window.days == [6, 7, 1, 2], "friday to monday, over the week's end")
        let built = ScheduleWindow(days: [1, 7, 2], start: 0, end: 3600)
        #expect(built.description == "mon,sat,sun 00:00-01:00", "without the words given, Monday first")
    }

    @Test func aCapOfZeroLiftsEveryCapWhileItIsOn() throws {
        let schedule = Schedule(capWindows: [try Self.window("00:00-24:00=1M", cap: true),
                                             try Self.window("sat,sun 00:00-24:00=0", cap: true)])
        #expect(schedule.capWindows[1].description == "sat,sun 00:00-24:00=0")
        let friday = Self.at(2026, 11, 27, 12), saturday = Self.at(2026, 11, 28, 12)
        #expect(schedule.cap(at: friday, calendar: Self.berlin) == 1 << 20)
        #expect(schedule.cap(at: saturday, calendar: Self.berlin) == nil)
        #expect(schedule.nextChange(after: friday, calendar: Self.berlin) == Self.at(2026, 11, 28, 0),
                "the weekend's lifted cap is a change")
        #expect(schedule.note(at: saturday, calendar: Self.berlin) == nil, "no cap, no note")
    }

    @Test func aCapThatOutlastsTheRunWindowSaysWhenTheQueueStops() throws {
        let schedule = Schedule(runWindows: [try Self.window("08:00-21:45")],
                                capWindows: [try Self.window("08:00-22:00=300K", cap: true)])
        #expect(schedule.note(at: Self.at(2026, 11, 25, 12), calendar: Self.berlin) == "schedule: cap 300.0 KiB/s, stops at 21:45")
        let capOnly = Schedule(capWindows: schedule.capWindows)
        #expect(capOnly.note(at: Self.at(2026, 11, 25, 12), calendar: Self.berlin) == "schedule: cap 300.0 KiB/s until 22:00")
    }
}

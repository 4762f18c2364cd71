import Foundation
import HaulCore
import Testing

/// The schedule's gate read on given moments, without a controller or real time (`ScheduleGate`).
struct ScheduleGateTests {
    static let berlin = ScheduleTests.berlin
    static func at(_ hour: Int, _ minute: Int = 0) -> Date { ScheduleTests.at(2026, 11, 25, hour, minute) }

    @Test func aRunWindowHoldsTheQueueOutsideItAndSaysWhenItOpens() throws {
        var gate = ScheduleGate(schedule: Schedule(runWindows: [try ScheduleTests.window("01:00-07:00")]))
        let first = gate.read(at: Self.at(12), calendar: Self.berlin)
        #expect(first == ScheduleGate.Change(holds: true, cap: false, note: true))
        #expect(gate.holds && gate.note == "scheduled: resumes at Thu 01:00")
        #expect(gate.heldUntil == "Thu 01:00", "the list's header says until when")
        #expect(gate.read(at: Self.at(12, 1), calendar: Self.berlin) == ScheduleGate.Change(holds: false, cap: false, note: false),
                "nothing changed a minute later")
        let opened = gate.read(at: ScheduleTests.at(2026, 11, 26, 1, 0, 1), calendar: Self.berlin)
        #expect(opened.holds && !gate.holds && gate.note == nil)
        #expect(gate.heldUntil == nil)
    }

    @Test func aCapWindowCapsAndAForcedReadingTellsTheCapAgain() throws {
        var gate = ScheduleGate(schedule: Schedule(capWindows: [try ScheduleTests.window("08:00-18:00=1M", cap: true)]))
        #expect(gate.read(at: Self.at(9), calendar: Self.berlin).cap)
        #expect(gate.cap == 1 << 20 && !gate.holds)
        #expect(!gate.read(at: Self.at(10), calendar: Self.berlin).cap)
        #expect(gate.read(at: Self.at(10), calendar: Self.berlin, force: true).cap)
        #expect(gate.read(at: Self.at(19), calendar: Self.berlin).cap && gate.cap == nil)
    }

    @Test func suspendingSetsTheScheduleAsideUntilItsNextChange() throws {
        var gate = ScheduleGate(schedule: Schedule(runWindows: [try ScheduleTests.window("01:00-07:00")]))
        _ = gate.read(at: Self.at(12), calendar: Self.berlin)
        gate.suspend(true, now: Self.at(12), calendar: Self.berlin)
        let suspended = gate.read(at: Self.at(12), calendar: Self.berlin)
        #expect(suspended.holds && !gate.holds)
        #expect(gate.note == "schedule suspended until Thu 01:00")
        #expect(gate.heldUntil == nil, "set aside, the schedule holds nothing")
        // At its next change the schedule is in force again (the window is open then).
        _ = gate.read(at: ScheduleTests.at(2026, 11, 26, 1, 0, 1), calendar: Self.berlin)
        #expect(gate.suspendedUntil == nil && !gate.holds)
        _ = gate.read(at: ScheduleTests.at(2026, 11, 26, 8), calendar: Self.berlin)
        #expect(gate.holds, "and holds the queue outside it again")
    }
}

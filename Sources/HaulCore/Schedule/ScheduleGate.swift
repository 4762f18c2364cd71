import Foundation

/// The schedule's gate on the queue (DESIGN §10) as a pure value: read on a wall-clock moment, it says whether the
/// queue runs, the cap it puts on all downloads and the note the list shows, and what of these changed since the
/// last reading. The controller reads it once a second and carries the changes out.
public struct ScheduleGate: Sendable {
    /// What a reading changed.
    public struct Change: Sendable, Equatable {
        /// The queue started or stopped being held (outside the run windows).
        public var holds: Bool
        /// The cap changed (or the reading was forced: the engine is told again).
        public var cap: Bool
        /// The note changed.
        public var note: Bool

        public init(holds: Bool, cap: Bool, note: Bool) {
            self.holds = holds
            self.cap = cap
            self.note = note
        }
    }

    public private(set) var schedule = Schedule()
    /// Outside the run windows: only what the user starts by hand runs.
    public private(set) var holds = false
    /// The schedule's cap on all downloads now, in bytes per second.
    public private(set) var cap: Int64?
    /// `scheduled: resumes at 01:00`; nil when the schedule neither holds nor caps the queue.
    public private(set) var note: String?
    /// When the queue runs again (`23:00`, `never`) while the schedule holds it; nil otherwise.
    public private(set) var heldUntil: String?
    /// The schedule is set aside until this moment (its next change when the user suspended it).
    public private(set) var suspendedUntil: Date?
    /// The next change as last looked for, and what the schedule held and capped then: while they stand and it has
    /// not come (and the clock has not gone back past when it was looked for), it is the answer, so a reading
    /// does not search the windows again.
    private var next: (runs: Bool, cap: Int64?, at: Date?, found: Date)?

    public init(schedule: Schedule = Schedule()) {
        self.schedule = schedule
    }

    /// Replaces the schedule; the next reading applies it.
    public mutating func replace(_ new: Schedule) {
        schedule = new
        next = nil
    }

    /// Sets the schedule aside until its next change after `now`, or takes it up again.
    public mutating func suspend(_ suspend: Bool, now: Date, calendar: Calendar) {
        suspendedUntil = suspend ? schedule.nextChange(after: now, calendar: calendar) : nil
    }

    /// Reads the schedule at `now`. `force` counts the cap as changed (to tell the engine again) and searches the
    /// next change afresh.
    public mutating func read(at now: Date, calendar: Calendar, force: Bool = false) -> Change {
        if let until = suspendedUntil, now >= until { suspendedUntil = nil }
        let suspended = suspendedUntil != nil
        let runs = suspended || schedule.runs(at: now, calendar: calendar)
        let newCap = suspended ? nil : schedule.cap(at: now, calendar: calendar)
        let next = suspended ? nil : nextChange(runs: runs, cap: newCap, now: now, calendar: calendar, force: force)
        let newNote = suspendedUntil.map { "schedule suspended until " + Schedule.clock($0, now: now, calendar: calendar) }
            ?? schedule.note(runs: runs, cap: newCap, next: next, at: now, calendar: calendar)
        heldUntil = runs ? nil : next.map { Schedule.clock($0, now: now, calendar: calendar) } ?? "never"
        let change = Change(holds: holds != !runs, cap: newCap != cap || force, note: newNote != note)
        holds = !runs
        cap = newCap
        note = newNote
        return change
    }

    /// The next change when the schedule holds or caps the queue (nil otherwise).
    private mutating func nextChange(runs: Bool, cap: Int64?, now: Date, calendar: Calendar, force: Bool) -> Date? {
        guard !runs || cap != nil else { return nil }
        if !force, let last = next, last.runs == runs, last.cap == cap, now >= last.found, last.at.map({ now < $0 }) ?? true {
            return last.at
        }
        let found = schedule.nextChange(after: now, calendar: calendar)
        next = (runs, cap, found, now)
        return found
    }
}

import Foundation

extension Schedule {
    /// What the schedule does at `now`, in words for the list's header and `haul schedule`: `scheduled: resumes at
    /// 01:00`, `schedule: cap 1.0 MiB/s until 18:00`, `schedule: cap 1.0 MiB/s, stops at 17:45`, or nil when it
    /// neither holds nor caps the queue.
    public func note(at now: Date, calendar: Calendar) -> String? {
        let (runs, cap) = (runs(at: now, calendar: calendar), cap(at: now, calendar: calendar))
        let next = !runs || cap != nil ? nextChange(after: now, calendar: calendar) : nil
        return note(runs: runs, cap: cap, next: next, at: now, calendar: calendar)
    }

    /// The note for what `runs` and `cap` say at `now` and the schedule's `next` change (as the caller read them).
    public func note(runs: Bool, cap: Int64?, next: Date?, at now: Date, calendar: Calendar) -> String? {
        guard !runs || cap != nil else { return nil }
        let when = next.map { " " + Self.clock($0, now: now, calendar: calendar) } ?? ""
        if !runs { return "scheduled: resumes" + (next == nil ? " never (no run window)" : " at" + when) }
        let capped = "schedule: cap \(ByteCountFormat.rate(Double(cap ?? 0)))"
        guard let next else { return capped }
        // What changes then: the queue stopping is said as such, not as the cap's end.
        return capped + (self.runs(at: next, calendar: calendar) ? " until" : ", stops at") + when
    }

    /// `01:00`, or `Mon 01:00` when it is not today, in the calendar's time zone.
    public static func clock(_ date: Date, now: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.hour, .minute, .second, .weekday], from: date)
        var text = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        if let second = parts.second, second != 0 { text += String(format: ":%02d", second) }
        guard calendar.isDate(date, inSameDayAs: now) else {
            return ScheduleWindow.dayNames[((parts.weekday ?? 1) - 1) % 7].capitalized + " " + text
        }
        return text
    }
}

import Foundation

extension Schedule {
    /// What the schedule does at `now`, in words for the list's header and `haul schedule`: `scheduled: resumes at
    /// 01:00`, `schedule: cap 1.0 MiB/s until 18:00`, or nil when it neither holds nor caps the queue.
    public func note(at now: Date, calendar: Calendar) -> String? {
        let next = nextChange(after: now, calendar: calendar)
        let when = next.map { " " + Self.clock($0, now: now, calendar: calendar) } ?? ""
        if !runs(at: now, calendar: calendar) { return "scheduled: resumes" + (next == nil ? " never (no run window)" : " at" + when) }
        guard let cap = cap(at: now, calendar: calendar) else { return nil }
        return "schedule: cap \(ByteCountFormat.rate(Double(cap)))" + (next == nil ? "" : " until" + when)
    }

    /// `01:00`, or `Mon 01:00` when it is not today, in the calendar's time zone.
    public static func clock(_ date: Date, now: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.hour, .minute, .second, .weekday], from: date)
        var text = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        if let second = parts.second, second != 0 { text += String(format: ":%02d", second) }
        guard calendar.isDate(date, inSameDayAs: now) else {
            let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            return names[((parts.weekday ?? 1) - 1) % 7] + " " + text
        }
        return text
    }
}

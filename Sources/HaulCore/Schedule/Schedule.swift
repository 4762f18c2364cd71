import Foundation

/// When the queue may run and how fast (`haul schedule`, DESIGN §10), as a pure value: given the clock, it answers
/// "run now?", "cap now?" and "next change at?". No run windows means always; no cap windows means no cap.
/// Times are local, read in the calendar's time zone, so a window follows the wall clock across DST changes.
public struct Schedule: Sendable, Equatable, Codable {
    public var runWindows: [ScheduleWindow]
    public var capWindows: [ScheduleWindow]

    public init(runWindows: [ScheduleWindow] = [], capWindows: [ScheduleWindow] = []) {
        self.runWindows = runWindows
        self.capWindows = capWindows
    }

    public var isEmpty: Bool { runWindows.isEmpty && capWindows.isEmpty }

    /// Whether queued tasks may start (and running ones go on) at `date`.
    public func runs(at date: Date, calendar: Calendar) -> Bool {
        runWindows.isEmpty || runWindows.contains { $0.contains(date, calendar: calendar) }
    }

    /// The cap on all downloads at `date`: the lowest of the cap windows it falls in, nil for none.
    public func cap(at date: Date, calendar: Calendar) -> Int64? {
        capWindows.filter { $0.contains(date, calendar: calendar) }.compactMap(\.cap).min()
    }

    /// The first moment after `date` when `runs` or `cap` changes, nil when they never do.
    public func nextChange(after date: Date, calendar: Calendar) -> Date? {
        let now = (runs(at: date, calendar: calendar), cap(at: date, calendar: calendar))
        return boundaries(after: date, calendar: calendar).first { moment in
            (runs(at: moment, calendar: calendar), cap(at: moment, calendar: calendar)) != now
        }
    }

    /// Every start and end of a window from the day before `date` to eight days after, in order: a weekly
    /// schedule that changes at all changes within that span. A local time a DST change skips maps to the
    /// moment the clock jumps to.
    func boundaries(after date: Date, calendar: Calendar) -> [Date] {
        let times = Set((runWindows + capWindows).flatMap { [$0.start, $0.end % 86400] })
        guard !times.isEmpty, let today = calendar.dateInterval(of: .day, for: date)?.start else { return [] }
        var moments: Set<Date> = []
        for offset in -1...8 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            for seconds in times {
                var parts = calendar.dateComponents([.year, .month, .day], from: day)
                parts.hour = seconds / 3600
                parts.minute = seconds / 60 % 60
                parts.second = seconds % 60
                if let moment = calendar.date(from: parts), moment > date { moments.insert(moment) }
            }
        }
        return moments.sorted()
    }
}

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

    /// The cap on all downloads at `date`: the lowest of the cap windows it falls in, nil for none or when one of
    /// them is `=0` (no cap).
    public func cap(at date: Date, calendar: Calendar) -> Int64? {
        Self.cap(lowest: capWindows.filter { $0.contains(date, calendar: calendar) }.compactMap(\.cap).min())
    }

    /// The cap the lowest of the open windows' caps makes: 0 lifts every cap.
    static func cap(lowest: Int64?) -> Int64? {
        lowest.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The most windows a schedule may have, run and cap windows together: enough for any week by the minute
    /// boundaries people use, and few enough that reading one stays quick.
    public static let maxWindows = 1000

    /// Throws when the schedule has more windows than `maxWindows`.
    public func checkWindowCount() throws(ScheduleError) {
        let count = runWindows.count + capWindows.count
        if count > Self.maxWindows { throw .tooManyWindows(count: count, limit: Self.maxWindows) }
    }

    /// The first moment after `date` when `runs` or `cap` changes, nil when they never do.
    ///
    /// Candidates are the moments the answer changes on each day from the day before `date` to eight days after, in
    /// order: a weekly schedule that changes at all changes within that span. A local time a DST change skips maps to
    /// the moment the clock jumps to. The windows are read once, into a `ScheduleDayTable`.
    public func nextChange(after date: Date, calendar: Calendar) -> Date? {
        guard !isEmpty, let today = calendar.dateInterval(of: .day, for: date)?.start else { return nil }
        let table = ScheduleDayTable(self)
        let now = table.answer(at: date, calendar: calendar)
        for offset in -1...8 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            let weekday = calendar.component(.weekday, from: day)
            let dayParts = calendar.dateComponents([.year, .month, .day], from: day)
            let moments = table.changes(on: weekday).compactMap { seconds -> Date? in
                var parts = dayParts
                parts.hour = seconds / 3600
                parts.minute = seconds / 60 % 60
                parts.second = seconds % 60
                return calendar.date(from: parts).flatMap { $0 > date ? $0 : nil }
            }
            if let change = moments.sorted().first(where: { table.answer(at: $0, calendar: calendar) != now }) { return change }
        }
        return nil
    }
}

import Foundation

/// One window of a schedule (`haul schedule`, DESIGN §10): days of the week, a local start and end time, and for
/// a cap window the cap. `mon-fri 01:00-07:00`, `22:00-06:30` (over midnight: it belongs to the day it starts),
/// `08:00-18:00=1M` (`=0`: no cap while it is on), `sat,sun 00:00:05-24:00`.
public struct ScheduleWindow: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Days it starts on, 1 = Sunday … 7 = Saturday (`Calendar`'s numbering); every day when empty.
    public var days: Set<Int>
    /// The days as the user wrote them (`sat,sun`, `fri-mon`), lowercased, so they are echoed in the order given.
    public var daysAsGiven: String?
    /// Seconds after local midnight, 0..<86400.
    public var start: Int
    /// Seconds after local midnight, 1...86400; at or before `start` for a window over midnight.
    public var end: Int
    /// Bytes per second while the window is on, for a cap window; 0 lifts every cap while it is on.
    public var cap: Int64?

    public init(days: Set<Int> = [], start: Int, end: Int, cap: Int64? = nil) {
        self.days = days
        self.start = start
        self.end = end
        self.cap = cap
    }

    /// Whether it runs over midnight into the next day.
    public var crossesMidnight: Bool { end <= start }

    /// Whether `date` falls in it, read in `calendar`'s time zone.
    public func contains(_ date: Date, calendar: Calendar) -> Bool {
        let seconds = Self.secondsOfDay(date, calendar: calendar)
        let weekday = calendar.component(.weekday, from: date)
        let yesterday = weekday == 1 ? 7 : weekday - 1
        if crossesMidnight {
            return (startsOn(weekday) && seconds >= start) || (startsOn(yesterday) && seconds < end)
        }
        return startsOn(weekday) && seconds >= start && seconds < end
    }

    func startsOn(_ weekday: Int) -> Bool { days.isEmpty || days.contains(weekday) }

    static func secondsOfDay(_ date: Date, calendar: Calendar) -> Int {
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
    }

    // MARK: - Text

    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// The window `text` describes; `cap` says whether it must (or must not) end in `=RATE`.
    public init(parsing text: String, cap wantsCap: Bool) throws(ScheduleError) {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 1 || words.count == 2 else { throw .malformed(text) }
        daysAsGiven = words.count == 2 ? words[0].lowercased() : nil
        days = words.count == 2 ? try Self.days(String(words.removeFirst()), in: text) : []
        var span = Substring(words[0])
        cap = nil
        if let equals = span.firstIndex(of: "=") {
            guard wantsCap else { throw .capOutsideLimit(text) }
            let rate = String(span[span.index(after: equals)...])
            guard let bytes = ByteSize.parse(rate), bytes >= 0 else { throw .badRate(rate) }
            cap = bytes
            span = span[..<equals]
        } else if wantsCap {
            throw .limitNeedsRate(text)
        }
        let ends = span.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Self.time(ends[0], allowing24: false), let last = Self.time(ends[1], allowing24: true)
        else { throw .malformed(text) }
        guard first != last else { throw .emptyWindow(text) }
        start = first
        end = last
    }

    /// `HH:MM` or `HH:MM:SS` (`H:MM` too); `24:00` only as an end.
    static func time(_ text: Substring, allowing24: Bool) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count),
              parts.dropFirst().allSatisfy({ $0.count == 2 }), parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
        else { return nil }
        let seconds = parts.count == 3 ? Int(parts[2]) : 0
        guard let seconds, seconds < 60 else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        return total < 86400 || (allowing24 && total == 86400) ? total : nil
    }

    /// `mon-fri`, `sat,sun`, `fri-mon` (wrapping), `mon,wed-fri`.
    static func days(_ text: String, in whole: String) throws(ScheduleError) -> Set<Int> {
        var days: Set<Int> = []
        for part in text.lowercased().split(separator: ",") {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2, let first = dayNames.firstIndex(of: String(ends[0])),
                  let last = dayNames.firstIndex(of: String(ends.last!))
            else { throw .badDay(String(part)) }
            var day = first
            while true {
                days.insert(day + 1)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return days
    }

    public var description: String {
        var text = ""
        if let daysAsGiven {
            text = daysAsGiven + " "
        } else if !days.isEmpty {
            // Monday first, as people write weeks.
            text = days.sorted { ($0 + 5) % 7 < ($1 + 5) % 7 }.map { Self.dayNames[$0 - 1] }.joined(separator: ",") + " "
        }
        text += Self.clock(start) + "-" + Self.clock(end)
        if let cap { text += "=" + (cap == 0 ? "0" : cap % (1 << 20) == 0 ? "\(cap >> 20)M" : cap % 1024 == 0 ? "\(cap >> 10)K" : "\(cap)") }
        return text
    }

    static func clock(_ seconds: Int) -> String {
        let base = String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
        return seconds % 60 == 0 ? base : base + String(format: ":%02d", seconds % 60)
    }
}

/// Why a schedule window cannot be read; the description quotes it.
public enum ScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case badDay(String)
    case badRate(String)
    case emptyWindow(String)
    case limitNeedsRate(String)
    case capOutsideLimit(String)
    /// A schedule with more windows than `Schedule.maxWindows`.
    case tooManyWindows(count: Int, limit: Int)

    public var description: String {
        switch self {
        case let .malformed(text):
            return "schedule window '\(text.escapingAllControlCharacters)' is not [DAYS] HH:MM[:SS]-HH:MM[:SS] (say mon-fri 01:00-07:00)"
        case let .badDay(text):
            return "'\(text.escapingAllControlCharacters)' is not a day or a range of days (mon tue wed thu fri sat sun, mon-fri, sat,sun)"
        case let .badRate(text):
            return "'\(text.escapingAllControlCharacters)' is not a rate (say 1M or 500K, or 0 for no cap)"
        case let .emptyWindow(text):
            return "schedule window '\(text.escapingAllControlCharacters)' starts when it ends"
        case let .limitNeedsRate(text):
            return "cap window '\(text.escapingAllControlCharacters)' needs its cap: HH:MM-HH:MM=RATE"
        case let .capOutsideLimit(text):
            return "'\(text.escapingAllControlCharacters)' has a cap: give cap windows with --limit"
        case let .tooManyWindows(count, limit):
            return "a schedule of \(count) windows is too many: give at most \(limit), run and cap windows together (join windows that touch, or name days, as in mon-fri 01:00-07:00)"
        }
    }
}

import Foundation

/// HTTP dates (RFC 9110 §5.6.7): parses the three historic forms, formats the preferred one.
///
/// Pure arithmetic on the proleptic Gregorian calendar in UTC: no `DateFormatter`, no locale, no time zone.
public enum HTTPDate {
    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since 1970: what four digits of year can show.
    static let earliest: TimeInterval = -62_135_596_800
    static let latest: TimeInterval = 253_402_300_799

    /// The date in `text`, or nil when it is none of the forms below or names an impossible date.
    ///
    /// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (what servers send today)
    /// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit years 70–99 are 19xx, 00–69 are 20xx)
    /// - asctime: `Sun Nov  6 08:49:37 1994`
    ///
    /// Names are matched case-insensitively; the weekday is checked for spelling, not against the date.
    public static func parse(_ text: String) -> Date? {
        let trimmed = Substring(text).trimmingHTTPWhitespace()
        let fields = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        if let comma = fields.first?.last, comma == "," {
            let day = fields[0].dropLast().lowercased()
            if fields.count == 6, dayNames.contains(where: { $0.lowercased() == day }) {
                return imfFixdate(fields)
            }
            if fields.count == 4, longDayNames.contains(where: { $0.lowercased() == day }) {
                return rfc850(fields)
            }
            return nil
        }
        if fields.count == 5, dayNames.contains(where: { $0.lowercased() == fields[0].lowercased() }) {
            return asctime(fields)
        }
        return nil
    }

    /// `date` as an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`; fractions of a second are dropped.
    ///
    /// Dates outside the years 1–9999 are clamped to those years, the range the format can show.
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, earliest), latest)
        let seconds = Int64(clamped.rounded(.down))
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = Int(floorMod(days + 3, 7))        // 1970-01-01 was a Thursday (index 3 from Monday)
        let time = [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60].map { Int($0).zeroPadded(to: 2) }
        return "\(dayNames[weekday]), \(day.zeroPadded(to: 2)) \(monthNames[month - 1]) \(year.zeroPadded(to: 4)) "
            + time.joined(separator: ":") + " GMT"
    }

    // MARK: - The three forms

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, already split on spaces.
    static func imfFixdate(_ fields: [Substring]) -> Date? {
        guard fields[1].count == 2, fields[3].count == 4, fields[5] == "GMT",
              let day = digits(fields[1]), let month = month(fields[2]), let year = digits(fields[3])
        else { return nil }
        return make(year: year, month: month, day: day, time: fields[4])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`, already split on spaces.
    static func rfc850(_ fields: [Substring]) -> Date? {
        let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, fields[3] == "GMT",
              let day = digits(parts[0]), let month = month(parts[1]), let shortYear = digits(parts[2])
        else { return nil }
        let year = shortYear >= 70 ? 1900 + shortYear : 2000 + shortYear
        return make(year: year, month: month, day: day, time: fields[2])
    }

    /// `Sun Nov  6 08:49:37 1994`, already split on spaces (so the padded day is one field).
    static func asctime(_ fields: [Substring]) -> Date? {
        guard (1...2).contains(fields[2].count), fields[4].count == 4,
              let month = month(fields[1]), let day = digits(fields[2]), let year = digits(fields[4])
        else { return nil }
        return make(year: year, month: month, day: day, time: fields[3])
    }

    // MARK: - Pieces

    /// Checks the ranges of every field and builds the date; `time` is `HH:MM:SS`.
    static func make(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
              let hour = digits(parts[0]), let minute = digits(parts[1]), let second = digits(parts[2]),
              hour < 24, minute < 60, second <= 60,        // 60: a leap second, as RFC 5322 allows
              day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// 1–12 for an English month abbreviation, any case.
    static func month(_ name: Substring) -> Int? {
        let lower = name.lowercased()
        return monthNames.firstIndex(where: { $0.lowercased() == lower }).map { $0 + 1 }
    }

    /// The value of a run of ASCII digits, or nil.
    static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}

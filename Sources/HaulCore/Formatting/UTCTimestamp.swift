import Foundation

/// Dates as `yyyy-MM-dd HH:mm:ss.SSS` in UTC, the text form the store keeps (and GRDB's own).
///
/// Plain arithmetic on the Gregorian calendar, like `HTTPDate`: a `DateFormatter` or `Calendar` here would
/// load ICU's tables, megabytes of resident memory, for a fixed format without locale or time zone.
public enum UTCTimestamp {
    /// `2025-01-06 10:00:00.123`; milliseconds are cut, not rounded; years outside 1–9999 are clamped.
    public static func text(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, HTTPDate.earliest), HTTPDate.latest + 0.999)
        let millis = Int64((clamped * 1000).rounded(.down))
        let seconds = HTTPDate.floorDiv(millis, 1000)
        let days = HTTPDate.floorDiv(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = HTTPDate.civil(fromDays: days)
        return "\(year.zeroPadded(to: 4))-\(month.zeroPadded(to: 2))-\(day.zeroPadded(to: 2)) "
            + "\((secondOfDay / 3600).zeroPadded(to: 2)):\((secondOfDay / 60 % 60).zeroPadded(to: 2)):"
            + "\((secondOfDay % 60).zeroPadded(to: 2)).\(Int(millis - seconds * 1000).zeroPadded(to: 3))"
    }

    /// The date in `yyyy-MM-dd HH:mm:ss` with an optional `.S` to `.SSS` fraction; nil for any other text.
    public static func date(from text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
              utf8[10] == UInt8(ascii: " "), utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
              let year = number(utf8[0..<4]), let month = number(utf8[5..<7]), let day = number(utf8[8..<10]),
              let hour = number(utf8[11..<13]), let minute = number(utf8[14..<16]), let second = number(utf8[17..<19]),
              (1...12).contains(month), day >= 1, day <= HTTPDate.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var millis = 0
        if utf8.count > 19 {
            let fraction = utf8[20...]
            guard utf8[19] == UInt8(ascii: "."), (1...3).contains(fraction.count), let value = number(fraction) else {
                return nil
            }
            millis = value * [100, 10, 1][fraction.count - 1]
        }
        let days = HTTPDate.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: TimeInterval(seconds * 1000 + Int64(millis)) / 1000)
    }

    /// The value of ASCII digits, or nil when any byte is not one.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

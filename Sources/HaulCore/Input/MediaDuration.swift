/// A length of media as people write it (`--live-limit`): `90` or `90s`, `12m`, `2h`, `1h30m` or `1h30`, `1:30:00`, `90:00`.
public enum MediaDuration {
    /// The longest a duration may be: a year of media.
    public static let maxSeconds = 366.0 * 86_400

    /// Seconds in `text`, nil when it is not a duration above zero and up to a year.
    public static func seconds(_ text: String) -> Double? {
        let text = String(Substring(text).trimmingHTTPWhitespace()).lowercased()
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        let total = text.contains(":") ? clock(text) : units(text)
        guard let total, total > 0, total <= maxSeconds else { return nil }
        return total
    }

    /// `H:MM:SS` or `M:SS`.
    private static func clock(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = number(part), index == 0 || value < 60 else { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// Numbers each followed by `h`, `m` or `s` (a bare number is seconds), largest unit first.
    private static func units(_ text: String) -> Double? {
        var total = 0.0
        var digits = Substring()
        var lastUnit = Double.infinity
        // A bare number at the end is in the unit after the one before it (`1h30` is 1h30m), else seconds.
        let bare = text.last.map { $0.isNumber || $0 == "." } == true
        let spelled = bare ? text + (text.last(where: \.isLetter) == "h" ? "m" : "s") : text
        for character in spelled {
            if character.isASCII, character.isNumber || character == "." {
                digits.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = number(digits), unit < lastUnit else { return nil }
            total += value * unit
            lastUnit = unit
            digits = ""
        }
        return digits.isEmpty ? total : nil
    }

    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(text),
              value.isFinite
        else { return nil }
        return value
    }
}

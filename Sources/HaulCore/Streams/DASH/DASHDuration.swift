import Foundation

/// ISO 8601 durations as DASH writes them (`PT12.0S`, `PT1H2M3.5S`, `P1DT2H`): seconds, or nil when the text is not
/// one or states more than `PlaylistParser.maxSegmentSeconds` a hundred times over.
enum DASHDuration {
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawUnit = false
        for character in rest {
            switch character {
            case "T":
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            case "0"..."9", ".":
                number.append(character)
            default:
                guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
                let unit: Double
                switch (character, inTime) {
                case ("D", false): unit = 86_400
                case ("H", true): unit = 3_600
                case ("M", true): unit = 60
                case ("S", true): unit = 1
                default: return nil
                }
                total += value * unit
                number = ""
                sawUnit = true
            }
        }
        guard number.isEmpty, sawUnit, total <= PlaylistParser.maxSegmentSeconds * 100 else { return nil }
        return total
    }
}

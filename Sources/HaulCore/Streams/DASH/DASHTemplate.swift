/// A `SegmentTemplate` link with its identifiers filled in (ISO/IEC 23009-1 §5.3.9.4.4): `$RepresentationID$`,
/// `$Number$`, `$Time$`, `$Bandwidth$`, each with an optional `%0Nd` width, and `$$` for a dollar sign.
enum DASHTemplate {
    struct Values {
        var representation: String
        var bandwidth: Int64
        var number: Int64?
        var time: Int64?
    }

    /// The link `template` names for `values`; nil when it names an identifier it does not know or has no value
    /// for, or asks for a width over 32.
    static func fill(_ template: String, _ values: Values) -> String? {
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "$") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "$") else { return nil }
            let identifier = rest[afterOpen..<close]
            rest = rest[rest.index(after: close)...]
            if identifier.isEmpty {
                output += "$"
                continue
            }
            let parts = identifier.split(separator: "%", maxSplits: 1)
            let name = parts[0]
            var width = 0
            if parts.count == 2 {
                let format = parts[1]
                guard format.hasPrefix("0"), format.hasSuffix("d"), let number = Int(format.dropFirst().dropLast()),
                      (1...32).contains(number) else { return nil }
                width = number
            }
            let value: String
            switch name {
            case "RepresentationID":
                guard width == 0 else { return nil }
                value = values.representation
            case "Number":
                guard let number = values.number else { return nil }
                value = String(number)
            case "Time":
                guard let time = values.time else { return nil }
                value = String(time)
            case "Bandwidth":
                value = String(values.bandwidth)
            default:
                return nil
            }
            output += String(repeating: "0", count: max(0, width - value.count)) + value
        }
        return output + rest
    }
}

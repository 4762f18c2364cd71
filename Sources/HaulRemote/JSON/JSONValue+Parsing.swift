import Foundation

extension JSONValue {
    /// The deepest nesting of arrays and objects a request may have (aria2's deepest request is 3 levels).
    public static let maxDepth = 64

    /// Parses JSON text in time linear in its length.
    ///
    /// The nesting is measured first, in one pass that does no allocation, and text deeper than `maxDepth`
    /// is refused before anything is built. The text is then read by Foundation's `JSONSerialization` (linear;
    /// `JSONDecoder` through `init(from:)` costs about the cube of the depth, a second for 500 levels).
    /// A top-level scalar is accepted, as JSON allows.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try checkDepth(bytes)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            throw .malformed
        }
        guard let value = JSONValue(foundation: object) else { throw .malformed }
        return value
    }

    /// Throws `.tooDeep` when arrays and objects nest deeper than `maxDepth`, outside strings.
    static func checkDepth(_ bytes: [UInt8]) throws(JSONParseError) {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { throw .tooDeep }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }

    /// The value of what `JSONSerialization` returned; nil for a type it never returns.
    ///
    /// Containers are matched first: asking whether an array is an `NSNumber` or `NSNull` bridges the whole
    /// array on Linux, which made the conversion quadratic in the depth.
    private init?(foundation object: Any) {
        if let list = object as? [Any] {
            var items: [JSONValue] = []
            items.reserveCapacity(list.count)
            for item in list {
                guard let value = JSONValue(foundation: item) else { return nil }
                items.append(value)
            }
            self = .array(items)
        } else if let fields = object as? [String: Any] {
            var values: [String: JSONValue] = [:]
            values.reserveCapacity(fields.count)
            for (key, item) in fields {
                guard let value = JSONValue(foundation: item) else { return nil }
                values[key] = value
            }
            self = .object(values)
        } else if let text = object as? String {
            self = .string(text)
        } else if let number = object as? NSNumber {
            self = Self.number(number)
        } else if object is NSNull {
            self = .null
        } else {
            return nil
        }
    }

    /// `true`/`false` come back as boolean numbers (type code `c`); whole numbers that fit stay integers.
    private static func number(_ number: NSNumber) -> JSONValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "d", "f": return .double(number.doubleValue)
        case "Q" where number.uint64Value > UInt64(Int64.max): return .double(number.doubleValue)
        default: return .int(number.int64Value)
        }
    }
}

/// Why JSON text was refused.
public enum JSONParseError: Error, Sendable, Equatable {
    /// Not JSON.
    case malformed
    /// Arrays and objects nested deeper than `JSONValue.maxDepth`.
    case tooDeep
}

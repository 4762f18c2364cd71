import Foundation

/// A JSON value, for the parts of JSON-RPC whose shape the method decides (params, results, ids).
///
/// JSON text is read with `parse(_:)` (linear, nesting capped); `init(from:)` is only for a `JSONValue` held
/// inside a `Decodable` type.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case let .object(value) = self { return value }
        return nil
    }

    /// A whole number, also from a numeric string (aria2 clients send either).
    public var integerValue: Int64? {
        switch self {
        case let .int(value): return value
        case let .double(value) where value == value.rounded() && abs(value) < 9e15: return Int64(value)
        case let .string(text): return Int64(text)
        default: return nil
        }
    }

    /// Encodes a value as a JSON value (for results built from Codable types).
    static func encoding<T: Encodable>(_ value: T) throws -> JSONValue {
        try parse(Array(JSONEncoder().encode(value)))
    }

    /// The value of JSON text.
    static func decodingBytes(_ bytes: [UInt8]) throws(RPCError) -> JSONValue {
        do {
            return try parse(bytes)
        } catch {
            throw .failed("could not read an answer: \(error)")
        }
    }

    /// Decodes a typed value from a JSON value (for params of Codable types).
    func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

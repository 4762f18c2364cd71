/// A JSON-RPC error as aria2 gives it: `{"code": N, "message": "..."}`.
public struct RPCError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// A method failed (aria2 uses code 1 for every such error).
    public static func failed(_ message: String) -> RPCError { RPCError(code: 1, message: message) }
    public static let unauthorized = RPCError(code: 1, message: "Unauthorized")
    public static let parseError = RPCError(code: -32700, message: "Parse error.")
    /// Refused before any work: arrays and objects nested deeper than `JSONValue.maxDepth`.
    public static let tooDeep = RPCError(code: -32700, message: "Parse error: nested deeper than \(JSONValue.maxDepth) levels.")
    /// `aria2.saveSession`: aria2's answer when no `--save-session` file is set; haul saves the queue as it changes.
    public static let noSessionFile = RPCError.failed(
        "Filename is not given. haul keeps the queue in its database as it changes; there is no session file to save.")
    public static let invalidRequest = RPCError(code: -32600, message: "Invalid Request.")
    public static let methodNotFound = RPCError(code: -32601, message: "Method not found.")
    public static let invalidParams = RPCError(code: -32602, message: "Invalid params.")

    /// The HTTP status aria2 answers a single failed request with.
    var httpStatus: Int {
        switch code {
        case 1, -32600: 400
        case -32601: 404
        default: 500
        }
    }

    var json: JSONValue { .object(["code": .int(Int64(code)), "message": .string(message)]) }
}

import Foundation
import HaulCore

/// A method's result: a value, or JSON text already encoded (large answers skip the value tree).
enum RPCAnswer: Sendable {
    case value(JSONValue)
    case encoded([UInt8])
}

/// JSON-RPC 2.0 as aria2 speaks it, on haul's queue: parses requests (single or batch), checks the
/// secret, routes to the aria2 and haul methods, and encodes answers; also turns controller events into
/// aria2's `onDownload*` notifications.
public final class RPCDispatcher: RPCService {
    let aria2: Aria2Methods
    let haul: HaulMethods
    let state = RemoteState()
    let hub = Broadcast<[UInt8]>(bufferLimit: 1000)
    /// Required on TCP as `token:SECRET`; never echoed.
    let secret: String?

    /// - Parameters:
    ///   - intake: the intake for `addUri`, restricted to the directories RPC may write to.
    ///   - secret: the TCP secret (nil when there is no TCP listener).
    ///   - reload: reads the settings file again and applies it (`haul.reload`, the owner's socket only).
    ///   - changeRunOptions: sets options of the run live (`changeGlobalOption`); says why when it cannot.
    ///   - checkNewLink: asks a task's new link at once (`changeUri`), as `haul set-url` does.
    public init(
        access: any QueueAccess, intake: TaskIntake, secret: String?, processID: Int32,
        runOptions: Aria2RunOptions = Aria2RunOptions(), reload: (@Sendable () async -> SettingsReloadAnswer)? = nil,
        changeRunOptions: @escaping @Sendable ([OptionKey: SettingValue]) async -> String? = { _ in
            "this haul's settings cannot be changed over RPC"
        },
        checkNewLink: @escaping @Sendable (DownloadTask, String) async -> NewLinkAnswer = { _, _ in .taken }
    ) {
        aria2 = Aria2Methods(
            access: access, state: state, live: RPCIntakeSettings(.init(intake: intake, runOptions: runOptions)),
            changeRunOptions: changeRunOptions, checkNewLink: checkNewLink)
        haul = HaulMethods(access: access, processID: processID, reload: reload)
        self.secret = secret
        let events = access.events()
        Task { [state, hub] in
            for await event in events {
                switch event {
                case let .removed(task): await state.removalEvent(task)
                case let .many(change) where change.edit == .removed: await state.removalEvents(change.removed)
                default: break
                }
                // Encoded only for WebSocket clients listening now.
                if hub.hasSubscribers { for message in Aria2Notification.messages(for: event) { hub.yield(message) } }
            }
        }
    }

    public func notifications() -> AsyncStream<[UInt8]> { hub.subscribe() }

    /// Tasks added over RPC from now on use `intake`, and clients read `runOptions` (the settings file read again).
    public func replaceSettings(intake: TaskIntake, runOptions: Aria2RunOptions) {
        aria2.live.replace(.init(intake: intake, runOptions: runOptions))
    }

    public func answer(_ body: [UInt8], from caller: RPCCaller) async -> RPCReply {
        let request: JSONValue
        do {
            request = try JSONValue.parse(body)
        } catch {
            return reply(.failure(error == .tooDeep ? .tooDeep : .parseError), id: .null)
        }
        let witness = TokenWitness(shown: caller.transport == .localSocket)
        switch request {
        case let .object(fields):
            let (result, id) = await handle(fields, from: caller, witness: witness)
            return reply(result, id: id, authorized: witness.shown)
        case let .array(items):
            var answers: [[UInt8]] = []
            var unauthorized = false
            for case let .object(fields) in items {
                let (result, id) = await handle(fields, from: caller, witness: witness)
                if case .failure(.unauthorized) = result { unauthorized = true }
                answers.append(Self.encodeResponse(result, id: id))
            }
            let body = Array("[".utf8) + Array(answers.joined(separator: Array(",".utf8))) + Array("]".utf8)
            return RPCReply(body: body, httpStatus: 200, unauthorized: unauthorized, authorized: witness.shown)
        default:
            return reply(.failure(.invalidRequest), id: .null)
        }
    }

    private func reply(_ result: Result<RPCAnswer, RPCError>, id: JSONValue, authorized: Bool = false) -> RPCReply {
        let body = Self.encodeResponse(result, id: id)
        switch result {
        case .success: return RPCReply(body: body, authorized: authorized)
        case let .failure(error):
            return RPCReply(
                body: body, httpStatus: error.httpStatus, unauthorized: error == .unauthorized, authorized: authorized)
        }
    }

    /// One request object: aria2 requires an id and a method name, and params (when given) as a list.
    private func handle(
        _ fields: [String: JSONValue], from caller: RPCCaller, witness: TokenWitness
    ) async -> (Result<RPCAnswer, RPCError>, JSONValue) {
        guard let id = fields["id"] else { return (.failure(.invalidRequest), .null) }
        guard let method = fields["method"]?.stringValue else { return (.failure(.invalidRequest), id) }
        let params: [JSONValue]
        switch fields["params"] {
        case nil: params = []
        case let .array(list)?: params = list
        default: return (.failure(.invalidParams), id)
        }
        do throws(RPCError) {
            return (.success(try await call(method, params, from: caller, witness: witness)), id)
        } catch {
            return (.failure(error), id)
        }
    }

    /// Runs one method of the table after its access check (aria2's rules: every method but `system.*` carries
    /// the token; `haul.*` only on the owner's socket).
    func call(
        _ name: String, _ params: [JSONValue], from caller: RPCCaller, witness: TokenWitness
    ) async throws(RPCError) -> RPCAnswer {
        guard let method = Self.methodsByName[name] else { throw .methodNotFound }
        switch method.access {
        case .open:
            return try await method.body(self, params, caller, witness)
        case .token, .owner:
            let rest = try authorized(params, from: caller, witness: witness)
            if method.access == .owner, caller.transport != .localSocket { throw .methodNotFound }
            return try await method.body(self, rest, caller, witness)
        }
    }

    /// `system.multicall([{methodName, params}, …])`: each result wrapped in a list, each error as an object.
    func multicall(
        _ params: [JSONValue], from caller: RPCCaller, witness: TokenWitness
    ) async throws(RPCError) -> JSONValue {
        guard let calls = params.first?.arrayValue else { throw .failed("The parameter is not an array.") }
        var results: [JSONValue] = []
        for call in calls {
            guard let fields = call.objectValue, let method = fields["methodName"]?.stringValue,
                  method != "system.multicall" else {
                results.append(RPCError.failed("Recursive system.multicall forbidden.").json)
                continue
            }
            do {
                switch try await self.call(method, fields["params"]?.arrayValue ?? [], from: caller, witness: witness) {
                case let .value(result): results.append(.array([result]))
                case let .encoded(bytes): results.append(.array([try JSONValue.decodingBytes(bytes)]))
                }
            } catch {
                results.append(error.json)
            }
        }
        return .array(results)
    }

    /// The params without the leading `token:…`; on TCP the token must match the secret, and `witness` notes that
    /// it did.
    private func authorized(
        _ params: [JSONValue], from caller: RPCCaller, witness: TokenWitness
    ) throws(RPCError) -> [JSONValue] {
        var rest = params
        var token: String?
        if let first = params.first?.stringValue, first.hasPrefix("token:") {
            token = String(first.dropFirst("token:".count))
            rest.removeFirst()
        }
        if caller.transport == .tcp {
            guard let secret, let token, Self.constantTimeEqual(token, secret) else { throw .unauthorized }
            witness.shown = true
        }
        return rest
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    static func response(_ result: Result<JSONValue, RPCError>, id: JSONValue) -> JSONValue {
        switch result {
        case let .success(value): return ["jsonrpc": "2.0", "id": id, "result": value]
        case let .failure(error): return ["jsonrpc": "2.0", "id": id, "error": error.json]
        }
    }

    /// A response's text: the result (or error) with the request's id.
    static func encodeResponse(_ result: Result<RPCAnswer, RPCError>, id: JSONValue) -> [UInt8] {
        switch result {
        case let .success(.value(.array(items))) where items.count > elementwiseFrom:
            // A page of a thousand statuses: the encoder's working tree holds one of them at a time, not the page,
            // so what it took does not stay behind in the allocator after the answer (issue 29).
            return encodeResponse(.success(.encoded(encodeElementwise(items))), id: id)
        case let .success(.value(value)): return encode(response(.success(value), id: id))
        case let .success(.encoded(bytes)):
            return Array(#"{"jsonrpc":"2.0","id":"#.utf8) + encode(id) + Array(#","result":"#.utf8) + bytes + Array("}".utf8)
        case let .failure(error): return encode(response(.failure(error), id: id))
        }
    }

    /// Arrays longer than this are encoded an element at a time.
    static let elementwiseFrom = 16

    /// `items` as a JSON array, each element made and encoded on its own (pass a lazy sequence to hold one at a time).
    static func encodeElementwise(_ items: some Sequence<JSONValue>) -> [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "[")]
        for (index, item) in items.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: encode(item))
        }
        json.append(UInt8(ascii: "]"))
        return json
    }

    static func encode(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? Array(encoder.encode(value))) ?? Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"internal error"}}"#.utf8)
    }

    /// The aria2 API level these methods follow.
    static let aria2Version = "1.37.0"
    static let sessionID: String = (0..<40).map { _ in String(UInt8.random(in: 0..<16), radix: 16) }.joined()
}

/// Whether a request of one body showed the right secret; lives for one `answer(_:from:)` call, on its task.
final class TokenWitness {
    var shown: Bool

    init(shown: Bool) {
        self.shown = shown
    }
}

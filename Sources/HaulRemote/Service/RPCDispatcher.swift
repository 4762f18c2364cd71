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
    public init(access: any QueueAccess, intake: TaskIntake, secret: String?, processID: Int32) {
        aria2 = Aria2Methods(access: access, state: state, intake: intake)
        haul = HaulMethods(access: access, processID: processID)
        self.secret = secret
        let events = access.events()
        Task { [state, hub] in
            for await event in events {
                if case let .removed(task) = event { await state.removalEvent(task) }
                // Encoded only for WebSocket clients listening now.
                if hub.hasSubscribers, let message = Aria2Notification.message(for: event) { hub.yield(message) }
            }
        }
    }

    public func notifications() -> AsyncStream<[UInt8]> { hub.subscribe() }

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
            if method == "haul.snapshot" {
                // The largest answer (every task): encoded once, straight from the snapshot.
                let rest = try authorized(params, from: caller, witness: witness)
                guard caller.transport == .localSocket else { throw RPCError.methodNotFound }
                return (.success(.encoded(try await haul.encodedSnapshot(rest))), id)
            }
            return (.success(.value(try await call(method, params, from: caller, witness: witness))), id)
        } catch {
            return (.failure(error), id)
        }
    }

    /// Runs one method after the secret check (aria2's rules: every method but `system.*` carries the token).
    func call(
        _ method: String, _ params: [JSONValue], from caller: RPCCaller, witness: TokenWitness
    ) async throws(RPCError) -> JSONValue {
        switch method {
        case "system.listMethods": return .array(Self.aria2Methods.map(JSONValue.string))
        case "system.listNotifications": return .array(Aria2Notification.names.map(JSONValue.string))
        case "system.multicall": return try await multicall(params, from: caller, witness: witness)
        default: break
        }
        let params = try authorized(params, from: caller, witness: witness)
        if method.hasPrefix("haul.") {
            guard caller.transport == .localSocket else { throw .methodNotFound }
            switch method {
            case "haul.snapshot": return try JSONValue.decodingBytes(try await haul.encodedSnapshot(params))
            case "haul.perform": return try await haul.perform(params)
            case "haul.info": return haul.info()
            case "haul.shutdown": return await haul.shutdown()
            default: throw .methodNotFound
            }
        }
        switch method {
        case "aria2.addUri": return try await aria2.addUri(params)
        case "aria2.remove", "aria2.forceRemove": return try await aria2.remove(params)
        case "aria2.pause", "aria2.forcePause": return try await aria2.pause(params)
        case "aria2.pauseAll", "aria2.forcePauseAll": return await aria2.pauseAll()
        case "aria2.unpause": return try await aria2.unpause(params)
        case "aria2.unpauseAll": return await aria2.unpauseAll()
        case "aria2.tellStatus": return try await aria2.tellStatus(params)
        case "aria2.tellActive": return aria2.tellActive(params)
        case "aria2.tellWaiting": return try aria2.tellWaiting(params)
        case "aria2.tellStopped": return try await aria2.tellStopped(params)
        case "aria2.getFiles": return try await aria2.getFiles(params)
        case "aria2.getUris": return try aria2.getUris(params)
        case "aria2.getOption": return try aria2.getOption(params)
        case "aria2.changeOption": return try await aria2.changeOption(params)
        case "aria2.getGlobalOption": return await aria2.getGlobalOption()
        case "aria2.changeGlobalOption": return try await aria2.changeGlobalOption(params)
        case "aria2.getGlobalStat": return await aria2.getGlobalStat()
        case "aria2.changePosition": return try await aria2.changePosition(params)
        case "aria2.purgeDownloadResult": return await aria2.purgeDownloadResult()
        case "aria2.removeDownloadResult": return try await aria2.removeDownloadResult(params)
        case "aria2.getVersion": return ["version": .string(Self.aria2Version), "enabledFeatures": ["HTTPS"]]
        case "aria2.getSessionInfo": return ["sessionId": .string(Self.sessionID)]
        case "aria2.saveSession": throw .noSessionFile
        case "aria2.shutdown", "aria2.forceShutdown": return await haul.shutdown()
        default: throw .methodNotFound
        }
    }

    /// `system.multicall([{methodName, params}, …])`: each result wrapped in a list, each error as an object.
    private func multicall(
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
                let result = try await self.call(method, fields["params"]?.arrayValue ?? [], from: caller, witness: witness)
                results.append(.array([result]))
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
        case let .success(.value(value)): return encode(response(.success(value), id: id))
        case let .success(.encoded(bytes)):
            return Array(#"{"jsonrpc":"2.0","id":"#.utf8) + encode(id) + Array(#","result":"#.utf8) + bytes + Array("}".utf8)
        case let .failure(error): return encode(response(.failure(error), id: id))
        }
    }

    static func encode(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? Array(encoder.encode(value))) ?? Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"internal error"}}"#.utf8)
    }

    /// The aria2 API level these methods follow.
    static let aria2Version = "1.37.0"
    static let sessionID: String = (0..<40).map { _ in String(UInt8.random(in: 0..<16), radix: 16) }.joined()

    static let aria2Methods = [
        "aria2.addUri", "aria2.remove", "aria2.forceRemove", "aria2.pause", "aria2.forcePause", "aria2.pauseAll",
        "aria2.forcePauseAll", "aria2.unpause", "aria2.unpauseAll", "aria2.tellStatus", "aria2.tellActive",
        "aria2.tellWaiting", "aria2.tellStopped", "aria2.getFiles", "aria2.getUris", "aria2.getOption",
        "aria2.changeOption", "aria2.getGlobalOption", "aria2.changeGlobalOption", "aria2.getGlobalStat",
        "aria2.changePosition", "aria2.purgeDownloadResult", "aria2.removeDownloadResult", "aria2.getVersion",
        "aria2.getSessionInfo", "aria2.saveSession", "aria2.shutdown", "aria2.forceShutdown",
        "system.multicall", "system.listMethods", "system.listNotifications",
    ]
}

/// Whether a request of one body showed the right secret; lives for one `answer(_:from:)` call, on its task.
final class TokenWitness {
    var shown: Bool

    init(shown: Bool) {
        self.shown = shown
    }
}

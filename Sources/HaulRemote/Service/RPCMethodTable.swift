/// Every JSON-RPC method haul answers, declared once: its name, who may call it, and what runs. Dispatch and
/// `system.listMethods` both read this table.
struct RPCMethod: Sendable {
    /// Who may call a method (aria2's rules, plus haul's own methods).
    enum Access: Sendable {
        /// `system.*`: no token (aria2 answers them to anyone).
        case open
        /// `aria2.*`: `token:SECRET` first on TCP.
        case token
        /// `haul.*`: the owner's Unix socket only (and a token, which the socket never needs).
        case owner
    }

    typealias Body = @Sendable (RPCDispatcher, _ params: [JSONValue], RPCCaller, TokenWitness) async throws(RPCError) -> RPCAnswer

    let name: String
    let access: Access
    let body: Body

    /// A method whose answer is a value.
    static func value(
        _ name: String, _ access: Access = .token,
        _ run: @escaping @Sendable (RPCDispatcher, [JSONValue]) async throws(RPCError) -> JSONValue
    ) -> RPCMethod {
        RPCMethod(name: name, access: access) { dispatcher, params, _, _ throws(RPCError) in
            .value(try await run(dispatcher, params))
        }
    }
}

extension RPCDispatcher {
    /// The methods in the order `system.listMethods` gives aria2's (haul's own are not listed).
    static let methods: [RPCMethod] = [
        .value("aria2.addUri") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.addUri(params) },
        .value("aria2.remove") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.remove(params) },
        .value("aria2.forceRemove") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.remove(params) },
        .value("aria2.pause") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.pause(params) },
        .value("aria2.forcePause") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.pause(params) },
        .value("aria2.pauseAll") { dispatcher, _ in await dispatcher.aria2.pauseAll() },
        .value("aria2.forcePauseAll") { dispatcher, _ in await dispatcher.aria2.pauseAll() },
        .value("aria2.unpause") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.unpause(params) },
        .value("aria2.unpauseAll") { dispatcher, _ in await dispatcher.aria2.unpauseAll() },
        .value("aria2.tellStatus") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.tellStatus(params) },
        .value("aria2.tellActive") { dispatcher, params in dispatcher.aria2.tellActive(params) },
        // AriaNg pages a thousand at a time: each status is built and encoded in turn.
        RPCMethod(name: "aria2.tellWaiting", access: .token) { dispatcher, params, _, _ throws(RPCError) in
            .encoded(try dispatcher.aria2.tellWaiting(params))
        },
        .value("aria2.tellStopped") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.tellStopped(params) },
        .value("aria2.getFiles") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.getFiles(params) },
        .value("aria2.getUris") { dispatcher, params throws(RPCError) in try dispatcher.aria2.getUris(params) },
        .value("aria2.getOption") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.getOption(params) },
        .value("aria2.changeUri") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.changeUri(params) },
        .value("aria2.changeOption") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.changeOption(params) },
        .value("aria2.getGlobalOption") { dispatcher, _ in await dispatcher.aria2.getGlobalOption() },
        .value("aria2.changeGlobalOption") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.changeGlobalOption(params) },
        .value("aria2.getGlobalStat") { dispatcher, _ in await dispatcher.aria2.getGlobalStat() },
        .value("aria2.changePosition") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.changePosition(params) },
        .value("aria2.purgeDownloadResult") { dispatcher, _ in await dispatcher.aria2.purgeDownloadResult() },
        .value("aria2.removeDownloadResult") { dispatcher, params throws(RPCError) in try await dispatcher.aria2.removeDownloadResult(params) },
        .value("aria2.getVersion") { _, _ in ["version": .string(aria2Version), "enabledFeatures": ["HTTPS"]] },
        .value("aria2.getSessionInfo") { _, _ in ["sessionId": .string(sessionID)] },
        .value("aria2.saveSession") { _, _ throws(RPCError) in throw .noSessionFile },
        .value("aria2.shutdown") { dispatcher, _ in await dispatcher.haul.shutdown() },
        .value("aria2.forceShutdown") { dispatcher, _ in await dispatcher.haul.shutdown() },
        RPCMethod(name: "system.multicall", access: .open) { dispatcher, params, caller, witness throws(RPCError) in
            .value(try await dispatcher.multicall(params, from: caller, witness: witness))
        },
        .value("system.listMethods", .open) { _, _ in .array(listedMethodNames.map(JSONValue.string)) },
        .value("system.listNotifications", .open) { _, _ in .array(Aria2Notification.names.map(JSONValue.string)) },
        // The largest answer (every task): encoded once, straight from the snapshot.
        RPCMethod(name: "haul.snapshot", access: .owner) { dispatcher, params, _, _ throws(RPCError) in
            .encoded(try await dispatcher.haul.encodedSnapshot(params))
        },
        // The queue a page at a time (`haul list`, as rows or as the lines it prints): no answer holds every task.
        RPCMethod(name: "haul.rows", access: .owner) { dispatcher, params, _, _ throws(RPCError) in
            .encoded(try dispatcher.haul.encodedRows(params))
        },
        RPCMethod(name: "haul.lines", access: .owner) { dispatcher, params, _, _ throws(RPCError) in
            .encoded(try dispatcher.haul.encodedLines(params))
        },
        .value("haul.getSchedule") { dispatcher, _ in await dispatcher.haul.getSchedule() },
        .value("haul.changeSchedule") { dispatcher, params throws(RPCError) in try await dispatcher.haul.changeSchedule(params) },
        .value("haul.suspendSchedule") { dispatcher, params throws(RPCError) in try await dispatcher.haul.suspendSchedule(params) },
        .value("haul.perform", .owner) { dispatcher, params throws(RPCError) in try await dispatcher.haul.perform(params) },
        .value("haul.info", .owner) { dispatcher, _ in dispatcher.haul.info() },
        .value("haul.reload", .owner) { dispatcher, _ throws(RPCError) in try await dispatcher.haul.reloadSettings() },
        .value("haul.shutdown", .owner) { dispatcher, _ in await dispatcher.haul.shutdown() },
    ]

    /// The methods by name.
    static let methodsByName: [String: RPCMethod] = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// What `system.listMethods` answers: aria2's and the system methods, in the table's order (haul's own, the
    /// owner's included, are answered, not listed: an aria2 client sees aria2's set).
    static let listedMethodNames: [String] = methods.filter { !$0.name.hasPrefix("haul.") }.map(\.name)
}

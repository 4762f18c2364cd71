import Foundation
import HaulCore
import HaulRemote
import HaulStore

/// The owner's remote side: the control socket (and the TCP listener when asked) serving the queue,
/// and the hooks; nothing else.
final class RemoteControl {
    private let server: RPCServer
    private let hooks: Task<Void, Never>?

    private init(server: RPCServer, hooks: Task<Void, Never>?) {
        self.server = server
        self.hooks = hooks
    }

    /// Starts serving; a socket that cannot be bound is reported and the run goes on without it.
    static func start(
        composition: Composition, state: StateDirectory, options: RemoteOptions, downloadDirectory: String,
        proxyDefaults: ProxySettings
    ) async throws -> RemoteControl? {
        let controller = composition.controller
        let hooks = options.hooks
        // Subscribed here, before the queue runs: a task that completes or fails at once still runs its hook
        // (subscribing inside the task missed such events whenever the task started late).
        let hookEvents = hooks.isEmpty ? nil : controller.events()
        let hookTask: Task<Void, Never>? = hookEvents.map { events in
            Task { await hooks.run(events: events) { note($0) } }
        }
        let listener = try options.listener()
        let secret: String? = listener == nil ? nil : try tcpSecret(options: options, state: state)
        let stop: @Sendable () async -> Void = { await controller.stop() }
        let access = ControllerAccess(controller: controller, snapshots: composition.snapshots, stop: stop)
        let intake = TaskIntake(
            defaultDirectory: downloadDirectory,
            allowedDirectories: options.rpcAllowedDirectories.map { absolutePath($0) }, proxyDefaults: proxyDefaults)
        let runOptions = Aria2RunOptions(
            transfer: composition.configuration.transferOptions, maxTries: composition.configuration.retryPolicy.maxRetries,
            proxies: proxyDefaults)
        let dispatcher = RPCDispatcher(
            access: access, intake: intake, secret: secret, processID: getpid(), runOptions: runOptions)
        let server = RPCServer(service: dispatcher, configuration: RPCServerConfiguration(
            socketPath: state.socketPath, tcp: listener, allowedOrigin: options.rpcAllowOrigin))
        do {
            try await server.start()
        } catch {
            if listener != nil { throw CommandFailure.runtime("cannot serve RPC: \(error)") }
            note("cannot open the control socket \(state.socketPath): \(error) — other shells cannot reach this haul")
            return RemoteControl(server: server, hooks: hookTask)
        }
        if let listener {
            let port = await server.tcpPort ?? listener.port
            let host = listener.host.contains(":") ? "[\(listener.host)]" : listener.host
            note("aria2 JSON-RPC on http://\(host):\(port)/jsonrpc (ws:// too); clients need the secret as token:SECRET")
        }
        return RemoteControl(server: server, hooks: hookTask)
    }

    /// The TCP secret: `--rpc-secret-file`, else `HAUL_RPC_SECRET`, else one kept in the state directory.
    private static func tcpSecret(options: RemoteOptions, state: StateDirectory) throws -> String {
        do {
            if let file = options.rpcSecretFile {
                let secret = try RPCSecretFile.read(file)
                try RPCSecretRule.check(secret, from: file)
                return secret
            }
            if let value = ProcessInfo.processInfo.environment["HAUL_RPC_SECRET"], !value.isEmpty {
                try RPCSecretRule.check(value, from: "HAUL_RPC_SECRET")
                return value
            }
            let (secret, created) = try RPCSecretFile.readOrCreate(state.rpcSecretPath)
            try RPCSecretRule.check(secret, from: state.rpcSecretPath)
            note("RPC secret \(created ? "created in" : "read from") \(state.rpcSecretPath)")
            return secret
        } catch let error as RPCSecretTooShort {
            throw CommandFailure.usage(error.description)
        } catch let error as RPCSecretFile.Failure {
            throw CommandFailure.usage(error.description)
        }
    }

    /// Closes the listeners (removing the socket) and lets the hooks finish with the event stream.
    func stop() async {
        await server.shutdown()
        await hooks?.value
    }
}

import Foundation
import HaulCore
import HaulRemote
import HaulStore
import HaulTransfer

/// The owner's remote side: the control socket (and the TCP listener when asked) serving the queue,
/// and the hooks; nothing else.
final class RemoteControl {
    private let server: RPCServer
    private let hooks: Task<Void, Never>?
    /// Reads the settings file again (`haul config --reload`, SIGHUP to a daemon).
    let reloader: SettingsReloader

    private init(server: RPCServer, hooks: Task<Void, Never>?, reloader: SettingsReloader) {
        self.server = server
        self.hooks = hooks
        self.reloader = reloader
    }

    /// Starts serving; a socket that cannot be bound is reported and the run goes on without it.
    static func start(composition: Composition, state: StateDirectory, settings: RunSettings) async throws -> RemoteControl? {
        let controller = composition.controller
        let hooks = settings.hooks { note($0) }
        // Subscribed here, before the queue runs: a task that completes or fails at once still runs its hook
        // (subscribing inside the task missed such events whenever the task started late).
        let hookEvents = hooks.isEmpty ? nil : controller.events()
        let hookTask: Task<Void, Never>? = hookEvents.map { events in
            Task { await hooks.run(events: events) { note($0) } }
        }
        let listener = try settings.listener()
        let secret: String? = listener == nil ? nil : try tcpSecret(file: settings.string(.rpcSecretFile), state: state)
        let stop: @Sendable () async -> Void = { await controller.stop() }
        let access = ControllerAccess(controller: controller, snapshots: composition.snapshots, stop: stop)
        let intake = try settings.intake(allowedDirectories: settings.rpcAllowedDirectories)
        let reloader = SettingsReloader(settings: settings, controller: controller)
        let dispatcher = RPCDispatcher(
            access: access, intake: intake, secret: secret, processID: getpid(),
            runOptions: settings.aria2Options(proxies: intake.proxyDefaults),
            reload: { await reloader.reloadAndReport("haul config --reload") },
            changeRunOptions: { await reloader.changeAndReport($0) },
            checkNewLink: { [linkCheck = settings.linkCheckOptions] task, link in
                if case let .refused(error) = await LinkProbe.check(task, newLink: link, change: .sameFile, options: linkCheck) {
                    return .refused(error.description)
                }
                return .taken
            })
        await reloader.attach(dispatcher)
        let server = RPCServer(service: dispatcher, configuration: RPCServerConfiguration(
            socketPath: state.socketPath, tcp: listener, allowedOrigin: settings.string(.rpcAllowOrigin)))
        do {
            try await server.start()
        } catch {
            if listener != nil { throw CommandFailure.runtime("cannot serve RPC: \(error)") }
            note("cannot open the control socket \(state.socketPath): \(error) — other shells cannot reach this haul")
            return RemoteControl(server: server, hooks: hookTask, reloader: reloader)
        }
        if let listener {
            let port = await server.tcpPort ?? listener.port
            let host = listener.host.contains(":") ? "[\(listener.host)]" : listener.host
            note("aria2 JSON-RPC on http://\(host):\(port)/jsonrpc (ws:// too); clients need the secret as token:SECRET")
        }
        return RemoteControl(server: server, hooks: hookTask, reloader: reloader)
    }

    /// The TCP secret: `rpc-secret-file`, else `HAUL_RPC_SECRET`, else one kept in the state directory.
    private static func tcpSecret(file: String?, state: StateDirectory) throws -> String {
        do {
            if let file {
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

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--on-download-complete CMD` and `--on-download-error CMD`: run CMD without a shell, with aria2's
/// three arguments (GID, number of files = 1, file path), never blocking the engine or the controller.
/// `--notify` adds a desktop notification for each (`DesktopNotification`).
public struct DownloadHooks: Sendable {
    public var onComplete: String?
    public var onError: String?
    /// Desktop notifications, when asked for and a session bus is there.
    public var notifications: DesktopNotification?
    /// Longest a hook may run before it is stopped, so hooks that never exit do not pile up.
    public var timeout: Duration = .seconds(60)

    public init(onComplete: String? = nil, onError: String? = nil, notifications: DesktopNotification? = nil) {
        self.onComplete = onComplete
        self.onError = onError
        self.notifications = notifications
    }

    public var isEmpty: Bool { onComplete == nil && onError == nil && notifications == nil }

    /// Runs the hooks for events as they come, until the stream ends, then waits (at most
    /// `DesktopNotification.deliveryWait`) for the notifications still on their way; problems become `warning`
    /// lines through `report`.
    public func run(events: AsyncStream<ControllerEvent>, report: @escaping @Sendable (String) -> Void) async {
        for await event in events {
            let command: String?
            let task: DownloadTask
            switch event {
            case let .completed(completed): (command, task) = (onComplete, completed)
            case let .failed(failed, _) where failed.state == .failed: (command, task) = (onError, failed)
            default: continue
            }
            notifications?.send(about: task, report: report)
            guard let command else { continue }
            do {
                try Self.launch(command, arguments: Self.arguments(for: task), timeout: timeout, report: report)
            } catch {
                report("hook \(command) could not start: \(error.localizedDescription)")
            }
        }
        if let notifications, !(await notifications.deliveries.waitForAll(timeout: DesktopNotification.deliveryWait)) {
            report("--notify: \(notifications.deliveries.count) notification(s) not delivered within \(DesktopNotification.deliveryWait)")
        }
    }

    /// aria2's arguments: the GID (16 hex digits), "1", and the file's path.
    public static func arguments(for task: DownloadTask) -> [String] {
        // Before a name was decided (a 404 on the first answer), the name it would have had, as aria2 does.
        let name = task.fileName ?? task.requestedName ?? SafeFileName.fromURL(task.url)
        let path = name.map { PathJoin.join(task.directory, $0) } ?? task.directory
        return [task.id.gid, "1", path]
    }

    /// Starts the command (a path, or a name looked up on PATH) and reaps it when it ends; returns its pid.
    ///
    /// It gets none of haul's standard streams (a hook that never exits would hold a headless run's output open),
    /// and is stopped (SIGTERM, then SIGKILL) after `timeout`, with a warning through `report`.
    @discardableResult
    static func launch(
        _ command: String, arguments: [String], timeout: Duration, report: @escaping @Sendable (String) -> Void
    ) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try resolve(command))
        process.arguments = arguments
        process.environment = HookEnvironment.forHooks()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = PthreadMutex(false)
        process.terminationHandler = { _ in ended.withLock { $0 = true } }
        try process.run()
        let pid = process.processIdentifier
        Task.detached {
            try? await Task.sleep(for: timeout)
            guard !ended.withLock({ $0 }) else { return }
            report("hook \(command) did not finish within \(timeout): stopped")
            kill(pid, SIGTERM)
            try? await Task.sleep(for: .seconds(2))
            if !ended.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
        return pid
    }

    /// A command name without a slash is looked up on PATH, as a shell would.
    static func resolve(_ command: String) throws -> String {
        if command.contains("/") { return command }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + command
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: command])
    }
}

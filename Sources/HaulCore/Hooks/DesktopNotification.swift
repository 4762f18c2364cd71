import Foundation

/// `--notify`: a desktop notification through `notify-send` each time a task completes or fails, when a session
/// bus is there. It never blocks a download: `notify-send` runs on its own and is stopped after a few seconds
/// (with a bus but no notification daemon it can hang). A run waits a little for those still on their way
/// (`deliveries`) before it ends.
public struct DesktopNotification: Sendable {
    /// The `notify-send` found on PATH.
    public let command: String
    /// The `notify-send`s not yet ended, shared by every copy of this value.
    public let deliveries = PendingDeliveries()
    /// Longest an ending run waits for notifications still on their way.
    public static let deliveryWait: Duration = .seconds(2)

    public init(command: String) { self.command = command }

    /// Notifications for this environment, or why there are none (no session bus, no `notify-send`).
    public static func available(environment: [String: String]) -> Result<DesktopNotification, Unavailable> {
        let bus = environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty } ?? false
            || environment["XDG_RUNTIME_DIR"].map { FileManager.default.fileExists(atPath: $0 + "/bus") } ?? false
        guard bus else { return .failure(.noSessionBus) }
        guard let command = try? DownloadHooks.resolve("notify-send") else { return .failure(.noNotifySend) }
        return .success(DesktopNotification(command: command))
    }

    public enum Unavailable: Error, Sendable, CustomStringConvertible {
        case noSessionBus
        case noNotifySend

        public var description: String {
            switch self {
            case .noSessionBus: "--notify: no desktop session bus here (DBUS_SESSION_BUS_ADDRESS), so no notifications"
            case .noNotifySend: "--notify: notify-send is not installed (Debian: libnotify-bin), so no notifications"
            }
        }
    }

    /// The summary and body for `task`'s end: its name and where it went, or why it failed.
    ///
    /// The specification allows markup in the body only, so only the body's is escaped: a summary shows `&` and
    /// `<` as they are.
    public static func message(for task: DownloadTask) -> (summary: String, body: String) {
        let name = task.displayName.escapingAllControlCharacters
        if task.state == .completed {
            let path = task.fileName.map { PathJoin.join(task.directory, $0) } ?? task.directory
            return ("Downloaded \(name)", Self.bodyText(path))
        }
        return ("Download failed: \(name)", Self.bodyText(task.lastError ?? "failed"))
    }

    /// Body text without control characters or markup (notification servers read a subset of HTML in the body).
    static func bodyText(_ text: String) -> String {
        text.escapingAllControlCharacters.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    func send(about task: DownloadTask, report: @escaping @Sendable (String) -> Void) {
        let (summary, body) = Self.message(for: task)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = ["--app-name=haul", "--icon=folder-download", "--", summary, body]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let deliveries = deliveries
        process.terminationHandler = { _ in deliveries.ended() }
        deliveries.started()
        do {
            try process.run()
        } catch {
            deliveries.ended()
            return report("notify-send could not start: \(error.localizedDescription)")
        }
        // Bounded: a notification that takes longer than this is not worth a process left behind.
        let box = ProcessBox(process)
        Task.detached {
            try? await Task.sleep(for: .seconds(10))
            if box.process.isRunning { box.process.terminate() }
        }
    }
}

/// Carries a started `Process` to the task that stops it if it overstays. Unchecked: `Process` is not Sendable,
/// but only `isRunning` and `terminate()` are called on it after `run()`, and Foundation guards both with its own lock.
private final class ProcessBox: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}

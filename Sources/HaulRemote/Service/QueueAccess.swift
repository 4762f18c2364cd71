import HaulCore

/// What remote control may do with the queue: read snapshots, carry out commands, follow events.
public protocol QueueAccess: Sendable {
    /// The latest snapshot.
    func snapshot() -> QueueSnapshot
    /// The first snapshot newer than `sequence`, or the latest after `timeout`.
    func snapshot(after sequence: UInt64, timeout: Duration) async -> QueueSnapshot
    func perform(_ commands: [QueueCommand]) async -> [CommandResult]
    /// The schedule's windows (DESIGN §10).
    func schedule() async -> Schedule
    /// Every controller event from now on.
    func events() -> AsyncStream<ControllerEvent>
    /// Ends the owner with state saved (`haul stop`, `aria2.shutdown`).
    func shutdown() async
}

/// The owner's controller and snapshots as `QueueAccess`.
public struct ControllerAccess: QueueAccess {
    let controller: DownloadController
    let snapshots: SnapshotBox
    let stop: @Sendable () async -> Void

    /// `stop` ends the owner (the controller stops; the process exits once state is saved).
    public init(controller: DownloadController, snapshots: SnapshotBox, stop: @escaping @Sendable () async -> Void) {
        self.controller = controller
        self.snapshots = snapshots
        self.stop = stop
    }

    public func snapshot() -> QueueSnapshot { snapshots.read() }

    public func snapshot(after sequence: UInt64, timeout: Duration) async -> QueueSnapshot {
        await snapshots.next(after: sequence, timeout: timeout)
    }

    public func perform(_ commands: [QueueCommand]) async -> [CommandResult] {
        await controller.perform(commands)
    }

    public func schedule() async -> Schedule { await controller.currentSchedule() }

    public func events() -> AsyncStream<ControllerEvent> { controller.events() }

    public func shutdown() async { await stop() }
}

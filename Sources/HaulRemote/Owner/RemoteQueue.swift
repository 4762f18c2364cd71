import HaulCore

/// The owner's queue as an attached list sees it: snapshots mirrored into a local `SnapshotBox` by a
/// long poll (each answer comes as soon as the owner publishes, as what changed since the last one), and
/// commands sent in order.
public final class RemoteQueue: Sendable {
    public let snapshots = SnapshotBox()
    private let client: OwnerClient
    private let commands: AsyncStream<QueueCommand>.Continuation
    private let tasks: [Task<Void, Never>]

    /// Starts mirroring; `lost` is called once when the owner stops answering, with the pid it last had.
    /// Each snapshot published names the owner it came from (`ownerProcessID`), so a list follows a restarted one.
    public init(client: OwnerClient, first: QueueSnapshot, ownerProcessID: Int32, lost: @escaping @Sendable (Int32) -> Void) {
        self.client = client
        var first = first
        first.ownerProcessID = ownerProcessID
        snapshots.publish(first)
        let (stream, continuation) = AsyncStream.makeStream(of: QueueCommand.self)
        commands = continuation
        let box = snapshots
        let mirror = Task {
            var current = first
            var index = Self.index(of: first)
            var owner: Int32? = ownerProcessID
            var lastOwner = ownerProcessID
            var failures = 0
            while !Task.isCancelled {
                do {
                    if owner == nil {
                        let pid = try await client.processID()
                        owner = pid
                        lastOwner = pid
                    }
                    let answer = try await client.snapshotChange(after: current.sequence, owner: owner ?? 0, wait: .seconds(10))
                    failures = 0
                    if let delta = answer.delta, let next = delta.applied(to: current, index: index) {
                        if delta.order != nil { index = Self.index(of: next) }
                        current = next
                    } else {
                        // Also a restarted owner, which counts from 1 again: take whatever it sends.
                        if let full = answer.full {
                            current = full
                        } else {
                            current = try await client.snapshot()
                        }
                        index = Self.index(of: current)
                    }
                    current.ownerProcessID = owner
                    box.publish(current)
                } catch {
                    owner = nil
                    failures += 1
                    if failures >= 3 {
                        lost(lastOwner)
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
        // One consumer keeps the user's commands in order; the next snapshot shows their effect.
        let sender = Task {
            for await command in stream { _ = try? await client.perform([command]) }
        }
        tasks = [mirror, sender]
    }

    /// Where each task's row is in `snapshot`.
    static func index(of snapshot: QueueSnapshot) -> [TaskID: Int] {
        Dictionary(snapshot.rows.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func send(_ command: QueueCommand) { commands.yield(command) }

    public func close() {
        commands.finish()
        for task in tasks { task.cancel() }
    }
}

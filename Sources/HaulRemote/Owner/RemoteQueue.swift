import HaulCore

/// The owner's queue as an attached list sees it: snapshots mirrored into a local `SnapshotBox` by a
/// long poll (each answer comes as soon as the owner publishes, as what changed since the last one), and
/// commands sent in order.
public final class RemoteQueue: Sendable {
    public let snapshots = SnapshotBox()
    private let client: OwnerClient
    private let commands: AsyncStream<QueueCommand>.Continuation
    private let tasks: [Task<Void, Never>]

    /// Starts mirroring; `lost` is called once when the owner stops answering (it exited).
    public init(client: OwnerClient, first: QueueSnapshot, lost: @escaping @Sendable () -> Void) {
        self.client = client
        snapshots.publish(first)
        let (stream, continuation) = AsyncStream.makeStream(of: QueueCommand.self)
        commands = continuation
        let box = snapshots
        let mirror = Task {
            var current = first
            var owner: Int32?
            var failures = 0
            while !Task.isCancelled {
                do {
                    if owner == nil { owner = try await client.processID() }
                    let answer = try await client.snapshotChange(after: current.sequence, owner: owner ?? 0, wait: .seconds(10))
                    failures = 0
                    if let delta = answer.delta, let next = delta.applied(to: current) {
                        current = next
                    } else if let full = answer.full {
                        // Also a restarted owner, which counts from 1 again: take whatever it sends.
                        current = full
                    } else {
                        current = try await client.snapshot()
                    }
                    box.publish(current)
                } catch {
                    owner = nil
                    failures += 1
                    if failures >= 3 {
                        lost()
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

    public func send(_ command: QueueCommand) { commands.yield(command) }

    public func close() {
        commands.finish()
        for task in tasks { task.cancel() }
    }
}

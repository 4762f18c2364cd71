import HaulCore

/// The owner's queue as an attached list sees it: snapshots mirrored into a local `SnapshotBox` by a
/// long poll (each answer comes as soon as the owner publishes), and commands sent in order.
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
            var sequence = first.sequence
            var failures = 0
            while !Task.isCancelled {
                do {
                    let snapshot = try await client.snapshot(after: sequence, wait: .seconds(10))
                    failures = 0
                    // A restarted owner counts from 1 again: take whatever it sends.
                    sequence = snapshot.sequence
                    box.publish(snapshot)
                } catch {
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

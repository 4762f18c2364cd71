/// The engine that moves bytes; `HaulTransfer` implements it on libcurl's multi interface.
///
/// Commands go in through `send`, which never blocks; every effect comes back, in order, on `events`.
/// The stream is meant to have exactly one consumer: the controller actor.
public protocol TransferDriver: Sendable {
    var events: AsyncStream<TransferEvent> { get }
    func send(_ command: TransferCommand)
}

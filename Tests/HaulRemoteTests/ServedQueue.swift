import HaulCore
import HaulTestSupport
@testable import HaulRemote

/// A controller holding `count` waiting tasks, its RPC (`service` around the dispatcher) served on a Unix socket while
/// `body` runs with a client of it that takes answers of at most `answerLimit` bytes.
func servingQueue(
    count: Int, answerLimit: Int = 64 << 20, snapshots box: SnapshotBox = SnapshotBox(),
    service: (RPCDispatcher) -> any RPCService = { $0 }, _ body: (DownloadController, RPCDispatcher, OwnerClient) async throws -> Void
) async throws {
    let controller = DownloadController(
        store: MemoryTaskStore(), driver: ScriptedDriver(), snapshots: box, configuration: .init(maxConcurrent: 1))
    await controller.perform(.add((1...count).map { NewTask(url: "http://127.0.0.1:9/f\($0).bin", directory: "/tmp/haul-rpc-tests") }))
    let access = ControllerAccess(controller: controller, snapshots: box, stop: { await controller.stop() })
    let dispatcher = RPCDispatcher(
        access: access, intake: TaskIntake(defaultDirectory: "/tmp/haul-rpc-tests", allowedDirectories: []), secret: nil,
        processID: 42)
    let directory = try TemporaryDirectory(prefix: "haul-served")
    let server = RPCServer(service: service(dispatcher), configuration: RPCServerConfiguration(socketPath: directory.file("haul.sock")))
    try await server.start()
    do {
        try await body(controller, dispatcher, OwnerClient(socketPath: directory.file("haul.sock"), maxResponseBytes: answerLimit))
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

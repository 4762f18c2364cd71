import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulTransfer

/// A download's connection count changes while it runs (the list's `+`/`-`, `haul.perform`).
@Suite(.timeLimit(.minutes(1))) struct LiveConnectionsTests {
    @Test func moreConnectionsOpenAtOnceAndFewerCloseTheExtraOnes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Slow enough that it is still running when the counts change, on a loaded machine too.
        var plan = FaultPlan.file(size: 32 << 20, seed: 91)
        plan.throttle = 1 << 20
        server.route("/live.bin", plan)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: server.url("/live.bin"), directory: dir.path, options: SegmentedTests.options(split: 2)))
        try await eventually("two connections", timeout: .seconds(10)) { engine.connectionCounts(of: TaskID(1)).last == 2 }
        let before = engine.connectionCounts(of: TaskID(1)).count
        engine.driver.send(.setTaskConnections(TaskID(1), 4))
        // Reached at once (a connection may then end as its range does, so not necessarily the last count).
        try await eventually("four connections", timeout: .seconds(10)) {
            engine.connectionCounts(of: TaskID(1)).dropFirst(before).contains(4)
        }
        let beforeFewer = engine.connectionCounts(of: TaskID(1)).count
        engine.driver.send(.setTaskConnections(TaskID(1), 1))
        try await eventually("one connection", timeout: .seconds(10)) {
            engine.connectionCounts(of: TaskID(1)).dropFirst(beforeFewer).contains(1)
        }
        engine.driver.send(.setTaskConnections(TaskID(1), 8))
        #expect(try await engine.outcome(of: TaskID(1), timeout: .seconds(40)) == .completed(fileName: "live.bin", bytes: 32 << 20))
        expectSameBytes(contents(dir.path + "/live.bin"), plan.body.bytes())
    }
}

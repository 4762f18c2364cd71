import HaulCore
import Testing
@testable import HaulTUI

/// `[` and `]` step the cap on all downloads; the header shows it.
@Suite struct OverallLimitKeyTests {
    func press(_ key: Character, limit: Int64?) -> (QueueCommand?, String?) {
        var snapshot = TestQueue.sketch
        snapshot.overallLimit = limit.flatMap(RateLimit.init(bytesPerSecond:))
        let context = UIContext(snapshot: snapshot, visibleRows: 8, downloadDirectory: TestQueue.directory)
        let (state, command) = UIState().synchronized(with: context).reduce(.character(key), context: context)
        return (command, state.message?.text)
    }

    @Test func bracketsStepTheCapDownAndBackToNone() {
        #expect(press("[", limit: nil).0 == .setOverallLimit(RateLimit(bytesPerSecond: 100 << 20)))
        #expect(press("[", limit: 2 << 20).0 == .setOverallLimit(RateLimit(bytesPerSecond: 1 << 20)))
        #expect(press("[", limit: 3 << 20).0 == .setOverallLimit(RateLimit(bytesPerSecond: 2 << 20)), "a cap between steps goes to the next lower one")
        #expect(press("]", limit: 1 << 20).0 == .setOverallLimit(RateLimit(bytesPerSecond: 2 << 20)))
        #expect(press("]", limit: 100 << 20).0 == .setOverallLimit(nil))
        #expect(press("]", limit: nil).0 == nil, "no cap is the top")
        #expect(press("[", limit: 100 << 10).0 == nil, "the lowest step stays")
        #expect(press("[", limit: 2 << 20).1 == "all downloads: up to 1.0 MiB/s")
    }

    @Test func theHeaderShowsTheCap() {
        var snapshot = TestQueue.sketch
        snapshot.overallLimit = RateLimit(bytesPerSecond: 5 << 20)
        let top = TestQueue.screen(snapshot, width: 140).lines()[0]
        #expect(top.contains("↓ 16.1 MiB/s cap 5.0 MiB/s (global)"))
    }
}

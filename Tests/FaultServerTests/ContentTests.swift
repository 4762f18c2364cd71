@testable import FaultServer
import Testing

/// The content generator and the Range parser, without sockets.
@Suite struct ContentTests {
    @Test func generatedContentIsDeterministicAndSliceable() {
        let body = FaultPlan.Body.generated(size: 1_001, seed: 42)
        let whole = body.bytes()
        #expect(whole.count == 1_001)
        #expect(whole == body.bytes())
        for range: Range<Int64> in [0..<1, 3..<4, 5..<13, 7..<8, 8..<16, 9..<1_001, 1_000..<1_001, 500..<500] {
            #expect(body.bytes(in: range) == Array(whole[Int(range.lowerBound)..<Int(range.upperBound)]), "\(range)")
        }
        #expect(FaultPlan.Body.generated(size: 1_001, seed: 43).bytes() != whole)
        #expect(body.bytes(version: 2) == FaultPlan.Body.generated(size: 1_001, seed: 43).bytes())
        #expect(Set(whole).count > 200, "bytes look random")
    }

    @Test func literalBodiesFlipInVersionTwo() {
        let body = FaultPlan.Body.bytes([0, 1, 0xFF])
        #expect(body.size == 3)
        #expect(body.bytes() == [0, 1, 0xFF])
        #expect(body.bytes(version: 2) == [0xFF, 0xFE, 0])
        #expect(body.bytes(in: 1..<3) == [1, 0xFF])
    }

    @Test func rangeHeadersParseLikeARealServer() {
        #expect(RangeRequest.parse("bytes=5-") == .from(5))
        #expect(RangeRequest.parse("bytes=5-9") == .closed(5, 9))
        #expect(RangeRequest.parse("bytes=-7") == .suffix(7))
        #expect(RangeRequest.parse(" bytes = 5 - 9 ") == nil)
        #expect(RangeRequest.parse("bytes=9-5") == nil)
        #expect(RangeRequest.parse("bytes=0-1,4-5") == nil)
        #expect(RangeRequest.parse("bytes=x-") == nil)
        #expect(RangeRequest.from(10).resolve(size: 10) == .unsatisfiable)
        #expect(RangeRequest.closed(2, 100).resolve(size: 10) == .satisfiable(2..<10))
        #expect(RangeRequest.suffix(100).resolve(size: 10) == .satisfiable(0..<10))
        #expect(RangeRequest.suffix(0).resolve(size: 10) == .unsatisfiable)
    }

    @Test func queryPlansParseSizesAndFlags() throws {
        let plan = try #require(FaultPlan.fromQuery(
            ["size": "2m", "throttle": "512k", "drop": "1m", "norange": "1", "chunked": "yes", "delay": "50"],
            name: "a.bin"))
        #expect(plan.body.size == 2 << 20)
        #expect(plan.throttle == 512 << 10)
        #expect(plan.dropAfter == 1 << 20)
        #expect(!plan.acceptRanges)
        #expect(plan.chunked)
        #expect(plan.headerDelay == .milliseconds(50))
        #expect(FaultPlan.fromQuery([:], name: "a") == nil)
        #expect(FaultPlan.fromQuery(["size": "-1"], name: "a") == nil)
        #expect(FaultPlan.fromQuery(["size": "1", "drop": "soon"], name: "a") == nil)
        #expect(FaultPlan.fromQuery(["size": "1"], name: "a")?.body != FaultPlan.fromQuery(["size": "1"], name: "b")?.body)
        #expect(FaultPlan.percentEncoded("電 a") == "%E9%9B%BB%20a")
    }
}

import FuzzSupport
import HaulRemote
import NIOCore
import NIOEmbedded
import NIOWebSocket

/// JSON-RPC requests as they reach the server: the bytes as an HTTP body (parsed in time linear in their length,
/// nesting capped), and the same bytes as raw WebSocket frames through NIO's decoder and aggregator with the
/// limits haul's pipeline sets, each whole message parsed as a request.
func fuzzJSONRPC(_ bytes: [UInt8]) {
    check(bytes)
    let channel = EmbeddedChannel()
    defer { _ = try? channel.finish() }
    let sync = channel.pipeline.syncOperations
    do {
        try sync.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 16)))
        try sync.addHandler(NIOWebSocketFrameAggregator(
            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024, maxAccumulatedFrameSize: 1 << 16))
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
        while let frame = try channel.readInbound(as: WebSocketFrame.self) {
            if frame.opcode == .text || frame.opcode == .binary { check(Array(frame.unmaskedData.readableBytesView)) }
        }
    } catch {
        // A malformed frame is refused; only a crash or a hang is a finding.
    }
}

/// A parsed request is never deeper than the cap, and parsing its own encoding gives it back.
private func check(_ bytes: [UInt8]) {
    guard let value = try? JSONValue.parse(bytes) else { return }
    FuzzInput.require(depth(value) <= JSONValue.maxDepth, "parsed past the nesting cap")
}

private func depth(_ value: JSONValue) -> Int {
    switch value {
    case let .array(items): return 1 + (items.map(depth).max() ?? 0)
    case let .object(fields): return 1 + (fields.values.map(depth).max() ?? 0)
    default: return 0
    }
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzJSONRPC) }
}

import NIOCore

/// The bound on one connection's replies that wait to be sent (written, not yet taken by the socket), in bytes.
///
/// It is NIO's write-buffer water marks: the channel turns unwritable once more than `maxPendingBytes` wait, and
/// writable again below half of that. While it is unwritable, `BackPressureHandler` reads no more requests,
/// `RPCHTTPHandler` and `RPCWebSocketHandler` start answering none of the requests they already hold, and
/// `StalledReaderCloser` drops the connection if it stays so. A reply is written whole, so a connection holds at
/// most the bound plus one reply, however many requests a client pipelines without reading the answers.
enum ReplyBacklog {
    /// The water marks for a bound of `maxPendingBytes`.
    static func waterMark(maxPendingBytes: Int) -> ChannelOptions.Types.WriteBufferWaterMark {
        let high = max(maxPendingBytes, 2)
        return .init(low: high / 2, high: high)
    }

    /// Whether `channel` may start answering another request: its unsent replies are within the bound.
    static func mayAnswer(on channel: any Channel) -> Bool {
        channel.isWritable
    }
}

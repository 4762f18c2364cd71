import NIOCore
import NIOHTTP1

/// One HTTP/1.1 request and its response over a fresh connection, which is closed afterwards.
enum HTTPExchange {
    /// What was wrong with the response.
    enum Failure: Error, CustomStringConvertible {
        case closedEarly
        case tooLarge(limit: Int)

        var description: String {
            switch self {
            case .closedEarly: "the connection closed before the answer was complete"
            case .tooLarge(let limit): "the answer is larger than \(limit) bytes"
            }
        }
    }

    /// Sends `POST /jsonrpc` with `body` (as `application/json`) and collects the status and the response body.
    static func post(
        _ body: [UInt8], over channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>,
        maxResponseBytes: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        try await channel.executeThenClose { inbound, outbound in
            var headers = HTTPHeaders()
            // The socket has no host name; `localhost` is what curl and the Unix-socket clients send.
            headers.add(name: "Host", value: "localhost")
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.count))
            headers.add(name: "Connection", value: "close")
            let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: RPCEndpoint.path, headers: headers)
            // One batch, flushed once: written part by part, the owner could answer and close (as asked)
            // once the body was in, before the `.end` (no bytes on the wire) was written, and that write
            // failed with "I/O on closed channel" (about one call in a hundred).
            try await outbound.write(contentsOf: [
                .head(head), .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil),
            ])

            var status: Int?
            var received: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let responseHead):
                    status = Int(responseHead.status.code)
                    // Room for the whole body at once: a snapshot of 10,000 rows is megabytes, and growing by doubling
                    // held the old copy beside the new one.
                    if let length = responseHead.headers.first(name: "content-length").flatMap(Int.init), length > 0 {
                        received.reserveCapacity(min(length, maxResponseBytes))
                    }
                case .body(let chunk):
                    guard received.count + chunk.readableBytes <= maxResponseBytes else {
                        throw Failure.tooLarge(limit: maxResponseBytes)
                    }
                    received += chunk.readableBytesView
                case .end:
                    guard let status else { throw Failure.closedEarly }
                    return (status, received)
                }
            }
            throw Failure.closedEarly
        }
    }
}

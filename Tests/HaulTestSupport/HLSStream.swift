import FaultServer
import Foundation

/// A generated HLS stream on a `FaultServer` (`/hls/NAME/…`, see `HLSPlan.queryParameters`): its links, the bytes
/// a client must write for it, and how often the server was asked for each segment.
///
/// ```swift
/// let stream = try HLSStream(server, name: "film", query: "segments=40&segsize=64k&key=1&err=7:503:2")
/// haul(stream.url) … expectSameBytes(run.file("index.ts"), stream.expectedOutput())
/// #expect(stream.segmentRequests().allSatisfy { $0 <= 1 })
/// ```
public struct HLSStream: Sendable {
    public let server: FaultServer
    public let name: String
    /// The query as written (percent-encoded), carried by every URI of the stream.
    public let query: String
    public let plan: HLSPlan

    /// Fails when the query is not one the server would take (the server would answer 400).
    public init(_ server: FaultServer, name: String, query: String) throws {
        guard let plan = HLSPlan.fromQuery(Self.decode(query), rawQuery: query, name: name) else {
            throw HLSStreamQueryError(query: query)
        }
        self.server = server
        self.name = name
        self.query = query
        self.plan = plan
    }

    /// The top playlist's link: `/hls/NAME/FILE?QUERY` (`index.m3u8`, or another name such as `master.m3u8`).
    public func url(_ file: String = "index.m3u8") -> String {
        server.url("/hls/\(name)/\(file)?\(query)")
    }

    /// The clear bytes of `track` in playlist order, as the playlist read at fetch `fetch` lists them: what a client
    /// writes (the decrypted, concatenated segments).
    public func expectedOutput(track: HLSPlan.Track = .main, fetch: Int = 1) -> [UInt8] {
        plan.clearOutput(track: track, fetch: fetch)
    }

    /// How many requests reached segment `index` of `track` (rotated links included).
    public func requests(ofSegment index: Int, track: HLSPlan.Track = .main) -> Int {
        server.stats("/hls/\(name)/\(track.directory)seg\(index).ts").requests
    }

    /// The request count of every segment of `track`, by index.
    public func segmentRequests(track: HLSPlan.Track = .main, fetch: Int = 1) -> [Int] {
        (0..<plan.segmentCount(atFetch: fetch)).map { requests(ofSegment: $0, track: track) }
    }

    /// Requests of the playlist `file` of `track`.
    public func playlistRequests(track: HLSPlan.Track = .main, file: String = "index.m3u8") -> Int {
        server.stats("/hls/\(name)/\(track.directory)\(file)").requests
    }

    /// Requests of the key.
    public func keyRequests(track: HLSPlan.Track = .main) -> Int {
        server.stats("/hls/\(name)/\(track.directory)key.bin").requests
    }

    /// Query parameters decoded as the server decodes them (the last occurrence wins).
    static func decode(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            result[decoded(parts[0])] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return result
    }
}

/// An `HLSStream` query the server would refuse.
public struct HLSStreamQueryError: Error, CustomStringConvertible {
    public var query: String
    public var description: String { "not a stream query the fault server takes: \(query)\n\(HLSPlan.queryParameters)" }
}

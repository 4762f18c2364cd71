/// What happened on one path so far (since the server started, or since `FaultServer.resetStats(_:)`).
public struct RouteStats: Sendable, Equatable {
    /// Requests received for the path.
    public var requests: Int
    /// Distinct connections that sent those requests (keep-alive reuse counts once).
    public var connections: Int
    /// Body bytes actually written to sockets, over all responses (chunk framing not counted).
    public var bodyBytesSent: Int64
    /// The Range header of each request, nil where there was none.
    public var rangeHeaders: [String?]
    /// The If-Range header of each request, nil where there was none.
    public var ifRangeHeaders: [String?]
    /// The status code of each response, in request order.
    public var statuses: [Int]
    /// For each connection, in order, the monotonic seconds at which its first response head for the path was sent.
    public var firstHeadTimes: [Double]
    /// For each response sent under a connection cap, in the order the responses ended, how the cap treated it.
    public var cappedResponses: [CappedResponse]

    public init(
        requests: Int = 0, connections: Int = 0, bodyBytesSent: Int64 = 0, rangeHeaders: [String?] = [], ifRangeHeaders: [String?] = [],
        statuses: [Int] = [], firstHeadTimes: [Double] = [], cappedResponses: [CappedResponse] = []
    ) {
        self.requests = requests
        self.connections = connections
        self.bodyBytesSent = bodyBytesSent
        self.rangeHeaders = rangeHeaders
        self.ifRangeHeaders = ifRangeHeaders
        self.statuses = statuses
        self.firstHeadTimes = firstHeadTimes
        self.cappedResponses = cappedResponses
    }
}

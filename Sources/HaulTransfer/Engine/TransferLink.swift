import HaulCore

/// One link of a running download: the task's main link or one of its mirrors (DESIGN §8), with what the
/// engine learnt about it in this attempt.
///
/// Each link has its own connection planner (`-s` applies to each link, a refusal's wait and failures count
/// per server, slow connections are judged against the same server's) and its own validators, which every
/// later range answer from it must repeat. Confined to the transfer thread, like its transfer.
final class TransferLink {
    /// 0 for the main link, then the mirrors in the task's order.
    let index: Int
    let url: String
    let host: String
    /// Where its first answer came from after redirects; later ranges ask it directly (mirrors only: the
    /// main link's is the transfer's).
    var effectiveURL: String?
    /// The validators of its first answer (mirrors only: the main link's are the transfer's).
    var validators = RemoteValidators()
    /// Whether a range answer from it was accepted, which fixed its validators.
    var answered = false
    /// Whether its bytes were found to be the main link's (`OverlapSample`): until then none of its ranges is
    /// leased, only its sample is asked. True for the main link, and for a link asked while no other one can be.
    var sampleAgreed: Bool
    /// What it sent of the sample window so far.
    var sample: [UInt8] = []
    /// Sample requests that failed (a few are tried before it is dropped).
    var sampleFailures = 0
    /// Which connections to open on it, cut, replace or shed.
    var planner: ConnectionPlanner
    /// Why it is no longer used in this attempt; nil while it is.
    private(set) var dropReason: String?

    init(index: Int, url: String, split: Int) {
        self.index = index
        self.url = url
        host = URLValidation.host(of: url)
        planner = ConnectionPlanner(split: split)
        sampleAgreed = index == 0
    }

    var isMain: Bool { index == 0 }
    var isLive: Bool { dropReason == nil }
    /// Whether its ranges may be leased: live, and its bytes are the file's.
    var mayLease: Bool { isLive && sampleAgreed }

    /// Stops using it for the rest of the attempt.
    func drop(_ reason: String) {
        if dropReason == nil { dropReason = reason }
    }

    /// The link's measured speed per connection (bytes per second), from its receiving connections; nil
    /// before any has a speed. Ranges go to the faster links first.
    static func speed(of connections: [Connection]) -> Double? {
        let speeds = connections.filter { $0.state == .receiving && $0.speed > 0 }.map(\.speed)
        return speeds.isEmpty ? nil : speeds.reduce(0, +) / Double(speeds.count)
    }
}

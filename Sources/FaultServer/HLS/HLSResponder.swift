/// Turns a request for a generated HLS stream into the `FaultPlan` that answers it (pure), so the stream's
/// faults ride on the machinery every other path uses: ranges, drops, stalls, short bodies, connection caps.
enum HLSResponder {
    /// The plan for `route` of `plan`, for the `requestNumber`th request (1-based) of its stats path; `fetch` is
    /// the track's playlist fetch number (this fetch's for a playlist, the latest for anything else; 0 when none).
    /// `tokenUses`: the segment requests made so far with this request's rotated token, this one included.
    static func plan(for route: HLSRoute, of plan: HLSPlan, requestNumber: Int, fetch: Int, tokenUses: Int = 0) -> FaultPlan {
        var answer: FaultPlan
        switch route.resource {
        case .playlist:
            guard trackExists(route.track, in: plan) else { return .status(404) }
            if let after = plan.playlistFailsAfter, fetch > after { return .status(410) }
            let text = route.track == .main && plan.variants > 0
                ? plan.masterPlaylist() : plan.mediaPlaylist(track: route.track, fetch: fetch)
            answer = FaultPlan(body: .bytes(Array(text.utf8)), contentType: plan.playlistType)
            answer.sendLastModified = false
            answer.headerDelay = plan.delay
            return answer
        case .key:
            guard plan.encrypted else { return .status(404) }
            answer = FaultPlan(body: .bytes(HLSPlan.key))
            if let fault = plan.keyFault {
                if let times = fault.times {
                    answer.failFirst = times
                    answer.failStatus = fault.status
                } else {
                    answer.status = fault.status
                }
            }
            return answer
        case .file(let token):
            guard plan.byteRange, trackExists(route.track, in: plan) else { return .status(404) }
            guard tokenHolds(token, plan: plan, fetch: fetch) else { return .status(403) }
            answer = FaultPlan(body: plan.byteRangeFile(track: route.track), contentType: "video/mp2t")
        case .segment(let index, let token):
            guard !plan.byteRange, index < plan.highestSegmentCount, trackExists(route.track, in: plan) else { return .status(404) }
            // A growing live stream has only the segments its latest playlist lists.
            if plan.growth != nil, !plan.listed(atFetch: fetch).range.contains(index) { return .status(404) }
            guard tokenHolds(token, plan: plan, fetch: fetch) else { return .status(403) }
            if let uses = plan.tokenUses, tokenUses > uses { return .status(410) }
            answer = FaultPlan(body: plan.servedBody(index, track: route.track), contentType: "video/mp2t")
            apply(plan.faults(of: index), to: &answer, requestNumber: requestNumber, retryAfter: plan.retryAfter)
        }
        answer.throttle = plan.throttle
        answer.headerDelay = plan.delay
        answer.connectionRates = plan.connectionCap.map { [$0] }
        return answer
    }

    /// Whether `track` is one the plan serves.
    static func trackExists(_ track: HLSPlan.Track, in plan: HLSPlan) -> Bool {
        switch track {
        case .main: true
        case .variant(let index): index < plan.variants
        case .audio: plan.audio
        }
    }

    /// A rotated link holds only with the token of the latest playlist fetch; an unrotated plan takes no token.
    static func tokenHolds(_ token: Int?, plan: HLSPlan, fetch: Int) -> Bool {
        plan.rotate ? token == fetch : token == nil
    }

    /// Sets the segment's faults on its plan (a counted fault is left out once its count has passed).
    static func apply(_ faults: [HLSPlan.SegmentFault], to answer: inout FaultPlan, requestNumber: Int, retryAfter: Int?) {
        for fault in faults {
            switch fault {
            case .status(let code, let times?):
                answer.failFirst = times
                answer.failStatus = code
                answer.retryAfter = retryAfter
            case .status(let code, nil):
                answer.status = code
            case .drop(let after, let times):
                answer.dropAfter = after
                answer.dropTimes = times
            case .stall(let after, let times):
                answer.stallAfter = after
                answer.stallTimes = times
            case .short(let count, let times):
                if requestNumber <= times { answer.shortBy = count }
            case .badPadding:
                break  // in the served bytes already
            }
        }
    }
}

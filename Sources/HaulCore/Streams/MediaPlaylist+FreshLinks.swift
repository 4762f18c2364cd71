/// Segment links that expire mid-download (DESIGN §9, §11): the media playlist fetched again hands out fresh ones,
/// taken segment by segment once the two lists are the same stream (`StreamFingerprint`: media sequence, count and
/// durations, never the links). Pure.
extension MediaPlaylist {
    /// This playlist with the links of `fresh` (the same media playlist fetched again); why not when it is another
    /// stream now. Init sections stay this playlist's (their bytes are fetched and compared by identity, and a new
    /// link for the same section must not write it twice); a key whose bytes `hasKey` says are fetched stays too.
    public func takingLinks(from fresh: MediaPlaylist, hasKey: (String) -> Bool) -> Result<MediaPlaylist, FreshLinksMismatch> {
        if let mismatch = StreamFingerprint(self).mismatch(StreamFingerprint(fresh)) { return .failure(FreshLinksMismatch(reason: mismatch)) }
        var updated = self
        for index in updated.segments.indices {
            let new = fresh.segments[index]
            updated.segments[index].uri = new.uri
            updated.segments[index].byteRange = new.byteRange
            if let key = updated.segments[index].key, !hasKey(key.uri) { updated.segments[index].key = new.key }
        }
        return .success(updated)
    }
}

/// The media playlist fetched again for fresh links is another stream now.
public struct FreshLinksMismatch: Error, Sendable, Equatable {
    public var reason: String
}

/// What a segment whose link was refused (401, 403, 404, 410: `LinkRenewal.expiredStatuses`) does next (DESIGN §11):
/// its track's media playlist is fetched again for fresh links, once per segment; only a link from a playlist fetched
/// after it failed that fails again gives up. Pure.
public enum SegmentLinkExpiry: Sendable, Equatable {
    /// A fresher playlist came since its link was handed out: ask again with the fresh link.
    case askAgain
    /// The playlist is being fetched again: ask again once it is in.
    case awaitFreshLinks
    /// Fetch the playlist again.
    case fetchPlaylist
    /// It already had fresh links and they failed too: the segment fails.
    case fail

    /// `generation`: the track's playlist fetches so far when the link was handed out; `current`: now.
    public static func decide(generation: Int, current: Int, refreshing: Bool, askedBefore: Bool) -> SegmentLinkExpiry {
        if generation < current { return .askAgain }
        if refreshing { return .awaitFreshLinks }
        return askedBefore ? .fail : .fetchPlaylist
    }
}

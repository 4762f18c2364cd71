import FuzzSupport
import HaulCore

/// A server's HLS playlist: parsing ends in a playlist or a `PlaylistError`, and every URI it yields is http(s)
/// with a host; segment ranges are ranges and sequence numbers count up.
func fuzzPlaylist(_ bytes: [UInt8]) {
    let playlist: Playlist
    do {
        playlist = try PlaylistParser.parse(bytes, url: "https://cdn.example.org/v/index.m3u8")
    } catch {
        FuzzInput.require(!error.description.isEmpty, "an error without words")
        return
    }
    func checkURI(_ uri: String) {
        FuzzInput.require(uri.hasPrefix("http://") || uri.hasPrefix("https://"), "not http(s): \(uri)")
    }
    switch playlist {
    case let .master(master):
        FuzzInput.require(!master.variants.isEmpty, "a master playlist without variants")
        for variant in master.variants {
            checkURI(variant.uri)
            FuzzInput.require(variant.resolution?.isPlausible ?? true, "resolution \(variant.resolution!)")
        }
        // Ranking compares every pair: it must not trap, whatever the numbers.
        _ = VariantChoice.best.pick(from: master.variants)
    case let .media(media):
        FuzzInput.require(!media.segments.isEmpty && media.segments.count <= PlaylistParser.maxSegments, "segment count")
        for (index, segment) in media.segments.enumerated() {
            checkURI(segment.uri)
            FuzzInput.require(segment.sequence == media.mediaSequence + Int64(index), "sequence numbers")
            FuzzInput.require(segment.duration >= 0 && segment.duration.isFinite, "duration")
            if let range = segment.byteRange {
                FuzzInput.require(range.lowerBound >= 0 && !range.isEmpty && range.upperBound <= StatedSize.limit, "range")
            }
            if let range = segment.initSection?.byteRange { FuzzInput.require(range.upperBound <= StatedSize.limit, "init range") }
            if let key = segment.key {
                checkURI(key.uri)
                FuzzInput.require(key.iv.count == 16, "IV of \(key.iv.count) bytes")
            }
        }
        // What a checkpoint computes from the playlist's durations: no trap, an estimate a file can have or none.
        var track = StreamTrackInfo(media)
        track.segmentsDone = 1
        track.appendedBytes = 1 << 30
        track.doneSeconds = media.segments[0].duration
        FuzzInput.require((track.estimatedTotal ?? 0) <= StatedSize.limit, "estimate")
    }
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzPlaylist) }
}

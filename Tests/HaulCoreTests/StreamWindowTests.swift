import HaulCore
import Testing

/// The stream window: in order, bounded, retries first (DESIGN §9).
struct StreamWindowTests {
    @Test func segmentsStartInOrderWithinTheWindow() {
        var window = StreamWindow(count: 10, appended: 2, span: 4)
        #expect(window.take(free: 8) == [2, 3, 4, 5], "never more than the span past the first missing segment")
        #expect(window.take(free: 8).isEmpty)
        // Later ones arrive first: held, not appended, and the window does not move.
        #expect(window.fetched(4, bytes: 100).isEmpty && window.fetched(3, bytes: 100).isEmpty)
        #expect(window.take(free: 1).isEmpty)
        #expect(window.fetched(2, bytes: 100) == [2, 3, 4])
        window.didAppend(2)
        window.didAppend(3)
        #expect(window.take(free: 8) == [6, 7])
        window.didAppend(4)
        #expect(window.take(free: 8) == [8])
        #expect(window.heldBytes == 0)
    }

    @Test func aFailedSegmentIsFetchedAgainFirst() {
        var window = StreamWindow(count: 5, appended: 0, span: 3)
        #expect(window.take(free: 2) == [0, 1])
        window.failed(0)
        #expect(window.fetched(1, bytes: 10).isEmpty)
        #expect(window.take(free: 2) == [0, 2])
        #expect(window.fetched(0, bytes: 10) == [0, 1])
        window.didAppend(0)
        window.didAppend(1)
        #expect(window.fetched(2, bytes: 10) == [2])
        window.didAppend(2)
        #expect(window.take(free: 5) == [3, 4])
        _ = window.fetched(3, bytes: 1)
        _ = window.fetched(4, bytes: 1)
        window.didAppend(3)
        window.didAppend(4)
        #expect(window.isComplete)
    }

    @Test func aResumedStreamStartsAfterWhatWasAppended() {
        var window = StreamWindow(count: 3, appended: 3, span: 8)
        #expect(window.isComplete && window.take(free: 4).isEmpty)
        window = StreamWindow(count: 3, appended: 9, span: 8)
        #expect(window.appended == 3)
    }

    @Test func stalePromptsAreIgnored() {
        var window = StreamWindow(count: 3, appended: 0, span: 2)
        _ = window.take(free: 1)
        #expect(window.fetched(1, bytes: 5).isEmpty, "a segment never asked for is not held")
        window.didAppend(0)
        #expect(window.appended == 0, "not appendable before it arrived")
    }

    static func media(_ durations: [Double], sequence: Int64 = 0, prefix: String = "a") -> MediaPlaylist {
        MediaPlaylist(targetDuration: 2, mediaSequence: sequence, segments: durations.enumerated().map { index, duration in
            MediaSegment(sequence: sequence + Int64(index), duration: duration, uri: "https://h/\(prefix)\(index).ts?sig=\(prefix)")
        })
    }

    @Test func aPlaylistWithRotatedLinksIsTheSameStream() {
        let first = StreamFingerprint(Self.media([2, 2, 1.5]))
        #expect(first.mismatch(StreamFingerprint(Self.media([2, 2, 1.5], prefix: "b"))) == nil)
        #expect(first.mismatch(StreamFingerprint(Self.media([2, 2, 1.5], sequence: 4))) == "the playlist now starts at segment 4, not 0")
        #expect(first.mismatch(StreamFingerprint(Self.media([2, 2]))) == "the playlist now has 2 segments, not 3")
        #expect(first.mismatch(StreamFingerprint(Self.media([2, 1.5, 2]))) == "the playlist's segment durations changed")
        #expect(first.mismatch(StreamFingerprint(Self.media([2.0004, 2, 1.5]))) == nil, "within a millisecond")
    }
}

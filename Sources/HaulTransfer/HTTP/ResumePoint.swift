import HaulCore

/// Where an attempt starts, from what the store recorded and what the download directory holds (DESIGN §5, §7):
/// pure, so it is tested without files.
enum ResumePoint: Equatable {
    /// No name is decided yet: the first response decides it, and writing starts at byte 0.
    case undecided
    /// The final file is already in place from a run that died before recording it: nothing to fetch.
    case publishedEarlier(total: Int64)
    /// Continue the decided name's part file at `offset`; `truncate` cuts an unrecorded tail first.
    case continuePart(offset: Int64, truncate: Bool)
    /// Continue a download over several connections from its recorded layout.
    case continueSegments(SegmentLedger)

    /// - Parameters:
    ///   - fileName: the name an earlier attempt decided, if any.
    ///   - recordedBytes: durable bytes the store recorded.
    ///   - expectedTotal: the total the store recorded.
    ///   - segments: the recorded layout of a segmented download (empty for a single stream).
    ///   - partSize: size of the part file, nil when there is none.
    ///   - finalFileSize: size of a regular file under the final name, nil when there is none.
    ///   - finalIsOurs: that file carries the task's own mark (`PartOwnerTag`): this task published it.
    static func decide(
        fileName: String?, recordedBytes: Int64, expectedTotal: Int64?, segments: [SegmentRecord] = [],
        partSize: Int64?, finalFileSize: Int64?, finalIsOurs: Bool = false
    ) -> ResumePoint {
        guard fileName != nil else { return .undecided }
        if partSize == nil, let finalFileSize, finalIsOurs || finalFileSize == expectedTotal {
            return .publishedEarlier(total: finalFileSize)
        }
        let onDisk = partSize ?? 0
        var recorded = recordedBytes
        if !segments.isEmpty {
            // A segmented part file is allocated to the whole size; anything else lost its layout.
            if let expectedTotal, onDisk == expectedTotal,
               let ledger = SegmentLedger(total: expectedTotal, segments: segments) {
                return .continueSegments(ledger)
            }
            recorded = contiguousPrefix(of: segments)
        }
        // The database never records more than is durable, but the file may hold an unrecorded tail.
        let offset = max(0, min(recorded, onDisk))
        return .continuePart(offset: offset, truncate: onDisk != offset)
    }

    /// Durable bytes from the start of the file with no gap: what a single stream can continue from.
    static func contiguousPrefix(of segments: [SegmentRecord]) -> Int64 {
        var prefix: Int64 = 0
        for record in segments.sorted(by: { $0.start < $1.start }) {
            guard record.start == prefix else { break }
            prefix += record.committed
            guard record.isComplete else { break }
        }
        return prefix
    }
}

/// Where an attempt starts, from what the store recorded and what the download directory holds (DESIGN §5):
/// pure, so it is tested without files.
enum ResumePoint: Equatable {
    /// No name is decided yet: the first response decides it, and writing starts at byte 0.
    case undecided
    /// The final file is already in place from a run that died before recording it: nothing to fetch.
    case publishedEarlier(total: Int64)
    /// Continue the decided name's part file at `offset`; `truncate` cuts an unrecorded tail first.
    case continuePart(offset: Int64, truncate: Bool)

    /// - Parameters:
    ///   - fileName: the name an earlier attempt decided, if any.
    ///   - recordedBytes: durable bytes the store recorded.
    ///   - expectedTotal: the total the store recorded.
    ///   - partSize: size of the part file, nil when there is none.
    ///   - finalFileSize: size of a regular file under the final name, nil when there is none.
    static func decide(
        fileName: String?, recordedBytes: Int64, expectedTotal: Int64?, partSize: Int64?, finalFileSize: Int64?
    ) -> ResumePoint {
        guard fileName != nil else { return .undecided }
        if partSize == nil, let expectedTotal, finalFileSize == expectedTotal {
            return .publishedEarlier(total: expectedTotal)
        }
        let onDisk = partSize ?? 0
        // The database never records more than is durable, but the file may hold an unrecorded tail.
        let offset = max(0, min(recordedBytes, onDisk))
        return .continuePart(offset: offset, truncate: onDisk != offset)
    }
}

/// Whether a mirror serves the main link's bytes, judged on a small overlap (DESIGN §8): pure.
///
/// Two servers may report the same length for different files. Before any range of a mirror counts, the mirror is
/// asked for a few KiB the main link fetches too (`window`, the start of the main link's first range), and the two
/// are compared byte for byte. Values only; the transfer thread's `ActiveTransfer` holds them and does the I/O.
enum OverlapSample {
    /// How much is compared: enough that another file of the same length shows, little enough to cost one round trip.
    static let length: Int64 = 16 << 10

    enum Verdict: Equatable {
        /// The mirror's bytes are the main link's.
        case agrees
        /// They differ first at this file offset.
        case differs(at: Int64)
        /// Not all of the window is known from both yet.
        case waiting
    }

    /// The window compared: the first `length` bytes of the main link's first range (`start..<rangeEnd`).
    static func window(start: Int64, rangeEnd: Int64) -> Range<Int64> {
        start..<max(start, min(rangeEnd, start + length))
    }

    /// Compares what the main link wrote of `window` (`reference`, from its start) with what the mirror sent
    /// (`mirror`, from its start). A difference shows as soon as both hold the byte; agreement needs all of it.
    static func verdict(window: Range<Int64>, reference: [UInt8], mirror: [UInt8]) -> Verdict {
        let size = Int(window.upperBound - window.lowerBound)
        let both = min(reference.count, mirror.count, size)
        if let index = (0..<both).first(where: { reference[$0] != mirror[$0] }) {
            return .differs(at: window.lowerBound + Int64(index))
        }
        return both == size ? .agrees : .waiting
    }

    /// Why a mirror whose bytes differ at `offset` is dropped.
    static func reason(differsAt offset: Int64) -> String {
        "its bytes differ from the main link's at byte \(offset): it serves another file of the same length"
    }
}

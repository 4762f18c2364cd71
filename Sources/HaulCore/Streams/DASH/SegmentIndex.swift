/// An ISO BMFF `sidx` box (ISO/IEC 14496-12 §8.16.3) as DASH's `SegmentBase` points at it: the byte ranges and
/// lengths of the subsegments of one file. Pure; every size is checked against the bytes given.
public struct SegmentIndex: Sendable, Equatable {
    public struct Reference: Sendable, Equatable {
        public var range: Range<Int64>
        public var seconds: Double
    }

    public var references: [Reference]

    /// The index in `bytes`, which the file holds at offset `start` (the `indexRange`'s first byte).
    public static func parse(_ bytes: [UInt8], at start: Int64) throws(PlaylistError) -> SegmentIndex {
        // Offsets stay within 2^62 (`DASHExpansion.range`), so the sums below cannot overflow.
        guard (0...(1 << 62)).contains(start) else { throw PlaylistError(line: nil, .outOfRange("indexRange", String(start), limit: "2^62")) }
        var reader = BoxReader(bytes: bytes)
        let size = try reader.uint32()
        guard try reader.uint32() == 0x7369_6478 else { throw PlaylistError(line: nil, .manifest("the segment index is not a sidx box")) }
        guard size >= 8, Int(size) <= bytes.count else { throw truncated }
        let version = try reader.byte()
        try reader.skip(3 + 4)
        let timescale = try reader.uint32()
        guard timescale > 0 else { throw PlaylistError(line: nil, .outOfRange("sidx timescale", "0", limit: "1–\(UInt32.max)")) }
        let firstOffset: UInt64
        if version == 0 {
            try reader.skip(4)
            firstOffset = UInt64(try reader.uint32())
        } else {
            try reader.skip(8)
            firstOffset = try reader.uint64()
        }
        try reader.skip(2)
        let count = Int(try reader.uint16())
        var offset = start + Int64(size)
        guard firstOffset < UInt64(Int64.max / 2) else { throw PlaylistError(line: nil, .outOfRange("sidx first_offset", String(firstOffset), limit: "2^62")) }
        offset += Int64(firstOffset)
        var references: [Reference] = []
        for _ in 0..<count {
            let word = try reader.uint32()
            guard word & 0x8000_0000 == 0 else {
                throw PlaylistError(line: nil, .manifest("the segment index refers to other indexes, which haul does not follow"))
            }
            let length = Int64(word & 0x7FFF_FFFF)
            let duration = try reader.uint32()
            try reader.skip(4)
            guard length > 0, offset <= Int64.max / 2 - length else { throw PlaylistError(line: nil, .outOfRange("sidx referenced_size", String(length), limit: "1–2^31")) }
            references.append(Reference(range: offset..<offset + length, seconds: Double(duration) / Double(timescale)))
            offset += length
        }
        guard !references.isEmpty else { throw PlaylistError(line: nil, .empty) }
        return SegmentIndex(references: references)
    }

    private static var truncated: PlaylistError { PlaylistError(line: nil, .manifest("the segment index is cut short")) }

    /// Big-endian numbers from the front of a byte array, failing past its end.
    private struct BoxReader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() throws(PlaylistError) -> UInt8 {
            guard position < bytes.count else { throw SegmentIndex.truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func skip(_ count: Int) throws(PlaylistError) {
            guard position + count <= bytes.count else { throw SegmentIndex.truncated }
            position += count
        }

        mutating func uint16() throws(PlaylistError) -> UInt16 { UInt16(try number(2)) }
        mutating func uint32() throws(PlaylistError) -> UInt32 { UInt32(try number(4)) }
        mutating func uint64() throws(PlaylistError) -> UInt64 { try number(8) }

        private mutating func number(_ width: Int) throws(PlaylistError) -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
            return value
        }
    }
}

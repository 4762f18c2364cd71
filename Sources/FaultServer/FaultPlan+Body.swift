extension FaultPlan.Body {
    /// Number of bytes in the content.
    public var size: Int64 {
        switch self {
        case .generated(let size, _): return size
        case .bytes(let bytes): return Int64(bytes.count)
        }
    }

    /// The whole content as served in `version` (1 = original, 2 = after `changeAfterRequests`).
    ///
    /// Version 2 of `.generated` uses `seed + 1`; version 2 of `.bytes` flips every byte (XOR 0xFF).
    public func bytes(version: Int = 1) -> [UInt8] {
        bytes(in: 0..<size, version: version)
    }

    /// A slice of the content as served in `version`, e.g. what a 206 for `range` carries.
    public func bytes(in range: Range<Int64>, version: Int = 1) -> [UInt8] {
        let clamped = range.clamped(to: 0..<size)
        return [UInt8](unsafeUninitializedCapacity: Int(clamped.count)) { buffer, count in
            fill(UnsafeMutableRawBufferPointer(buffer), from: clamped.lowerBound, version: version)
            count = Int(clamped.count)
        }
    }

    /// Writes the content starting at byte `offset` into `buffer` (the caller keeps it in range).
    func fill(_ buffer: UnsafeMutableRawBufferPointer, from offset: Int64, version: Int) {
        guard buffer.count > 0 else { return }
        switch self {
        case .generated(_, let seed):
            ContentGenerator.fill(buffer, from: offset, seed: seed &+ UInt64(version - 1))
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in
                let start = Int(offset)
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + buffer.count)]))
            }
            if version > 1 {
                for index in buffer.indices { buffer[index] ^= 0xFF }
            }
        }
    }

    /// A strong ETag naming the content and its version.
    func defaultETag(version: Int) -> String {
        switch self {
        case .generated(let size, let seed):
            return "\"\(size)-\(seed)-v\(version)\""
        case .bytes(let bytes):
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return "\"b\(String(hash, radix: 16))-v\(version)\""
        }
    }
}

/// Deterministic pseudo-random content: byte `i` is byte `i % 8` (little-endian) of SplitMix64 word `i / 8`.
///
/// Any slice can be produced without producing what comes before it, so range requests and
/// multi-gigabyte benchmark files cost no memory and no precomputation.
enum ContentGenerator {
    /// SplitMix64 output number `index` for `seed` (the counter form of the generator).
    @inline(__always)
    static func word(_ index: UInt64, seed: UInt64) -> UInt64 {
        var z = seed &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// Fills `buffer` with the content bytes that start at `offset`.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, from offset: Int64, seed: UInt64) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        var position = 0
        var index = UInt64(offset) / 8
        // Unaligned head: the tail bytes of the word that `offset` falls in.
        let skip = Int(UInt64(offset) % 8)
        if skip != 0 {
            let bytes = word(index, seed: seed).littleEndian
            withUnsafeBytes(of: bytes) { wordBytes in
                while position < count && skip + position < 8 {
                    base.storeBytes(of: wordBytes[skip + position], toByteOffset: position, as: UInt8.self)
                    position += 1
                }
            }
            index += 1
        }
        // Whole words.
        while position + 8 <= count {
            base.storeBytes(of: word(index, seed: seed).littleEndian, toByteOffset: position, as: UInt64.self)
            position += 8
            index += 1
        }
        // Tail.
        if position < count {
            let bytes = word(index, seed: seed).littleEndian
            withUnsafeBytes(of: bytes) { wordBytes in
                var k = 0
                while position < count {
                    base.storeBytes(of: wordBytes[k], toByteOffset: position, as: UInt8.self)
                    position += 1
                    k += 1
                }
            }
        }
    }
}

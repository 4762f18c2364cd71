extension HLSPlan {
    /// The clear content of segment `index` of `track` (no storage: generated on demand).
    public func clearBody(_ index: Int, track: Track = .main) -> FaultPlan.Body {
        if transportStream { return .bytes(transportStreamSegment(index, track: track)) }
        return .generated(size: Int64(segmentSize), seed: seed(of: index, track: track))
    }

    /// `size` pseudo-random bytes for segment `index` of `track`.
    func clearGenerated(_ index: Int, track: Track, size: Int) -> [UInt8] {
        FaultPlan.Body.generated(size: Int64(size), seed: seed(of: index, track: track)).bytes()
    }

    /// The seed of segment `index` of `track`: from the stream's seed (else its name), the track and the index.
    private func seed(of index: Int, track: Track) -> UInt64 {
        FaultPlan.defaultSeed(for: "\(seed ?? FaultPlan.defaultSeed(for: name))/\(track)/\(index)")
    }

    /// The clear bytes of segment `index` of `track`: what a client writes for it after decrypting.
    public func clearSegment(_ index: Int, track: Track = .main) -> [UInt8] {
        clearBody(index, track: track).bytes()
    }

    /// The IV of segment `index`: the tag's, or its media sequence number as a 128-bit big-endian integer.
    public func iv(ofSegment index: Int) -> [UInt8] {
        guard implicitIV else { return Self.explicitIV }
        let sequence = UInt64(mediaSequence) + UInt64(index)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: sequence >> (56 - 8 * $0)) }
    }

    /// The bytes served for segment `index` of `track`: the clear bytes, or their AES-128 ciphertext.
    public func servedBody(_ index: Int, track: Track = .main) -> FaultPlan.Body {
        guard encrypted else { return clearBody(index, track: track) }
        var clear = clearSegment(index, track: track)
        let badPadding = faults(of: index).contains(.badPadding)
        // Bad padding: encrypt a block of zeros after the content and leave out the padding block, so the last
        // block decrypts to a zero byte, which PKCS#7 never ends with.
        if badPadding { clear += [UInt8](repeating: 0, count: 16 - clear.count % 16) }
        var cipher = SegmentCipher.encrypt(clear, key: Self.key, iv: iv(ofSegment: index))
        if badPadding { cipher.removeLast(16) }
        return .bytes(cipher)
    }

    /// The one file of `byterange=1`: every served segment of the longest playlist, end to end.
    func byteRangeFile(track: Track) -> FaultPlan.Body {
        if !encrypted, highestSegmentCount == 1 { return servedBody(0, track: track) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(highestSegmentCount * (segmentSize + 16))
        for index in 0..<highestSegmentCount { bytes += servedBody(index, track: track).bytes() }
        return .bytes(bytes)
    }

    /// Where segment `index` starts in `stream.ts` (served bytes; the ciphertext is longer than the clear text).
    func byteRangeOffset(of index: Int, track: Track) -> Int64 {
        // Every served segment has the same size.
        Int64(index) * servedSize(of: index)
    }

    /// The length of served segment `index` (without making it): the ciphertext is padded to whole blocks
    /// (with bad padding, the zeros that replace the padding take the same room).
    func servedSize(of index: Int) -> Int64 {
        let size = Int64(segmentSize)
        return encrypted ? (size / 16 + 1) * 16 : size
    }

    /// What a client must write for `track`: the clear segments in playlist order, of the playlist served at fetch
    /// `fetch` (a `change` can make a later playlist shorter or longer).
    public func clearOutput(track: Track = .main, fetch: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = segmentCount(atFetch: fetch)
        bytes.reserveCapacity(count * segmentSize)
        for index in 0..<count { bytes += clearSegment(index, track: track) }
        return bytes
    }
}

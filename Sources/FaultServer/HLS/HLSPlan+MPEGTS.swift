extension HLSPlan {
    /// The bytes of segment `index` with `ts=1`: MPEG-TS that ffmpeg demuxes and copies (`-c copy`), so the
    /// reference clients that parse what they fetch can take part in a benchmark. A PAT, a PMT naming one private
    /// data stream (type 0x06, PID 0x100), then one PES of pseudo-random bytes in whole 188-byte packets whose
    /// PTS is the segment's start time. `segmentSize` is already whole packets. A data stream is not picked by
    /// default: `ffmpeg -i URL -map 0 -c copy`.
    func transportStreamSegment(_ index: Int, track: Track) -> [UInt8] {
        let packets = segmentSize / MPEGTS.packetSize
        let payloadPackets = packets - 2
        let pts = UInt64(index) * UInt64(durationMilliseconds) * 90
        let header = MPEGTS.pesHeader(pts: pts)
        let random = clearGenerated(index, track: track, size: payloadPackets * 184 - header.count)
        var bytes = MPEGTS.sectionPacket(pid: 0, MPEGTS.pat) + MPEGTS.sectionPacket(pid: 0x1000, MPEGTS.pmt)
        bytes.reserveCapacity(segmentSize)
        let payload = header + random
        for packet in 0..<payloadPackets {
            bytes += [0x47, (packet == 0 ? 0x40 : 0) | 0x01, 0x00, 0x10 | UInt8(packet & 15)]
            bytes += payload[(packet * 184)..<((packet + 1) * 184)]
        }
        return bytes
    }
}

/// The few MPEG-TS structures a playable-enough segment needs (ISO/IEC 13818-1).
enum MPEGTS {
    static let packetSize = 188

    /// Program association: program 1 at PMT PID 0x1000.
    static let pat: [UInt8] = [0x00, 0xB0, 13, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xF0, 0x00]
    /// Program map: PCR on PID 0x100, one stream of type 0x06 (private PES) on PID 0x100.
    static let pmt: [UInt8] = [0x02, 0xB0, 18, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00, 0x06, 0xE1, 0x00, 0xF0, 0x00]

    /// One packet carrying a PSI section and its CRC, padded with 0xFF.
    static func sectionPacket(pid: Int, _ section: [UInt8]) -> [UInt8] {
        var packet: [UInt8] = [0x47, 0x40 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10, 0x00] + section
        let crc = crc32(section)
        packet += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        return packet + [UInt8](repeating: 0xFF, count: packetSize - packet.count)
    }

    /// A private stream 1 PES header of unbounded length with a PTS.
    static func pesHeader(pts: UInt64) -> [UInt8] {
        [
            0x00, 0x00, 0x01, 0xBD, 0x00, 0x00, 0x80, 0x80, 0x05,
            0x21 | UInt8((pts >> 29) & 0x0E), UInt8((pts >> 22) & 0xFF), 0x01 | UInt8((pts >> 14) & 0xFE),
            UInt8((pts >> 7) & 0xFF), 0x01 | UInt8((pts << 1) & 0xFE),
        ]
    }

    /// CRC-32/MPEG-2 (polynomial 0x04C11DB7, no reflection, no final XOR).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

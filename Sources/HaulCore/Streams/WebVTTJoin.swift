/// The WebVTT segments of a subtitle rendition joined into one `.vtt` file (DESIGN §11): the first segment whole, and
/// of every later one its cues only (each segment starts with its own `WEBVTT` header block, which a file may have
/// once). Cue times are kept as they are: ffmpeg writes them absolute, without `X-TIMESTAMP-MAP` (TECH_NOTES §I.5).
/// A pure value, bounded in bytes.
public struct WebVTTJoin: Sendable {
    /// The most bytes a joined subtitle file may take.
    public static let maxBytes = 16 << 20

    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends one segment; false (and nothing appended) when it is not WebVTT text or the file would pass `maxBytes`.
    public mutating func append(_ segment: [UInt8]) -> Bool {
        var body = segment[...]
        // A byte order mark, then the header block up to its first blank line.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.starts(with: Array("WEBVTT".utf8)) else { return false }
        if !bytes.isEmpty {
            body = Self.cues(after: body)
        }
        guard bytes.count + body.count + 1 <= Self.maxBytes else { return false }
        if !bytes.isEmpty, bytes.last != 0x0A { bytes.append(0x0A) }
        if !bytes.isEmpty { bytes.append(0x0A) }
        bytes += body
        return true
    }

    /// What follows the header block (`WEBVTT` and the lines up to the first blank one).
    static func cues(after text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var index = text.startIndex
        var lineStart = true
        var sawLine = false
        while index < text.endIndex {
            let byte = text[index]
            if lineStart, sawLine, byte == 0x0A || (byte == 0x0D && text.index(after: index) < text.endIndex && text[text.index(after: index)] == 0x0A) {
                let next = byte == 0x0D ? text.index(index, offsetBy: 2) : text.index(after: index)
                return text[next...].drop { $0 == 0x0A || $0 == 0x0D }
            }
            sawLine = true
            lineStart = byte == 0x0A
            index = text.index(after: index)
        }
        return []
    }
}

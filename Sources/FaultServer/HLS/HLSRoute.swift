/// What a path under `/hls/NAME/` names: a playlist, a segment, the key or the byte-range file, of one track.
struct HLSRoute: Equatable {
    enum Resource: Equatable {
        /// Any `X.m3u8`: the master at the top of a plan with variants, else the track's media playlist.
        case playlist(String)
        /// `segI.ts`, with the token of a rotated link (`rT/`).
        case segment(Int, token: Int?)
        case key
        /// `stream.ts` of `byterange=1`, with the token of a rotated link.
        case file(token: Int?)
    }

    static let prefix = "/hls/"

    var name: String
    var track: HLSPlan.Track
    var resource: Resource

    /// The route a decoded path names; nil for anything else under `/hls/`.
    init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        var parts = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty else { return nil }
        name = parts.removeFirst()
        let file = parts.removeLast()
        track = .main
        if let first = parts.first, first == "audio" || Self.number(first, after: "v") != nil {
            track = first == "audio" ? .audio : .variant(Self.number(first, after: "v")!)
            parts.removeFirst()
        }
        var token: Int?
        if let first = parts.first, let value = Self.number(first, after: "r") {
            token = value
            parts.removeFirst()
        }
        guard parts.isEmpty else { return nil }
        if file.hasSuffix(".m3u8"), token == nil {
            resource = .playlist(file)
        } else if file == "key.bin", token == nil {
            resource = .key
        } else if file == "stream.ts" {
            resource = .file(token: token)
        } else if file.hasPrefix("seg"), file.hasSuffix(".ts"), 
                  file.dropFirst(3).dropLast(3).allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(file.dropFirst(3).dropLast(3)) {
            resource = .segment(index, token: token)
        } else {
            return nil
        }
    }

    /// The path for stats and counters: a rotated link counts under its path without the token, so a segment's
    /// requests add up across playlist fetches (`/hls/NAME/v1/seg3.ts`).
    var statsKey: String {
        let base = Self.prefix + name + "/" + track.directory
        switch resource {
        case .segment(let index, _): return base + "seg\(index).ts"
        case .file: return base + "stream.ts"
        case .key: return base + "key.bin"
        case .playlist(let file): return base + file
        }
    }

    /// The key of the track's playlist fetch counter (shared by every `X.m3u8` of the track).
    var trackKey: String { Self.prefix + name + "/" + track.directory }

    /// `TEXT` as a number when `text` is `letter` followed by digits only.
    private static func number(_ text: String, after letter: Character) -> Int? {
        guard text.first == letter, text.count > 1, text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text.dropFirst()).flatMap { $0 >= 0 ? $0 : nil }
    }
}

import HaulCore

/// Builds one JSON object as a single line, keys in the order given (for `--json` events).
public struct JSONLine {
    private var fields: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append("\(key.jsonStringLiteral):\(value.jsonStringLiteral)")
    }

    public mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        fields.append("\(key.jsonStringLiteral):\(value)")
    }

    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        fields.append("\(key.jsonStringLiteral):\((value * 10).rounded() / 10)")
    }

    public mutating func add(_ key: String, _ value: Bool?) {
        guard let value else { return }
        fields.append("\(key.jsonStringLiteral):\(value)")
    }

    /// A nested object.
    public mutating func add(_ key: String, _ object: JSONLine?) {
        guard let object else { return }
        fields.append("\(key.jsonStringLiteral):" + object.text)
    }

    /// A value already encoded as JSON text (`null`, `true`, a list …).
    public mutating func add(_ key: String, json: String) {
        fields.append("\(key.jsonStringLiteral):\(json)")
    }

    /// An array of objects; nothing for an empty array.
    public mutating func add(_ key: String, _ objects: [JSONLine]) {
        guard !objects.isEmpty else { return }
        fields.append("\(key.jsonStringLiteral):[" + objects.map(\.text).joined(separator: ",") + "]")
    }

    public var text: String { "{" + fields.joined(separator: ",") + "}" }
}

extension JSONLine {
    /// A stream task's figures (DESIGN §9), as `haul list --json` and the `stream` event give them.
    public static func stream(_ info: StreamInfo) -> JSONLine {
        var json = JSONLine()
        json.add("segments", Int64(info.segmentCount))
        json.add("segmentsDone", Int64(info.segmentsDone))
        json.add("durationSeconds", info.durationSeconds)
        if let variant = info.variant { json.add("variant", variant) } else { json.add("variant", json: "null") }
        if let encryption = info.encryption { json.add("encryption", encryption) } else { json.add("encryption", json: "null") }
        json.add("container", info.container)
        json.add("estimated", info.isEstimate)
        json.add("note", info.note)
        // The variant's audio and subtitle renditions, and which were taken.
        json.add("renditions", (info.renditions ?? []).map { rendition in
            var entry = JSONLine()
            entry.add("kind", rendition.kind)
            entry.add("name", rendition.name)
            entry.add("language", rendition.language)
            entry.add("default", rendition.isDefault)
            entry.add("chosen", rendition.chosen)
            return entry
        })
        if let live = info.live {
            // A live recording: whether it still records, why it ended, the media recorded and every gap.
            json.add("live", true)
            json.add("recording", info.isRecording)
            json.add("ended", live.ended)
            json.add("recordedSeconds", info.tracks.first?.doneSeconds ?? 0)
            // Always there, empty when nothing was missed.
            json.add("gaps", json: "[" + live.gaps.map { gap in
                var entry = JSONLine()
                entry.add("segments", gap.segments)
                entry.add("atSeconds", gap.atSeconds)
                return entry.text
            }.joined(separator: ",") + "]")
        }
        return json
    }
}

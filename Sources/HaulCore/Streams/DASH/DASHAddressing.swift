/// How a representation's segments are addressed (ISO/IEC 23009-1 §5.3.9), with what it inherits from its
/// AdaptationSet and Period: the nearest level's attributes win.
enum DASHAddressing {
    /// `SegmentTemplate`: links made from a template, numbered by `duration` or listed by a `SegmentTimeline`.
    case template([String: String], timeline: XMLNode?)
    /// `SegmentList`: each segment's link (or byte range), after an `Initialization`.
    case list([String: String], initialization: XMLNode?, urls: [XMLNode])
    /// `SegmentBase`: one file whose segments a `sidx` box at `index` indexes, after the init section at `initialization`.
    case indexedFile(index: Range<Int64>, initialization: Range<Int64>?)
    /// `SegmentBase` without an `indexRange`: nothing says where its segments are.
    case unindexedFile
    /// A `BaseURL` alone: the whole file is the one segment.
    case wholeFile
    /// A `SegmentBase` whose `indexRange` or `Initialization` range cannot be read (out of range, reversed).
    case unreadable(PlaylistError)

    init(representation: XMLNode, set: XMLNode, period: XMLNode) {
        let levels = [period, set, representation]
        let templates = levels.compactMap { $0.first("SegmentTemplate") }
        if !templates.isEmpty {
            var attributes: [String: String] = [:]
            var timeline: XMLNode?
            for template in templates {
                attributes.merge(template.attributes) { $1 }
                if let list = template.first("SegmentTimeline") { timeline = list }
            }
            self = .template(attributes, timeline: timeline)
        } else if let list = levels.reversed().lazy.compactMap({ $0.first("SegmentList") }).first {
            self = .list(list.attributes, initialization: list.first("Initialization"), urls: list.all("SegmentURL"))
        } else if let base = levels.reversed().lazy.compactMap({ $0.first("SegmentBase") }).first {
            // A range written but unreadable is named: taken for none, it was "without an indexRange", or the
            // video was fetched without its init section.
            do throws(PlaylistError) {
                let index = try base["indexRange"].map { text throws(PlaylistError) in try DASHExpansion.range(text, "indexRange") }
                let initialization = try base.first("Initialization")?["range"].map { text throws(PlaylistError) in
                    try DASHExpansion.range(text, "Initialization range")
                }
                self = index.map { .indexedFile(index: $0, initialization: initialization) } ?? .unindexedFile
            } catch {
                self = .unreadable(error)
            }
        } else {
            self = .wholeFile
        }
    }
}

/// The file a stream is saved as (DESIGN §9): the name asked for with `-o`, else the playlist link's last path
/// segment with its extension replaced by the container's (`index.m3u8` → `index.ts`, `.mp4` for fMP4).
public enum StreamFileName {
    /// `stem` (a page's title) names it instead of the link when no name was asked for.
    public static func choose(requested: String?, url: String, container: String, stem: String? = nil) -> String {
        if let requested { return requested }
        if let stem, let name = SafeFileName.sanitize(stem + "." + container) { return name }
        let base = SafeFileName.fromURL(url) ?? "stream"
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        return (stem.isEmpty ? "stream" : stem) + "." + container
    }
}

extension StreamFileName {
    /// The name whose part file holds a separate audio rendition of the stream saved as `fileName`
    /// (`index.ts` → `index.ts.audio`, whose part file is `index.ts.audio.part`).
    public static func audioPart(of fileName: String) -> String { fileName + ".audio" }

    /// The audio rendition saved beside the video when ffmpeg cannot mux them: `index.audio.ts`, `index.audio.m4a`.
    public static func audioName(of fileName: String, container: String) -> String {
        stem(of: fileName) + ".audio." + (container == "mp4" ? "m4a" : container)
    }

    /// A subtitle rendition saved beside the video: `index.eng.vtt`. The language is the rendition's `LANGUAGE` (else
    /// its `NAME`) kept to letters, digits, `-` and `_` (at most 35), so that no playlist makes it a path.
    public static func subtitleName(of fileName: String, language: String) -> String {
        let kept = String(language.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.prefix(35))
        return SafeFileName.capped(stem(of: fileName) + "." + (kept.isEmpty ? "sub" : kept) + ".vtt")
    }

    /// The finished stream remuxed into `container` (`index.ts` → `index.mp4`).
    public static func remuxed(_ fileName: String, container: String) -> String { stem(of: fileName) + "." + container }

    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

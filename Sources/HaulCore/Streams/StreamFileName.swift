/// The file a stream is saved as (DESIGN §9): the name asked for with `-o`, else the playlist link's last path
/// segment with its extension replaced by the container's (`index.m3u8` → `index.ts`, `.mp4` for fMP4).
public enum StreamFileName {
    public static func choose(requested: String?, url: String, container: String) -> String {
        if let requested { return requested }
        let base = SafeFileName.fromURL(url) ?? "stream"
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        return (stem.isEmpty ? "stream" : stem) + "." + container
    }
}

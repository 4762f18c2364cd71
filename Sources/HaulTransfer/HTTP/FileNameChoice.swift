import HaulCore

/// Which name a new download gets (DESIGN §5): `-o`/`out=`, else `Content-Disposition` (`filename*`
/// first), else the URL's last path segment as given, then after redirects; always sanitised.
enum FileNameChoice {
    static func choose(
        requested: String?, contentDisposition: String?, url: String, effectiveURL: () -> String?
    ) -> String {
        if let name = requested.flatMap(SafeFileName.sanitize) { return name }
        if let contentDisposition, let name = ContentDisposition.fileName(from: contentDisposition).flatMap(SafeFileName.sanitize) {
            return name
        }
        if let name = SafeFileName.fromURL(url) { return name }
        if let effective = effectiveURL(), let name = SafeFileName.fromURL(effective) { return name }
        return SafeFileName.fallback(for: url)
    }
}

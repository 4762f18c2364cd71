import Foundation

/// `--referer '*'` (aria2's `--referer=*`): the Referer of each task is its own link.
extension HeaderRule {
    /// `headers` with a `Referer: *` line made the Referer of `url`: without credentials and fragment, which a
    /// Referer never carries (RFC 9110 §10.1.3).
    static func resolvingReferer(_ headers: [String], url: String) -> [String] {
        headers.map { header in
            guard let colon = header.firstIndex(of: ":"),
                  header[..<colon].lowercased() == "referer",
                  header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces) == "*"
            else { return header }
            return "Referer: " + URLValidation.redacted(url).prefix { $0 != "#" }
        }
    }
}

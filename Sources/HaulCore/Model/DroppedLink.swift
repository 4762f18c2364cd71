/// A link of a task (its main link or a mirror) that a transfer stopped using, and why (DESIGN §8).
///
/// The link is kept without credentials: it is shown in the details pane, `haul list --json` and RPC answers.
public struct DroppedLink: Sendable, Equatable, Codable {
    /// The link, credentials removed (`URLValidation.redacted`).
    public var url: String
    /// Why it was dropped: it disagreed with the file (another length, no ranges, changed validators) or kept failing.
    public var reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }
}

extension DownloadTask {
    /// Every link of the task, main link first, then its mirrors.
    public var links: [String] { [url] + mirrors }

    /// Why `link` was dropped, if it was (compared without credentials).
    public func dropReason(of link: String) -> String? {
        let shown = URLValidation.redacted(link)
        return droppedLinks.last { $0.url == shown }?.reason
    }

    /// Records that `dropped` was dropped; a later drop of the same link replaces the earlier one.
    public mutating func record(_ dropped: DroppedLink) {
        droppedLinks.removeAll { $0.url == dropped.url }
        droppedLinks.append(dropped)
    }
}

import Foundation

/// Which validator of a later answer contradicts the recorded one (DESIGN §8): the rule every check of "the same
/// file" uses, on one link or across links.
///
/// Last-Modified is compared wherever both carry one. An ETag is the server software's own wording (nginx writes
/// the time and size in hex, Apache adds the inode, others hash), so the same file on another server carries
/// another one: ETags are compared only when both answers came from the same host, or from the same server
/// software (the `Server` header's product, without its version).
extension RemoteValidators {
    /// A validator that differs: which one, the recorded value and the later answer's.
    public struct Mismatch: Sendable, Equatable {
        public enum Validator: String, Sendable, Equatable {
            case etag = "ETag"
            case lastModified = "Last-Modified"

            /// Its name in a sentence: "the ETag", "Last-Modified".
            public var subject: String { self == .etag ? "the ETag" : rawValue }
        }

        public var validator: Validator
        /// The value the kept bytes came with.
        public var recorded: String
        /// The later answer's value.
        public var offered: String

        public init(validator: Validator, recorded: String, offered: String) {
            self.validator = validator
            self.recorded = recorded
            self.offered = offered
        }
    }

    /// The first validator of `later` that contradicts these, if any (the ETag before Last-Modified).
    public func mismatch(with later: RemoteValidators) -> Mismatch? {
        if let etag, let now = later.etag, now != etag, etagsComparable(with: later) {
            return Mismatch(validator: .etag, recorded: etag, offered: now)
        }
        if let lastModified, let now = later.lastModified, now != lastModified {
            return Mismatch(validator: .lastModified, recorded: lastModified, offered: now)
        }
        return nil
    }

    /// Whether an ETag of these validators and one of `other` say anything about each other: the same host, or
    /// the same server software. Validators whose host or software is unknown (recorded before either was) are
    /// compared, as they always were.
    public func etagsComparable(with other: RemoteValidators) -> Bool {
        if let host, let otherHost = other.host, host == otherHost { return true }
        if let software = serverSoftware, let otherSoftware = other.serverSoftware { return software == otherSoftware }
        return host == nil || other.host == nil
    }

    /// The product of the `Server` header, lower case, without version or comment (`Apache/2.4.62 (Debian)`:
    /// "apache"); nil when there is none.
    public var serverSoftware: String? {
        guard let server else { return nil }
        let product = server.trimmingCharacters(in: .whitespaces).prefix { $0 != "/" && $0 != " " && $0 != "(" }
        return product.isEmpty ? nil : product.lowercased()
    }
}

/// Every failure a user can see on a task, each with a message that says what happened and what to do.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a URL we can fetch.
    case invalidURL(String)
    /// A scheme other than http or https (also reached through a redirect).
    case unsupportedScheme(String)
    /// A link found in a playlist from a public address leads to this machine or a private network (`AddressReach`).
    case privateNetwork(address: String, host: String)
    /// The server answered with an error status (after redirects).
    case httpStatus(code: Int, reason: String?, host: String, retryAfter: Double?)
    /// The server answered 401 to a request that carried a login (`login` says whose), or `--netrc-file` had none
    /// for its host.
    case loginRefused(host: String, reason: String?, login: LoginTried)
    /// The connection failed: refused, reset, DNS, TLS handshake, cut short. `code` is curl's error number.
    case network(code: Int, message: String, host: String)
    /// The proxy (from `http_proxy`, `https_proxy` or `ALL_PROXY`) refused to open the tunnel to the server;
    /// `message` is libcurl's (`CONNECT tunnel failed, response 407`).
    case proxyRefused(message: String)
    /// No bytes arrived for this many seconds.
    case stalled(seconds: Int, host: String)
    /// TLS certificate or handshake trouble; verification stays on.
    case tls(message: String, host: String)
    /// More than the redirect limit.
    case tooManyRedirects(host: String)
    /// The filesystem is full (ENOSPC or EDQUOT) while writing the part file.
    case diskFull(path: String)
    /// Free space is below what the rest of the file needs plus the reserve.
    case lowDiskSpace(path: String, freeBytes: Int64, neededBytes: Int64, reserveBytes: Int64)
    /// The part file lost its last link while downloading (deleted, or its directory removed).
    case partFileRemoved(path: String)
    /// The download directory is on a file system mounted read-only (`statvfs`'s ST_RDONLY, or EROFS from a call).
    case readOnlyFileSystem(path: String)
    /// A system call on a file failed.
    case fileSystem(call: String, path: String, errno: Int32, message: String)
    /// The server answered a range request of an extra connection with the whole file: it does not
    /// serve ranges to several connections, so the download goes on over one.
    case rangesIgnored(host: String)
    /// The file on the server is not the one the kept bytes came from (its length or a validator changed, or a
    /// range inside it is gone): the kept bytes are dropped and the download starts over.
    case remoteFileChanged(String)
    /// The body ran past the length the server announced.
    case bodyPastLength(announced: Int64)
    /// A 206 whose `Content-Range` is missing, unreadable or not the range that was asked for.
    case badContentRange(String)
    /// A header states a size past `StatedSize.limit` (`header`, its value as sent): no file is that large, the
    /// server is lying or broken.
    case implausibleSize(header: String, value: String, host: String)
    /// The answer is not usable HTTP, or contradicts itself (the connection ended without a head, a body came
    /// before it, a full answer under the same strong ETag has another length).
    case invalidResponse(host: String, detail: String)
    /// The transfer's own bookkeeping disagrees with itself: a defect in haul, retried like a network error.
    case inconsistentTransfer(String)
    /// A replaced link serves a file of another length (`offered`, nil when it did not say) than the one the
    /// kept bytes belong to: they are kept, and nothing is spliced.
    case linkServesAnotherFile(kept: Int64?, offered: Int64?)
    /// A replaced link's validator differs from the one the kept bytes came with (which one, both values): the
    /// user must say whether it is the same file.
    case linkDisagrees(RemoteValidators.Mismatch)
    /// A replaced link answers a range with the whole file: the kept bytes cannot be continued from it.
    case linkIgnoresRanges
    /// The finished file does not have the announced size.
    case sizeMismatch(expected: Int64, actual: Int64)
    /// The finished file's digest is not the one the user gave.
    case checksumMismatch(expected: String, actual: String)
    /// A request option the task was added with cannot be used now (its cookies file went away); the reason.
    case unusableOption(String)
    /// A stream's playlist cannot be downloaded (DESIGN §9): the parser's reason with its line.
    case playlist(PlaylistError)
    /// A part of a stream failed (`what`: "segment 12 (line 40)", "key for segment 3"): the failure.
    indirect case streamPart(String, DownloadError)
    /// A stream whose segments are byte ranges of one file, from a server that answers a range with the whole file.
    case streamRangesIgnored(host: String)
    /// A stream segment's bytes do not decrypt with its key (`what` names the segment).
    case undecryptable(String)
    /// A stream that cannot become the file asked for (`StreamOutput`): refused before a byte is written.
    case streamRefused(StreamOutput.Refusal)
    /// The link answers a web page, and yt-dlp is asked what video it holds (DESIGN §11): the task waits for it.
    case webPage
    /// yt-dlp gave no video haul can fetch for the page: why (its `ERROR:` line, a timeout, an unusable answer).
    case pageExtraction(String)

    /// Whether trying again later can help (and so counts against `--retries`).
    public var isTransient: Bool {
        switch self {
        case .network, .stalled, .rangesIgnored, .remoteFileChanged, .bodyPastLength, .badContentRange, .invalidResponse,
             .inconsistentTransfer:
            return true
        case let .httpStatus(code, _, _, _): return code == 408 || code == 429 || (500...599).contains(code)
        case .sizeMismatch: return true
        case let .streamPart(_, error): return error.isTransient
        case .playlist, .undecryptable, .streamRangesIgnored, .implausibleSize, .streamRefused, .webPage, .pageExtraction:
            return false
        case .invalidURL, .unsupportedScheme, .privateNetwork, .tls, .tooManyRedirects, .diskFull, .lowDiskSpace, .fileSystem,
             .readOnlyFileSystem,
             .checksumMismatch, .partFileRemoved, .proxyRefused, .linkServesAnotherFile, .linkDisagrees, .linkIgnoresRanges,
             .unusableOption, .loginRefused:
            return false
        }
    }

    /// Whether the task should pause (keeping its bytes) rather than fail: the user must make room first.
    public var pausesTask: Bool {
        switch self {
        case .diskFull, .lowDiskSpace, .partFileRemoved: return true
        default: return false
        }
    }

    /// Whether the server said it is busy (503 Service Unavailable, 429 Too Many Requests): asking again
    /// later, or on fewer connections, helps; the link is fine.
    public var isBusyRefusal: Bool {
        if case let .httpStatus(code, _, _, _) = self { return code == 503 || code == 429 }
        return false
    }

    /// Seconds the server asked us to wait (`Retry-After`), if any.
    public var retryAfter: Double? {
        if case let .httpStatus(_, _, _, after) = self { return after }
        if case let .streamPart(_, error) = self { return error.retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case let .invalidURL(text):
            return "'\(URLValidation.redacted(text))' is not a valid http(s) URL — check it and add it again"
        case let .unsupportedScheme(scheme):
            return "'\(scheme)' URLs are not downloaded; only http and https are allowed"
        case let .privateNetwork(address, host):
            return "\(host) is at \(address), on this machine or a private network, and the playlist came from a public"
                + " address: refused, as browsers refuse it (download the playlist from a local address to allow it)"
        case let .httpStatus(code, reason, host, _):
            let text = reason.map { " \($0)" } ?? ""
            let advice = switch code {
            case 401: " — the server wants a login: user:password@ in the link, or --netrc-file"
            case 407: " — the proxy wants a login: user:password@ in the proxy's URL (--all-proxy)"
            default: " — check the URL"
            }
            return "HTTP \(code)\(text) from \(host)" + (isTransient ? "" : advice)
        case let .loginRefused(host, reason, login):
            let text = reason.map { " \($0)" } ?? ""
            let advice = switch login {
            case .link: "the server refused the login in the link — check its user:password@"
            case .netrc: "the server refused the login --netrc-file gives for \(host) — check that entry"
            case .netrcHasNone:
                "the server wants a login, and --netrc-file has no machine entry for \(host) — add one "
                    + "(machine \(host) login … password …)"
            case .netrcWithheld:
                "the server wants a login, and --netrc-file's login for \(host) goes only to the link's own port and scheme, "
                    + "not to the other one a redirect led to — give this address as the link"
            }
            return "HTTP 401\(text) from \(host) — " + advice
        case let .unusableOption(reason):
            return reason
        case let .playlist(error):
            return error.description
        case let .streamPart(what, error):
            return "\(what): \(error)"
        case let .streamRangesIgnored(host):
            return "\(host) answers a byte range with the whole file, and this stream's segments are byte ranges of one file "
                + "(EXT-X-BYTERANGE) — the server must answer ranges"
        case let .undecryptable(what):
            return "\(what): does not decrypt with its AES-128 key (bad padding: a wrong key or IV, or a cut segment)"
        case let .streamRefused(refusal):
            return refusal.description
        case .webPage:
            return "the link is a web page: asking yt-dlp what video it holds"
        case let .pageExtraction(reason):
            return "no video from the page: \(reason)"
        case let .proxyRefused(message):
            return "the proxy refused the tunnel (\(message)) — check the proxy's address and credentials "
                + "(http_proxy, https_proxy, ALL_PROXY)"
        case let .network(code, message, host):
            return "network error talking to \(host): \(message) (curl \(code))"
        case let .stalled(seconds, host):
            return "no data from \(host) for \(seconds) s"
        case let .tls(message, host):
            return "TLS error with \(host): \(message) — verification stays on; pass --ca-cert FILE for a private CA"
        case let .tooManyRedirects(host):
            return "too many redirects starting at \(host)"
        case let .diskFull(path):
            return "disk full writing \(path) — free some space, then resume"
        case let .lowDiskSpace(path, free, needed, reserve):
            let lower = reserve > 0 ? " (or lower --disk-reserve)" : ""
            guard needed > 0 else {
                return "only \(ByteCountFormat.size(free)) free at \(path), below the \(ByteCountFormat.size(reserve)) "
                    + "reserve — free some space\(lower), then resume"
            }
            let keep = reserve > 0 ? " and keep the \(ByteCountFormat.size(reserve)) reserve" : ""
            return "the rest of the file needs \(ByteCountFormat.size(needed))\(keep), but only "
                + "\(ByteCountFormat.size(free)) is free at \(path) — free some space\(lower), then resume"
        case let .partFileRemoved(path):
            return "\(path) was deleted while downloading (or its folder was removed) — resume to start it again"
        case let .readOnlyFileSystem(path):
            return "\(path) is on a read-only file system (errno 30, EROFS) — choose another directory with -d, "
                + "or mount it read-write, then resume"
        case let .fileSystem(call, path, errno, message):
            return "\(call) failed on \(path): \(message) (errno \(errno))"
        case let .rangesIgnored(host):
            return "\(host) ignores range requests on extra connections — continuing on one connection"
        case let .remoteFileChanged(detail):
            return "the remote file changed (\(detail)) — starting over"
        case let .bodyPastLength(announced):
            return "the server sent more than the \(announced) bytes it announced"
        case let .badContentRange(detail):
            return "the server's partial answer does not match the request: \(detail)"
        case let .implausibleSize(header, value, host):
            return "\(host) states \(header): \(value.escapingAllControlCharacters), more than the "
                + "\(ByteCountFormat.size(StatedSize.limit)) haul accepts for one file — the server is broken or lying; "
                + "try another link"
        case let .invalidResponse(host, detail):
            return "the answer from \(host) is not usable: \(detail)"
        case let .linkServesAnotherFile(kept, offered):
            let keptText = kept.map { "a \($0)-byte file" } ?? "a file of unknown length"
            let offeredText = offered.map { "a \($0)-byte file" } ?? "a file of unstated length"
            return "the new link serves \(offeredText), the kept bytes are of \(keptText) — the bytes are kept; "
                + "give the link of the same file, or set the link again with --restart"
        case let .linkDisagrees(mismatch):
            return "the new link's \(mismatch.validator.rawValue) is \(mismatch.offered.escapingAllControlCharacters), the kept "
                + "bytes came with \(mismatch.recorded.escapingAllControlCharacters) — the bytes are kept; set the link again "
                + "with --keep-bytes if it is the same file, or with --restart"
        case .linkIgnoresRanges:
            return "the new link answers with the whole file, not the missing part — the bytes are kept; set the "
                + "link again with --restart to fetch it from the start"
        case let .inconsistentTransfer(detail):
            return "the transfer lost track of its bytes (\(detail)) — it will be retried; please report this"
        case let .sizeMismatch(expected, actual):
            return "size mismatch: expected \(expected) bytes, got \(actual)"
        case let .checksumMismatch(expected, actual):
            return "checksum mismatch: expected sha-256 \(expected), got \(actual) — the file was not kept"
        }
    }

    /// Whose login a 401 refused (`loginRefused`).
    public enum LoginTried: Sendable, Equatable {
        /// `user:password@` in the link.
        case link
        /// The `--netrc-file` entry for the host.
        case netrc
        /// `--netrc-file` was given and has no entry for the host: no login went.
        case netrcHasNone
        /// `--netrc-file` has the login for the link's host, kept from another port or scheme of it that a
        /// redirect led to (`HopLogin`): no login went.
        case netrcWithheld
    }

    /// A 401 from `host` told with the login it refused (`HopLogin.refused`); any other error as it is.
    public func refusing(_ login: LoginTried?, host: String) -> DownloadError {
        guard let login, case let .httpStatus(401, reason, _, _) = self else { return self }
        return .loginRefused(host: host, reason: reason, login: login)
    }

    /// The HTTP status the server answered, for a failure that is one.
    public var httpCode: Int? {
        switch self {
        case let .httpStatus(code, _, _, _): code
        case .loginRefused: 401
        default: nil
        }
    }
}

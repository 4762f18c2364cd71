import CCurl
import Glibc

/// One-time process-wide libcurl setup.
enum CurlGlobal {
    /// Runs `curl_global_init` once and ignores SIGPIPE (with NOSIGNAL set, libcurl no longer does it for us).
    static let initialized: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()
}

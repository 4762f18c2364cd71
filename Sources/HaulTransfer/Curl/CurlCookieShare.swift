import CCurl

/// Owns one libcurl share handle (`CURLSH *`) that holds a cookie jar: the connections of one download
/// attach to it, so a cookie one answer sets goes with every later request of that download.
///
/// Confined to the transfer thread. Every easy handle that uses it keeps it alive (`CurlEasy.cookies`) and
/// leaves it before letting go, so it is never cleaned up while in use. No lock callbacks: one thread uses it.
final class CurlCookieShare {
    let handle: UnsafeMutableRawPointer

    init() {
        precondition(CurlGlobal.initialized, "libcurl could not be initialised")
        guard let handle = curl_share_init() else { fatalError("curl_share_init returned NULL (out of memory)") }
        self.handle = handle
        _ = CCurl_share_setopt_long(handle, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
    }

    deinit {
        curl_share_cleanup(handle)
    }
}

import CCurl

/// Owns one libcurl share handle (`CURLSH *`) that holds a cookie jar: the connections of one download
/// attach to it, so a cookie one answer sets goes with every later request of that download.
///
/// The jar is read and rewritten through an easy handle of its own that never transfers anything, so it can
/// be done whether or not a connection is open.
///
/// Confined to the transfer thread. Every easy handle that uses it keeps it alive (`CurlEasy.cookies`) and
/// leaves it before letting go, so it is never cleaned up while in use. No lock callbacks: one thread uses it.
final class CurlCookieShare {
    let handle: UnsafeMutableRawPointer
    /// Attached to the share only to reach its jar.
    private let jarHandle: UnsafeMutableRawPointer
    /// `Set-Cookie` headers the jar's connections received so far: an upper bound on how much it grew.
    private(set) var setCookieHeaders = 0

    init() {
        precondition(CurlGlobal.initialized, "libcurl could not be initialised")
        guard let handle = curl_share_init() else { fatalError("curl_share_init returned NULL (out of memory)") }
        guard let jarHandle = curl_easy_init() else { fatalError("curl_easy_init returned NULL (out of memory)") }
        self.handle = handle
        self.jarHandle = jarHandle
        _ = CCurl_share_setopt_long(handle, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        _ = CCurl_easy_setopt_pointer(jarHandle, CURLOPT_SHARE, handle)
    }

    deinit {
        _ = CCurl_easy_setopt_pointer(jarHandle, CURLOPT_SHARE, nil)
        curl_easy_cleanup(jarHandle)
        curl_share_cleanup(handle)
    }

    /// Every cookie in the jar, as Netscape lines.
    var lines: [String] {
        var value: UnsafeMutableRawPointer?
        guard CCurl_easy_getinfo_pointer(jarHandle, CURLINFO_COOKIELIST, &value) == CURLE_OK, let value else { return [] }
        let list = value.assumingMemoryBound(to: curl_slist.self)
        defer { curl_slist_free_all(list) }
        var lines: [String] = []
        var node: UnsafeMutablePointer<curl_slist>? = list
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }

    /// Empties the jar, then puts `lines` (Netscape lines, oldest first) in it.
    func replaceAll(with lines: [String]) {
        _ = CCurl_easy_setopt_string(jarHandle, CURLOPT_COOKIELIST, "ALL")
        for line in lines { _ = CCurl_easy_setopt_string(jarHandle, CURLOPT_COOKIELIST, line) }
    }

    /// Counts `line`, one header line of an answer to a connection of the jar, when it is a `Set-Cookie`.
    func noteHeaderLine(_ line: UnsafeRawBufferPointer) {
        let name = "set-cookie:".utf8
        guard line.count > name.count else { return }
        // ASCII letters compare case-insensitively with their 0x20 bit set (':' and '-' already have it).
        if zip(line, name).allSatisfy({ $0 | 0x20 == $1 }) { setCookieHeaders += 1 }
    }
}

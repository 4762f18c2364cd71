import CCurl

/// Owns one libcurl easy handle (`CURL *`); cleaned up in `deinit`.
///
/// Confined to the transfer thread: it is not Sendable and never leaves that thread.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init() {
        precondition(CurlGlobal.initialized, "libcurl could not be initialised")
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init returned NULL (out of memory)") }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(CCurl_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    /// For the `*_LARGE` options that take a `curl_off_t`.
    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(CCurl_easy_setopt_offset(handle, option, curl_off_t(value)))
    }

    /// libcurl copies string options, so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(CCurl_easy_setopt_string(handle, option, value))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(CCurl_easy_setopt_pointer(handle, option, value))
    }

    func set(_ option: CURLoption, callback: curl_write_callback) throws(CurlError) {
        try check(CCurl_easy_setopt_write_callback(handle, option, callback))
    }

    /// Replaces the extra request headers (`CURLOPT_HTTPHEADER`); the list lives as long as the handle.
    func setHeaders(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, list))
        if let headerList { curl_slist_free_all(headerList) }
        headerList = list
    }

    /// Copies the string at once: it belongs to the handle.
    func info(string info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard CCurl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A `long`-valued info, such as `CURLINFO_HTTP_CONNECTCODE`.
    func info(long info: CURLINFO) -> Int? {
        var value = 0
        guard CCurl_easy_getinfo_long(handle, info, &value) == CURLE_OK else { return nil }
        return value
    }

    /// An `curl_off_t`-valued info, such as `CURLINFO_CONNECT_TIME_T` (microseconds).
    func info(offset info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        guard CCurl_easy_getinfo_offset(handle, info, &value) == CURLE_OK else { return nil }
        return Int64(value)
    }

    /// Lets a paused transfer go on (`curl_easy_pause` with `CURLPAUSE_CONT`, which is 0).
    func resume() {
        _ = curl_easy_pause(handle, 0)
    }

    /// A pointer-valued info, such as `CURLINFO_PRIVATE`.
    static func info(pointer info: CURLINFO, of handle: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        guard CCurl_easy_getinfo_pointer(handle, info, &value) == CURLE_OK else { return nil }
        return value
    }

    private func check(_ code: CURLcode) throws(CurlError) {
        if code != CURLE_OK { throw CurlError(code) }
    }
}

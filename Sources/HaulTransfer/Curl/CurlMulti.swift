import CCurl

/// Owns the libcurl multi handle (`CURLM *`): add, remove, perform, poll, read finished transfers.
///
/// Confined to the transfer thread, except `wakeup`, which libcurl documents as callable from any thread.
final class CurlMulti {
    private let handle: UnsafeMutableRawPointer

    init() {
        precondition(CurlGlobal.initialized, "libcurl could not be initialised")
        guard let handle = curl_multi_init() else { fatalError("curl_multi_init returned NULL (out of memory)") }
        self.handle = handle
        // Both are plain longs libcurl always accepts; a failure here would be a broken libcurl.
        precondition(CCurl_multi_setopt_long(handle, CURLMOPT_MAX_TOTAL_CONNECTIONS, 64) == CURLM_OK)
        precondition(CCurl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, 16) == CURLM_OK)
    }

    deinit { curl_multi_cleanup(handle) }

    /// Connections libcurl opens to one host at most; more transfers wait inside libcurl.
    func setMaxHostConnections(_ count: Int) throws(CurlError) {
        let code = CCurl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, count)
        if code != CURLM_OK { throw CurlError(multi: code) }
    }

    /// The multi handle as other threads see it: it can only wake this one.
    var wakeup: MultiWakeup { MultiWakeup(raw: handle) }

    func add(_ easy: CurlEasy) throws(CurlError) {
        let code = curl_multi_add_handle(handle, easy.handle)
        if code != CURLM_OK { throw CurlError(multi: code) }
    }

    func remove(_ easy: CurlEasy) {
        _ = curl_multi_remove_handle(handle, easy.handle)
    }

    /// Drives every transfer as far as it can go without blocking.
    func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(handle, &running)
    }

    /// Waits for socket activity, a wakeup, or the timeout.
    func poll(timeoutMilliseconds: Int32) {
        var ready: Int32 = 0
        _ = curl_multi_poll(handle, nil, 0, timeoutMilliseconds, &ready)
    }

    /// The next finished transfer: its easy handle and how it ended.
    func nextFinished() -> (easy: CurlEasy, result: CurlResult)? {
        var left: Int32 = 0
        while let message = curl_multi_info_read(handle, &left) {
            if message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
               let easy = CurlEasy.owner(of: raw) {
                return (easy, CurlResult(code: message.pointee.data.result))
            }
        }
        return nil
    }
}

/// The multi handle as seen from other threads: it can only wake the transfer thread.
struct MultiWakeup: @unchecked Sendable {
    // Safe: the only call made through this pointer is `curl_multi_wakeup`, which libcurl allows from any
    // thread; the multi handle outlives every sender because the transfer thread cleans it up only after
    // the driver stopped accepting commands.
    let raw: UnsafeMutableRawPointer

    func wake() { _ = curl_multi_wakeup(raw) }
}

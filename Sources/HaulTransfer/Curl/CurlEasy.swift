import CCurl
import Glibc
import HaulCore

/// Owns one libcurl easy handle (`CURL *`); cleaned up in `deinit`.
///
/// Confined to the thread that made it (the transfer thread, or a `LinkProbe`'s own): it is not Sendable and
/// never leaves that thread. libcurl's callbacks
/// and `CURLINFO_PRIVATE` reach it through an unretained pointer to `self`, valid while the handle lives.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var proxyHeaderList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Who gets the header lines and body bytes. Unowned and unchecked: the receiver owns this handle and
    /// keeps itself alive until the handle has left the multi handle, so libcurl never calls back after it.
    unowned(unsafe) var receiver: (any CurlReceiver)?

    /// The cookie jar this handle uses; kept alive until the handle is cleaned up (which leaves the share).
    private(set) var cookies: CurlCookieShare?

    /// The receive buffer a new socket of this handle gets before it connects (`CurlRequest.receiveBuffer`).
    fileprivate var newSocketReceiveBuffer: Int?

    /// The peer address a `publicOnly` request was refused at, before anything was sent; nil when none was.
    fileprivate(set) var refusedAddress: String?

    /// `CURL_WRITEFUNC_PAUSE`: the body callback's answer that pauses reading.
    static let pauseReading = Int(CURL_WRITEFUNC_PAUSE)

    init() {
        precondition(CurlGlobal.initialized, "libcurl could not be initialised")
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init returned NULL (out of memory)") }
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        if let proxyHeaderList { curl_slist_free_all(proxyHeaderList) }
        errorBuffer.deallocate()
    }

    /// Sets every option for `request`, and the callbacks that feed `receiver`.
    func apply(_ request: CurlRequest) throws(CurlError) {
        try set(CURLOPT_URL, request.url)
        // Redirects are not followed here: the engine asks each hop with its own proxy and login (`RedirectHop`).
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_CONNECTTIMEOUT, request.connectTimeout)
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, request.stallTimeout)
        try set(CURLOPT_BUFFERSIZE, request.readSize)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        // A proxy's answer to CONNECT is the proxy's, not the server's: only the server's heads are parsed.
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try set(CURLOPT_USERAGENT, request.userAgent)
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)))
        if let ca = request.caCertificate {
            // The same bundle vouches for an https:// proxy.
            try set(CURLOPT_CAINFO, ca)
            try set(CURLOPT_PROXY_CAINFO, ca)
        }
        if let range = request.range { try set(CURLOPT_RANGE, range) }
        if request.http11Only { try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)) }
        if request.freshConnection { try set(CURLOPT_FRESH_CONNECT, 1) }
        if !request.headers.isEmpty { try setHeaders(request.headers) }
        if let proxy = request.proxy { try set(CURLOPT_PROXY, proxy) }
        if let noProxy = request.noProxy { try set(CURLOPT_NOPROXY, noProxy) }
        if let login = request.login {
            try set(CURLOPT_USERNAME, login.user)
            try set(CURLOPT_PASSWORD, login.password)
        }
        if let share = request.cookies { try useCookies(share, seed: request.cookieSeed) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        newSocketReceiveBuffer = request.receiveBuffer
        if request.receiveBuffer != nil {
            try check(CCurl_easy_setopt_sockopt_callback(handle, socketCallback))
            try check(CCurl_easy_setopt_pointer(handle, CURLOPT_SOCKOPTDATA, context))
        }
        if request.publicOnly {
            try check(CCurl_easy_setopt_prereq_callback(handle, publicOnlyCallback))
            try check(CCurl_easy_setopt_pointer(handle, CURLOPT_PREREQDATA, context))
        }
        try check(CCurl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback))
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        try check(CCurl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, bodyCallback))
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_PRIVATE, context))
    }

    /// Attaches the jar (and turns on the cookie engine, which a share alone does not), then puts `seed` in it.
    private func useCookies(_ share: CurlCookieShare, seed: [String]) throws(CurlError) {
        cookies = share
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_SHARE, share.handle))
        try set(CURLOPT_COOKIEFILE, "")
        for line in seed { try set(CURLOPT_COOKIELIST, line) }
    }

    /// Forgets every option set (`curl_easy_reset`), so the handle can be set up for another request (the next hop of
    /// a redirect); it keeps its live connections and caches. Only while it is not in the multi handle.
    func reset() {
        curl_easy_reset(handle)
        if let headerList { curl_slist_free_all(headerList) }
        if let proxyHeaderList { curl_slist_free_all(proxyHeaderList) }
        headerList = nil
        proxyHeaderList = nil
        errorBuffer[0] = 0
        newSocketReceiveBuffer = nil
    }

    /// libcurl's own words for the last failure (more precise than the code's text), possibly empty.
    var errorDetail: String { String(cString: errorBuffer) }

    /// The URL after redirects (the URL asked last).
    var effectiveURL: String? { info(string: CURLINFO_EFFECTIVE_URL) }

    /// Where the last answer redirects to: its `Location` resolved against the URL asked; nil when it has none.
    var redirectURL: String? { info(string: CURLINFO_REDIRECT_URL) }

    /// How long the TCP handshake took, in microseconds; 0 on a reused connection.
    var connectMicroseconds: Int64? { info(offset: CURLINFO_CONNECT_TIME_T) }

    /// The address of the peer the last request went to (the proxy's, through one), as text.
    var primaryAddress: String? { info(string: CURLINFO_PRIMARY_IP) }

    /// The status a proxy answered `CONNECT` with, 0 for none.
    var proxyConnectStatus: Int { info(long: CURLINFO_HTTP_CONNECTCODE) ?? 0 }

    /// Bounds what the kernel takes in for this connection while it is not read (`SO_RCVBUF` on its socket,
    /// which also stops the kernel from growing the buffer on its own). False when there is no socket yet
    /// or the kernel refused.
    @discardableResult
    func limitReceiveBuffer(to bytes: Int) -> Bool {
        var socket = CURL_SOCKET_BAD
        guard CCurl_easy_getinfo_socket(handle, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket != CURL_SOCKET_BAD
        else { return false }
        return Self.setReceiveBuffer(of: socket, to: bytes)
    }

    fileprivate static func setReceiveBuffer(of socket: curl_socket_t, to bytes: Int) -> Bool {
        var size = Int32(clamping: bytes)
        return setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Runs the request to its end on the calling thread (`curl_easy_perform`), outside any multi handle: for a
    /// one-off request (`LinkProbe`) on a thread of its own.
    func perform() -> CurlResult {
        CurlResult(code: curl_easy_perform(handle))
    }

    /// Lets a paused transfer go on (`curl_easy_pause` with `CURLPAUSE_CONT`, which is 0).
    func resume() {
        _ = curl_easy_pause(handle, 0)
    }

    /// The easy handle behind a raw `CURL *` of this process, through `CURLINFO_PRIVATE`.
    static func owner(of handle: UnsafeMutableRawPointer) -> CurlEasy? {
        var value: UnsafeMutableRawPointer?
        guard CCurl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &value) == CURLE_OK, let value else { return nil }
        return Unmanaged<CurlEasy>.fromOpaque(value).takeUnretainedValue()
    }

    // MARK: - Options and infos

    private func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(CCurl_easy_setopt_long(handle, option, value))
    }

    /// libcurl copies string options, so the Swift string need not outlive the call.
    private func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(CCurl_easy_setopt_string(handle, option, value))
    }

    /// Replaces the extra request headers: `Proxy-Authorization` goes to the proxy alone (`CURLOPT_PROXYHEADER`),
    /// every other one to the server alone (`CURLOPT_HTTPHEADER` with `CURLHEADER_SEPARATE`); the lists live as
    /// long as the handle.
    private func setHeaders(_ lines: [String]) throws(CurlError) {
        var server: UnsafeMutablePointer<curl_slist>?
        var proxy: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            let name = line.prefix { $0 != ":" }.lowercased()
            if name == "proxy-authorization" { proxy = curl_slist_append(proxy, line) } else { server = curl_slist_append(server, line) }
        }
        try set(CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE))
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, server))
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_PROXYHEADER, proxy))
        if let headerList { curl_slist_free_all(headerList) }
        if let proxyHeaderList { curl_slist_free_all(proxyHeaderList) }
        headerList = server
        proxyHeaderList = proxy
    }

    /// Copies the string at once: it belongs to the handle.
    private func info(string info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard CCurl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func info(long info: CURLINFO) -> Int? {
        var value = 0
        guard CCurl_easy_getinfo_long(handle, info, &value) == CURLE_OK else { return nil }
        return value
    }

    private func info(offset info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        guard CCurl_easy_getinfo_offset(handle, info, &value) == CURLE_OK else { return nil }
        return Int64(value)
    }

    private func check(_ code: CURLcode) throws(CurlError) {
        if code != CURLE_OK { throw CurlError(code) }
    }
}

/// `CURLOPT_HEADERFUNCTION`: one header line of any response.
private let headerCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let line = UnsafeRawBufferPointer(start: data, count: size * count)
    easy.cookies?.noteHeaderLine(line)
    return easy.receiver?.receiveHeaderLine(line, from: easy) ?? 0
}

/// `CURLOPT_WRITEFUNCTION`: body bytes of the final response; returning less than given aborts the transfer.
private let bodyCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    return easy.receiver?.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count), from: easy) ?? 0
}

/// `CURLOPT_SOCKOPTFUNCTION`: a new socket, before it connects, gets the receive buffer its request asked for.
/// Before the handshake, so the window the server sees never grows past it. A refusal leaves the kernel's own.
private let socketCallback: curl_sockopt_callback = { context, socket, _ in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    if let bytes = easy.newSocketReceiveBuffer { _ = CurlEasy.setReceiveBuffer(of: socket, to: bytes) }
    return Int32(CURL_SOCKOPT_OK)
}

/// `CURLOPT_PREREQFUNCTION`: on a connection made or reused, before each request (redirects too) is sent. A
/// `publicOnly` request to this machine or a private network is stopped here (`CURLE_ABORTED_BY_CALLBACK`).
private let publicOnlyCallback: curl_prereq_callback = { context, primary, _, _, _ in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let address = primary.map { String(cString: $0) } ?? ""
    guard AddressReach.allows(origin: .publicNetwork, target: AddressReach(address: address)) else {
        easy.refusedAddress = address
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    return Int32(CURL_PREREQFUNC_OK)
}

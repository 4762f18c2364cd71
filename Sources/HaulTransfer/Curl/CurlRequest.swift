import HaulCore

/// What one easy handle asks for: a plain value built by the engine and applied by `CurlEasy.apply`, so
/// no libcurl option name leaves `Curl/`.
struct CurlRequest {
    var url: String
    /// The `Range` value without its unit (`100-` or `100-199`), nil for the whole resource.
    var range: String?
    /// Extra request header lines (`Name: value`).
    var headers: [String] = []
    /// Seconds allowed for the TCP (and TLS) handshake.
    var connectTimeout = 15
    /// Seconds under one byte a second after which the transfer counts as stalled.
    var stallTimeout = 30
    /// Bytes libcurl reads at a time (`CURLOPT_BUFFERSIZE`).
    var readSize = 256 << 10
    /// Keeps to HTTP/1.1: every connection gets its own TCP window and its own server-side cap.
    var http11Only = false
    /// Opens a new TCP connection instead of an idle kept-alive one.
    var freshConnection = false
    /// The receive buffer of a new socket (`SO_RCVBUF`, set before it connects), nil for the kernel's own.
    var receiveBuffer: Int?
    /// A CA bundle to trust instead of the system's.
    var caCertificate: String?
    var userAgent = Product.userAgent
    /// The proxy: nil leaves libcurl's default (the environment's), "" goes direct.
    var proxy: String?
    /// Hosts that go direct: nil leaves the environment's `no_proxy`, "" none.
    var noProxy: String?
    /// The login for the server (from the task's `.netrc`), sent as the link's own credentials are: never to
    /// another host or port after a redirect.
    var login: NetrcFile.Login?
    /// The jar this request's cookies come from and go to, shared by the download's connections.
    var cookies: CurlCookieShare?
    /// Netscape cookie lines to put in the jar before this request (the first connection of an attempt).
    var cookieSeed: [String] = []
    /// Only a server on a public address may be asked (a link found in a playlist served from one): a connection
    /// to this machine or a private network is refused before the request is sent (`CurlEasy.refusedAddress`).
    var publicOnly = false
}

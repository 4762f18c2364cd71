/// What one easy handle asks for: a plain value built by the engine and applied by `CurlEasy.apply`, so
/// no libcurl option name leaves `Curl/`.
struct CurlRequest: Equatable {
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
    var userAgent = "haul/0.1"
}

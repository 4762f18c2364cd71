import CCurl

/// A failed libcurl call, with curl's own message text.
struct CurlError: Error, CustomStringConvertible {
    let code: Int
    let message: String

    init(_ code: CURLcode) {
        self.code = Int(code.rawValue)
        message = String(cString: curl_easy_strerror(code))
    }

    init(multi code: CURLMcode) {
        self.code = Int(code.rawValue)
        message = String(cString: curl_multi_strerror(code))
    }

    var description: String { "\(message) (curl \(code))" }
}

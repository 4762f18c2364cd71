import CCurl

/// How libcurl ended a transfer (`CURLcode`), kept opaque outside `Curl/`.
struct CurlResult: Equatable {
    let code: CURLcode

    var isOK: Bool { code == CURLE_OK }
}

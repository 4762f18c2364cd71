import CCurl
import Foundation
import HaulCore

extension DownloadError {
    /// The user-facing error for a transfer libcurl ended with `code`.
    ///
    /// - Parameters:
    ///   - detail: libcurl's error buffer (more precise than the code's text), possibly empty.
    ///   - effectiveURL: the URL after redirects, when libcurl knows it.
    ///   - responseSeen: whether a response head arrived (a timeout after it means the transfer stalled).
    ///   - proxyStatus: the status a proxy answered `CONNECT` with (`CURLINFO_HTTP_CONNECTCODE`), 0 for none.
    ///   - proxy: the proxy the request went through (credentials removed), nil for none.
    init(curl result: CurlResult, detail: String, url: String, effectiveURL: String?, host: String,
         responseSeen: Bool, stallTimeout: Int, proxyStatus: Int = 0, proxy: String? = nil) {
        let code = result.code
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if proxyStatus >= 300 {
            self = .proxyRefused(message: message)
            return
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            let effective = effectiveURL ?? url
            let scheme = URLComponents(string: effective)?.scheme?.lowercased() ?? effective
            // On an http(s) URL this means the answer was not HTTP at all (a garbage status line).
            guard scheme == "http" || scheme == "https" else { self = .unsupportedScheme(scheme); return }
            self = .invalidResponse(host: host, detail: "not valid HTTP (\(message))")
        case CURLE_URL_MALFORMAT:
            self = .invalidURL(URLValidation.redacted(url))
        case CURLE_PROXY:
            self = .proxyRefused(message: message)
        case CURLE_COULDNT_RESOLVE_PROXY:
            self = .network(code: Int(code.rawValue), message: message, host: "the proxy \(proxy ?? "of the environment")")
        case CURLE_COULDNT_CONNECT where proxy != nil:
            // Through a proxy, the connection that failed is the one to the proxy.
            self = .network(code: Int(code.rawValue), message: message, host: "the proxy \(proxy ?? "")")
        case CURLE_OUT_OF_MEMORY where responseSeen:
            // libcurl (7.88) ends a transfer whose header line is over its 100 KiB so: the server's answer, not memory.
            self = .invalidResponse(host: host, detail: "a header line longer than libcurl takes (\(message))")
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects(host: host)
        case CURLE_OPERATION_TIMEDOUT where responseSeen:
            self = .stalled(seconds: stallTimeout, host: host)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            self = .tls(message: message, host: host)
        default:
            self = .network(code: Int(code.rawValue), message: message, host: host)
        }
    }

    /// A libcurl call that failed while setting a transfer up.
    init(setup error: CurlError, host: String) {
        self = .network(code: error.code, message: error.message, host: host)
    }
}

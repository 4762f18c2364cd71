import HaulCore
import Testing

@Suite struct RedirectCredentialsTests {
    let headers = ["Authorization: token abc", "cookie: a=1", "Proxy-Authorization: Basic eA==", "Referer: https://x/", "X-Trace: 1"]

    @Test func credentialsStayWithTheOriginOnly() {
        let original = "http://127.0.0.1:8000/file"
        #expect(RedirectCredentials.headers(headers, original: original, target: "http://127.0.0.1:8000/elsewhere") == headers)
        #expect(RedirectCredentials.headers(headers, original: original, target: "HTTP://127.0.0.1:8000/x") == headers)
        for target in ["http://127.0.0.1:9000/file", "https://127.0.0.1:8000/file", "http://localhost:8000/file",
                       "http://s3.example/file?X-Amz-Signature=1", "not a url"] {
            #expect(RedirectCredentials.headers(headers, original: original, target: target) == ["Referer: https://x/", "X-Trace: 1"],
                    "\(target)")
        }
    }

    @Test func defaultPortsCount() {
        #expect(RedirectCredentials.sameOrigin("http://a.example/x", "http://a.example:80/y"))
        #expect(RedirectCredentials.sameOrigin("https://a.example/x", "https://A.example:443/y"))
        #expect(!RedirectCredentials.sameOrigin("http://a.example/x", "http://a.example:443/y"))
    }
}

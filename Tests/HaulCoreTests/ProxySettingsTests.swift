import HaulCore
import Testing

/// The proxy rules: curl's reading of the environment, the proxy URL rule, and options over the environment.
struct ProxySettingsTests {
    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        let settings = try ProxySettings.fromEnvironment([
            "HTTP_PROXY": "http://ignored:1", "https_proxy": "socks5h://127.0.0.1:1080", "ALL_PROXY": "127.0.0.1:3128",
            "NO_PROXY": "localhost,.example.org",
        ])
        // Upper-case HTTP_PROXY is not read (a CGI server may set it from a request header): all_proxy serves.
        #expect(settings.http == "http://127.0.0.1:3128")
        #expect(settings.https == "socks5h://127.0.0.1:1080")
        #expect(settings.noProxy == "localhost,.example.org")
        #expect(settings.proxy(for: "https://example.org/a") == "socks5h://127.0.0.1:1080")
        #expect(settings.proxy(for: "http://example.org/a") == "http://127.0.0.1:3128")
    }

    @Test func noEnvironmentMeansDirect() throws {
        let settings = try ProxySettings.fromEnvironment(["PATH": "/bin", "http_proxy": ""])
        #expect(settings == ProxySettings())
        #expect(settings.proxy(for: "http://example.org/") == nil)
    }

    @Test func anOptionReplacesTheEnvironment() throws {
        let environment = try ProxySettings.fromEnvironment(["http_proxy": "http://127.0.0.1:1", "no_proxy": "a.example"])
        let all = try ProxySettings.resolve(allProxy: "socks5://u:p@127.0.0.1:9050", noProxy: nil, defaults: environment)
        #expect(all == ProxySettings(all: "socks5://u:p@127.0.0.1:9050", noProxy: "a.example"))
        let none = try ProxySettings.resolve(allProxy: "", noProxy: "", defaults: environment)
        #expect(none == ProxySettings())
        #expect(all.redacted.http == "socks5://127.0.0.1:9050")
    }

    @Test(arguments: [
        ("127.0.0.1:3128", "http://127.0.0.1:3128"),
        ("SOCKS5H://127.0.0.1:1080/", "socks5h://127.0.0.1:1080"),
        ("https://user:p%40ss@proxy.example:443", "https://user:p%40ss@proxy.example:443"),
        ("http://[::1]:8080", "http://[::1]:8080"),
    ])
    func proxyURLsAreNormalised(text: String, expected: String) throws {
        #expect(try ProxyURL.normalized(text) == expected)
    }

    @Test(arguments: ["", "http://", "http://host/path", "http://host:99999", "http://ho st:1", "http://h\n:1", "socks5://?x"])
    func malformedProxiesAreRefusedWithoutTheirCredentials(text: String) {
        #expect(throws: IntakeError.self) { try ProxyURL.normalized(text) }
        let secret = (try? ProxyURL.normalized("http://alice:hunter2@" + text.dropFirst(7))) == nil
        if secret {
            do {
                _ = try ProxyURL.normalized("http://alice:hunter2@ho st:1")
            } catch {
                #expect(!error.description.contains("hunter2"))
            }
        }
    }

    @Test(arguments: [
        ("http://puser:CfgPW9@127.0.0.1:3128", "http://127.0.0.1:3128"),
        ("puser:CfgPW9@127.0.0.1:3128", "127.0.0.1:3128"),
        ("socks5h://127.0.0.1:1080", "socks5h://127.0.0.1:1080"),
        ("127.0.0.1:3128", "127.0.0.1:3128"),
    ])
    func proxyCredentialsAreRemovedForDisplayAlsoInTheBareForm(text: String, expected: String) {
        #expect(ProxyURL.redacted(text) == expected)
    }

    @Test func aBareProxyRefusedIsNamedWithoutItsPassword() {
        #expect(throws: IntakeError.invalidProxy("127.0.0.1:3128/x")) { try ProxyURL.normalized("puser:CfgPW9@127.0.0.1:3128/x") }
    }

    @Test func anUnknownSchemeIsNamed() {
        do {
            _ = try ProxyURL.normalized("ftp://u:secret@127.0.0.1:21")
            Issue.record("ftp accepted")
        } catch {
            #expect(error == .unsupportedProxyScheme("ftp", "ftp://127.0.0.1:21"))
            #expect(error.description.contains("'ftp'") && !error.description.contains("secret"))
        }
    }

    @Test func aBadEnvironmentVariableIsNamed() {
        do {
            _ = try ProxySettings.fromEnvironment(["https_proxy": "gopher://x"])
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("https_proxy in the environment: "))
        }
    }

    @Test func noProxyListsAreChecked() throws {
        #expect(try ProxyURL.checkedNoProxy(" localhost, .example.org ,127.0.0.1,::1,*") == "localhost,.example.org,127.0.0.1,::1,*")
        #expect(throws: IntakeError.invalidNoProxy("a b")) { try ProxyURL.checkedNoProxy("a b") }
        #expect(throws: IntakeError.invalidNoProxy(",,")) { try ProxyURL.checkedNoProxy(",,") }
    }
}

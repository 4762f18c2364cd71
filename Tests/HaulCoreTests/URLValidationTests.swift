import Testing
@testable import HaulCore

@Suite struct URLValidationTests {
    @Test(arguments: [
        ("https://example.org/file.iso", "https://example.org/file.iso"),
        ("  http://example.org/a.bin\n", "http://example.org/a.bin"),
        ("HTTPS://Example.org/x", "https://Example.org/x"),
        ("http://127.0.0.1:8080/a?b=1#frag", "http://127.0.0.1:8080/a?b=1#frag"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("https://user:secret@example.org/private.zip", "https://user:secret@example.org/private.zip"),
        ("https://example.org", "https://example.org"),
        ("https://example.org/%E9%9B%BB%E5%BD%B1.mp4", "https://example.org/%E9%9B%BB%E5%BD%B1.mp4"),
        // Text the browser shows undecoded is percent-encoded to be fetched.
        ("https://example.org/電影.mp4", "https://example.org/%E9%9B%BB%E5%BD%B1.mp4"),
        ("https://例え.jp/a", "https://xn--r8jz45g.jp/a"),
        // A raw space is sent as `%20`, as wget and aria2c send it.
        ("http://example.org/a b.pdf", "http://example.org/a%20b.pdf"),
        ("http://example.org/my file?q=a b#c d", "http://example.org/my%20file?q=a%20b#c%20d"),
        (" http://user:p@example.org/a b ", "http://user:p@example.org/a%20b"),
    ])
    func accepts(text: String, expected: String) throws {
        #expect(try URLValidation.validate(text) == expected)
    }

    @Test(arguments: [
        ("ftp://example.org/a", "ftp"),
        ("file:///etc/passwd", "file"),
        ("javascript:alert(1)", "javascript"),
        ("JavaScript:alert(1)", "javascript"),
        ("data:text/plain,hello", "data"),
        ("gopher://example.org/", "gopher"),
        ("mailto:a@example.org", "mailto"),
    ])
    func refusesOtherSchemes(text: String, scheme: String) {
        #expect(throws: DownloadError.unsupportedScheme(scheme)) { try URLValidation.validate(text) }
    }

    @Test(arguments: [
        "",
        "   ",
        "example.org/file.iso",          // no scheme
        "localhost:8080/file",            // a host and port, not a scheme
        "http://",
        "http:///path",                   // no host
        "http://:80/",
        "http://user@/x",
        "http:example.org",               // no `//`
        "http://exa mple.org/",
        "http://example.org/a\tb",
        "http://example.org/\u{1B}[31m",
        "http://example.org:99999/",
        "http://example.org:0/",
        "://example.org",
        "1http://example.org",
    ])
    func refusesInvalid(text: String) {
        #expect(throws: DownloadError.self) { try URLValidation.validate(text) }
        do {
            _ = try URLValidation.validate(text)
        } catch {
            guard case .invalidURL = error else {
                Issue.record("expected invalidURL for \(text), got \(error)")
                return
            }
        }
    }

    @Test func invalidURLMessageDoesNotLeakThePassword() {
        do {
            _ = try URLValidation.validate("http://me:hunter2@example.org/a\tb")
            Issue.record("accepted a URL with a tab")
        } catch {
            #expect(error == .invalidURL("http://example.org/a\tb"))
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test(arguments: ["http://user:pa#ss@host/x", "http://user:p?ss@host/", "https://u:pw?x@[::1/", "http://user:p/ss@host/x"])
    func aURLThatDoesNotParseIsQuotedWithoutItsPassword(text: String) {
        do {
            _ = try URLValidation.validate(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(!error.description.contains("ss@") && !error.description.contains("pw") && !error.description.contains("user"),
                    "\(error.description)")
            #expect(error.description.hasSuffix("is not a valid http(s) URL — check it and add it again"))
        }
        #expect(!DownloadError.invalidURL(text).description.contains("user"), "the message masks what it is given")
        #expect(!IntakeError.invalidURL(text).description.contains("user"))
    }

    @Test(arguments: [
        ("https://user:secret@example.org/private.zip", "https://example.org/private.zip"),
        ("https://user@example.org/x", "https://example.org/x"),
        ("http://u:p@ss@example.org:8080/x?q=a@b", "http://example.org:8080/x?q=a@b"),
        ("https://example.org/path@with/at", "https://example.org/path@with/at"),
        ("https://example.org/x", "https://example.org/x"),
        ("https://user:secret@example.org", "https://example.org"),
        ("not a url", "not a url"),
        ("http://user:pa#ss@host/x", "http://host/x"),
        ("http://user:p?ss@host/", "http://host/"),
        ("https://user:a#pw@host", "https://host"),
        ("http://user:pa/ss@host/x?m=a@b", "http://host/x?m=a@b"),
        ("http://user:p?ss@host/x?m=a@b", "http://host/x?m=a@b"),
        ("http://host:/a@b", "http://host:/a@b"),
        ("http://host:8080?q=a@b", "http://host:8080?q=a@b"),
        ("http://[::1]?q=a@b", "http://[::1]?q=a@b"),
        ("http://host#a:b@c", "http://host#a:b@c"),
    ])
    func redactsCredentials(text: String, expected: String) {
        #expect(URLValidation.redacted(text) == expected)
    }

    @Test(arguments: [
        ("https://example.org/file.iso", "example.org"),
        ("https://user:secret@Example.ORG:8443/x", "example.org"),
        ("http://[::1]:8080/x", "[::1]"),
        ("http://127.0.0.1/x", "127.0.0.1"),
        ("http://example.org?x", "example.org"),
        ("garbage", "garbage"),
        ("http://", "http://"),
        ("http://u:p@", "http://"),
    ])
    func hostForMessages(text: String, expected: String) {
        #expect(URLValidation.host(of: text) == expected)
    }
}

import Foundation
import Testing
@testable import HaulCore

/// The hand-written ASCII path of `URLValidation.validate` agrees with `URLComponents` wherever it answers.
@Suite struct URLValidationFastPathTests {
    /// Plain RFC 3986 URLs: the fast path must take them, and give what Foundation gives.
    static let plain = [
        "http://127.0.0.1/x",
        "http://127.0.0.1:8080/a.bin",
        "HTTP://127.0.0.1/x",
        "hTTpS://Example.ORG/Path/To/File.ISO",
        "https://example.org",
        "https://example.org/",
        "http://h?q",
        "http://h#f",
        "http://h/p?q=1&r=%20#frag?x/y",
        "http://h/a/../b/./c",
        "http://h//x",
        "http://h/%41%e9%E9",
        "https://example.org/%E9%9B%BB%E5%BD%B1.mp4",
        "http://h/p:q@r;s=t,u!$&'()*+",
        "http://h?a?b/c",
        "http://[::1]/",
        "http://[::1]:8080/x",
        "http://[::FFFF:1.2.3.4]/",
        "http://[2001:db8::1]:65535/",
        "http://u@h/",
        "http://u:p@h:1/x",
        "https://user:secret@example.org/private.zip",
        "http://u%40x:p%3Aw@h/",
        "http://:p@h/",
        "http://u:@h/",
        "http://@h/",
        "http://a_b~c!$&'()*+,;=.d/",
        "http://h.",
        "http://-h-/",
        "http://999.1.1.1/",
        "http://h:65535",
        "http://h:9/x",
    ]

    /// Text the fast path leaves to Foundation: anything it would rewrite, and every invalid URL.
    static let declined = [
        " http://h/",
        "http://h/ ",
        "http://h/a b",
        "http://h/\t",
        "http://h/ä",
        "https://例え.jp/a",
        "http://xn--caf-dma.fr/",
        "http://XN--CAF-DMA.FR/",
        "http://www.Xn--zz/",
        "http://h:080/",
        "http://h:/",
        "http://[::1]:/",
        "http://h:0/",
        "http://h:65536/",
        "http://h:123456/",
        "http://h:8a/",
        "http://h:1:2/",
        "http://ex%41mple.org/",
        "http://%/",
        "http://h/%zz",
        "http://h/%2",
        "http://h/a%",
        "http://h/a[b]",
        "http://h/a|b",
        "http://h/{x}",
        "http://h/\\",
        "http://h/a^b",
        "http://h/a`b",
        "http://h/a\"b",
        "http://h/<x>",
        "http://h/#a#b",
        "http://u@p@h/",
        "http://[fe80::1%25eth0]/",
        "http://[v1.x]/",
        "http://[]/",
        "http://[::1/",
        "http://[::1]x/",
        "http://[1.2.3.4]/",
        "http://",
        "http:///path",
        "http://:80/",
        "http://user@/x",
        "http:example.org",
        "http:/h",
        "ftp://h/",
        "javascript:alert(1)",
        "localhost:8080/x",
        "httpx://h/",
        "",
    ]

    @Test(arguments: plain)
    func takesPlainURLsAndAgreesWithFoundation(text: String) throws {
        let fast = try #require(URLValidation.validatedASCII(text), "fast path declined \(text)")
        #expect(fast == (try URLValidation.validatedByFoundation(text)))
        #expect(try URLValidation.validate(text) == fast)
    }

    @Test(arguments: declined)
    func leavesTheRestToFoundation(text: String) {
        #expect(URLValidation.validatedASCII(text) == nil)
    }

    /// Every URL of both tables, and small edits of each: where the fast path answers, Foundation agrees.
    @Test func agreesWithFoundationOnVariants() {
        let edits: [(String) -> String] = [
            { $0 }, { $0 + "/" }, { $0 + "?q=%25" }, { $0 + "#" }, { $0 + "%" }, { $0 + ":" }, { $0 + "@" },
            { $0.uppercased() }, { $0.replacingOccurrences(of: "h", with: "H") }, { $0.replacingOccurrences(of: "/", with: "//") },
        ]
        var answered = 0
        for text in Self.plain + Self.declined {
            for edit in edits {
                let variant = edit(text)
                guard let fast = URLValidation.validatedASCII(variant) else { continue }
                answered += 1
                let slow = try? URLValidation.validatedByFoundation(variant)
                #expect(fast == slow, "\(variant)")
            }
        }
        #expect(answered > Self.plain.count)
    }

    /// Thousands of random strings over an alphabet of URL syntax: where the fast path answers, Foundation agrees.
    @Test func agreesWithFoundationOnRandomText() {
        let pieces = [
            "a", "Z", "0", "9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "@",
            "/", "?", "#", "%", "%41", "%e9", "%zz", "[", "]", "::1", "xn--", "XN--", " ", "|", "\\", "^", "`", "{",
            "\"", "<", "é", "80", "065", "65536", "h", "H", "[::1]",
        ]
        let starts = ["http://", "HTTPS://", "http://h", "https://u:p@h:8080/", "http://[::1]", "http:/", "hTtP://127.0.0.1"]
        var random = SplitMix64(seed: 6)
        var answered = 0
        for _ in 0..<20_000 {
            var text = starts[Int(random.next() % UInt64(starts.count))]
            for _ in 0..<Int(random.next() % 8) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            guard let fast = URLValidation.validatedASCII(text) else { continue }
            answered += 1
            let slow = try? URLValidation.validatedByFoundation(text)
            #expect(fast == slow, "\(text)")
        }
        #expect(answered > 1_000)
    }
}

/// A small deterministic generator (Vigna's SplitMix64), so a failure reproduces.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

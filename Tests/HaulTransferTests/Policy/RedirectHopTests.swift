import HaulCore
import Testing
@testable import HaulTransfer

/// haul follows redirects itself, one request per hop (`RedirectHop`): which answers lead on, and where it stops.
struct RedirectHopTests {
    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.feed(line + "\r\n") }
        return head
    }

    let found = Self.head("HTTP/1.1 302 Found", "Location: https://cdn.example/file.bin")

    @Test func aRedirectWithALocationLeadsToItsResolvedTarget() {
        for status in ["301 Moved Permanently", "302 Found", "303 See Other", "307 Temporary Redirect", "308 Permanent Redirect"] {
            let head = Self.head("HTTP/1.1 \(status)", "Location: /elsewhere")
            #expect(RedirectHop.next(head: head, target: "http://a.example/elsewhere", hops: 0, host: "a.example")
                == .follow("http://a.example/elsewhere"), "\(status)")
        }
        #expect(RedirectHop.next(head: found, target: "HTTPS://cdn.example/file.bin", hops: 9, host: "a")
            == .follow("https://cdn.example/file.bin"))
    }

    /// The target is a link haul would take from a user: a raw space goes as `%20`; what is no URL is refused as the
    /// redirect's fault (libcurl's error for it named the task's own link as malformed).
    @Test func aTargetIsCheckedAsALinkIs() {
        #expect(RedirectHop.next(head: found, target: "http://a.example/a b.bin", hops: 0, host: "a")
            == .follow("http://a.example/a%20b.bin"))
        for target in ["http://[::1/x", "http://a.example:0/x", "http://a.example/a\nb", "http://"] {
            guard case let .refused(.invalidResponse(host: "a", detail)) = RedirectHop.next(head: found, target: target, hops: 0, host: "a") else {
                Issue.record("\(target) was not refused as a redirect that is not usable")
                continue
            }
            #expect(detail.contains("Location"), "\(detail)")
        }
    }

    @Test func anAnswerThatIsNoRedirectIsTheRequests() {
        for head in [Self.head("HTTP/1.1 200 OK"), Self.head("HTTP/1.1 304 Not Modified", "Location: /x"),
                     Self.head("HTTP/1.1 302 Found"), Self.head("HTTP/1.1 401 Unauthorized", "Location: /login")] {
            #expect(RedirectHop.next(head: head, target: "http://a.example/x", hops: 0, host: "a") == .answered)
        }
    }

    @Test func theEleventhRedirectIsRefused() {
        #expect(RedirectHop.next(head: found, target: "https://cdn.example/file.bin", hops: RedirectHop.limit, host: "a.example")
            == .refused(.tooManyRedirects(host: "a.example")))
    }

    @Test func aTargetThatIsNotHTTPOrHasNoURLIsRefused() {
        #expect(RedirectHop.next(head: found, target: "ftp://files.example/f", hops: 0, host: "a") == .refused(.unsupportedScheme("ftp")))
        #expect(RedirectHop.next(head: found, target: "file:///etc/passwd", hops: 0, host: "a") == .refused(.unsupportedScheme("file")))
        guard case .refused(.invalidResponse(host: "a", _)) = RedirectHop.next(head: found, target: nil, hops: 0, host: "a") else {
            Issue.record("a redirect without a usable target was followed")
            return
        }
    }
}

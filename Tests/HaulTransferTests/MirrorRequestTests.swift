import HaulCore
import Testing
@testable import HaulTransfer

/// What a connection to a mirror sends (DESIGN §8): the task's credential headers only to the main link's
/// origin, and in `If-Range` that mirror's own validators.
struct MirrorRequestTests {
    static func request() -> TransferRequest {
        var request = TransferRequest(
            id: TaskID(1), url: "https://a.example/f.iso", directory: "/d", fileName: nil, requestedName: nil, resumeFrom: 0,
            expectedTotal: nil, validators: RemoteValidators(etag: "\"main\""), checksum: nil,
            headers: ["Authorization: Bearer s3cret", "Cookie: session=1", "X-Trace: 7"], options: TransferOptions())
        request.mirrors = ["https://b.example/f.iso", "https://a.example/mirror/f.iso"]
        return request
    }

    @Test func aMirrorOnAnotherOriginGetsNoCredentialHeaders() {
        let curl = ConnectionRequest.make(
            role: .range, request: Self.request(), url: "https://b.example/f.iso", requested: 0..<100,
            validators: RemoteValidators(etag: "\"b\""), fresh: false)
        #expect(!curl.headers.contains { $0.hasPrefix("Authorization") || $0.hasPrefix("Cookie") }, "\(curl.headers)")
        #expect(curl.headers.contains("X-Trace: 7"))
        #expect(curl.headers.contains("If-Range: \"b\""))
        #expect(!curl.headers.contains("If-Range: \"main\""))
    }

    @Test func aMirrorOnTheSameOriginKeepsThem() {
        let curl = ConnectionRequest.make(
            role: .range, request: Self.request(), url: "https://a.example/mirror/f.iso", requested: 0..<100,
            validators: RemoteValidators(), fresh: false)
        #expect(curl.headers.contains("Authorization: Bearer s3cret"))
        // Before its first answer a mirror has no validators of its own: no If-Range.
        #expect(!curl.headers.contains { $0.hasPrefix("If-Range") })
    }

    @Test func anHttpMirrorOfAnHttpsLinkOnTheSameHostGetsNeitherItsLoginNorItsCredentialHeaders() {
        var request = Self.request()
        request.url = "https://alice:hunter2@a.example/f.iso"
        request.mirrors = ["http://a.example/f.iso"]
        let netrc = NetrcFile(parsing: "machine b.example login bob password pw\n")
        let curl = ConnectionRequest.make(
            role: .range, request: request, url: "http://a.example/f.iso", requested: 0..<100,
            validators: RemoteValidators(), fresh: false, netrc: netrc)
        #expect(curl.login == nil)
        #expect(!curl.headers.contains { RedirectCredentials.carriesCredentials($0) }, "\(curl.headers)")
        #expect(curl.headers.contains("X-Trace: 7"))
        // The https link itself keeps both.
        let own = ConnectionRequest.make(
            role: .first, request: request, url: request.url, requested: 0..<100, validators: RemoteValidators(), fresh: false)
        #expect(own.headers.contains("Authorization: Bearer s3cret"))
    }
}

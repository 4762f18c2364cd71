import HaulCore

/// One request of a `LinkProbe`: its easy handle and the head of the answer; the body is never kept. Confined to
/// the probe's own thread, which owns it from creation to the end of `curl_easy_perform`.
final class ProbeFetch: CurlReceiver {
    let easy = CurlEasy()
    private(set) var head = ResponseHead()

    /// Sets the handle up for `request`, its callbacks coming back here.
    func configure(_ request: CurlRequest) throws(CurlError) {
        easy.receiver = self
        try easy.apply(request)
    }

    /// Forgets the last answer and sets the handle up again for the next hop of a redirect.
    func follow(_ request: CurlRequest) throws(CurlError) {
        head = ResponseHead()
        easy.reset()
        try configure(request)
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        _ = head.feed(bytes: bytes)
        return bytes.count
    }

    /// A redirect's own page is read through; the final answer's body ends the request (its head is all a check
    /// needs), which libcurl reports as a write error.
    func receiveBody(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        head.isComplete && head.isFollowedRedirect ? bytes.count : 0
    }

    /// Whether the final answer's head arrived (a request ended by `receiveBody` still has one).
    var answered: Bool { head.isComplete && !head.isFollowedRedirect }
}

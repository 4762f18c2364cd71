import Foundation
import HaulCore

/// Asks a task's new link for a few bytes, once, before `haul set-url` replaces the link (DESIGN §8): the request a
/// resume would make, through the task's own request options (proxy, cookies, headers, `.netrc`), its redirects
/// followed hop by hop as the engine does. What the answer means is `NewLinkProbe`'s.
///
/// It runs outside the engine, on a thread of its own that owns its easy handle from start to end.
public enum LinkProbe {
    /// What the new link answered.
    public struct Answer: Sendable, Equatable {
        public var verdict: NewLinkProbe.Verdict
        /// The name its `Content-Disposition` gives the file, sanitised as a download's name is.
        public var serverName: String?

        init(verdict: NewLinkProbe.Verdict, serverName: String? = nil) {
            self.verdict = verdict
            self.serverName = serverName
        }
    }

    /// Checks `url` as `task`'s new link under `change`; waits at most the connect and stall timeouts of
    /// `options` for each hop.
    public static func check(
        _ task: DownloadTask, newLink url: String, change: LinkChange, options: TransferOptions
    ) async -> NewLinkProbe.Verdict {
        await answer(task, newLink: url, change: change, options: options).verdict
    }

    /// `check`, with the name the answer gives the file.
    public static func answer(
        _ task: DownloadTask, newLink url: String, change: LinkChange, options: TransferOptions
    ) async -> Answer {
        guard let requested = NewLinkProbe.range(for: task, change: change), let total = task.totalBytes else {
            return Answer(verdict: .notNeeded)
        }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: ask(task, url: url, requested: requested, total: total, change: change, options: options))
            }
            thread.name = "haul-link-probe"
            thread.start()
        }
    }

    /// The check itself, blocking the calling thread.
    private static func ask(
        _ task: DownloadTask, url: String, requested: Range<Int64>, total: Int64, change: LinkChange, options: TransferOptions
    ) -> Answer {
        var request = TransferRequest(task: task, options: options)
        request.url = url
        let host = URLValidation.host(of: url)
        let fetch = ProbeFetch()
        do throws(DownloadError) {
            let netrc = try request.readNetrc()
            let cookies = try CookieJar(options: task.requestOptions, stored: task.cookies)
            /// The request for `target`: the link, or a redirect's next hop.
            func curlRequest(_ target: String) -> CurlRequest {
                var curl = ConnectionRequest.make(
                    role: .range, request: request, url: target, requested: requested, validators: RemoteValidators(),
                    fresh: false, netrc: netrc)
                curl.cookies = cookies.share
                curl.cookieSeed = cookies.takeSeed()
                return curl
            }
            var target = url
            try configure { () throws(CurlError) in try fetch.configure(curlRequest(target)) }
            for hops in 0...RedirectHop.limit {
                let result = fetch.easy.perform()
                if fetch.answered {
                    return Answer(
                        verdict: NewLinkProbe.verdict(
                            head: fetch.head, requested: requested, total: total, stored: task.validators, host: host,
                            change: change),
                        serverName: fetch.head["content-disposition"].flatMap(ContentDisposition.fileName(from:))
                            .flatMap(SafeFileName.sanitize))
                }
                guard result.isOK else {
                    throw DownloadError(
                        curl: result, detail: fetch.easy.errorDetail, url: url, effectiveURL: fetch.easy.effectiveURL,
                        host: host, responseSeen: fetch.head.status != 0, stallTimeout: options.stallTimeout,
                        proxyStatus: fetch.easy.proxyConnectStatus, proxy: task.requestOptions.proxies?.redacted.proxy(for: target))
                }
                switch RedirectHop.next(head: fetch.head, target: fetch.easy.redirectURL, hops: hops, host: host) {
                case .answered:
                    throw .invalidResponse(host: host, detail: "the connection ended without an answer")
                case let .refused(error):
                    throw error
                case let .follow(next):
                    target = next
                    try configure { () throws(CurlError) in try fetch.follow(curlRequest(target)) }
                }
            }
            throw .tooManyRedirects(host: host)
        } catch {
            return Answer(verdict: .unconfirmed(error.description))
        }
    }

    /// Runs `setUp`, turning a refused libcurl option into the user's error.
    private static func configure(_ setUp: () throws(CurlError) -> Void) throws(DownloadError) {
        do {
            try setUp()
        } catch {
            throw .inconsistentTransfer("libcurl refused an option: \(error)")
        }
    }
}

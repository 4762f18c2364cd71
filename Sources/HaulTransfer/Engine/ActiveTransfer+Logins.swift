import HaulCore

/// What a 401 tells the user: the login that was refused, or that `--netrc-file` has none for the host
/// (`HopLogin.refused`). Connections note each 401 as it comes; the task's error says it when the transfer ends,
/// so the connection policies meanwhile see the plain HTTP status they decide on.
struct RefusedLogin {
    var tried: DownloadError.LoginTried
    /// The host that answered 401 (a redirect's target, maybe not the link's).
    var host: String
}

extension ActiveTransfer {
    /// `connection` got a 401 for the request to its current URL.
    func noteRefusedLogin(on connection: Connection) {
        let url = connection.currentURL
        guard let tried = HopLogin.refused(at: url, links: request.links, netrc: netrc) else { return }
        refusedLogins[connection.link.host] = RefusedLogin(tried: tried, host: URLValidation.host(of: url))
    }

    /// `ending`, a 401 from one of its links told with the login it refused.
    func explained(_ ending: TransferEnding) -> TransferEnding {
        guard case let .failed(error) = ending, case let .httpStatus(401, _, host, _) = error,
              let refusal = refusedLogins[host] else { return ending }
        return .failed(error.refusing(refusal.tried, host: refusal.host))
    }
}

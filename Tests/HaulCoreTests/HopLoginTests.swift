import HaulCore
import Testing

/// Which login each URL a task asks carries (`HopLogin`, DESIGN §8): the link's own, the `.netrc` entry that names
/// the host, never another host's, and nothing on another port of the link's host.
struct HopLoginTests {
    let netrc = NetrcFile(parsing: """
        machine 127.0.0.1 login alice password a-pass
        machine localhost login bob password b-pass
        default login anonymous password guest
        """)
    let link = "http://127.0.0.1:8000/dl/film.bin"

    func choice(_ url: String, links: [String]? = nil, netrc: NetrcFile?? = nil) -> HopLogin.Choice {
        HopLogin.choose(for: url, links: links ?? [link], netrc: netrc ?? self.netrc)
    }

    @Test func theLinksOriginGetsItsMachineEntryAndAnotherHostItsOwn() {
        #expect(choice(link) == .init(login: .init(user: "alice", password: "a-pass"), source: .netrc))
        #expect(choice("http://127.0.0.1:8000/other") == .init(login: .init(user: "alice", password: "a-pass"), source: .netrc))
        // A redirect to another host: that host's own entry, on any port.
        #expect(choice("http://localhost:9000/authed/film.bin") == .init(login: .init(user: "bob", password: "b-pass"), source: .netrc))
        #expect(choice("https://LOCALHOST/authed/film.bin") == .init(login: .init(user: "bob", password: "b-pass"), source: .netrc))
    }

    @Test func anotherPortOrSchemeOfTheLinksHostGetsNone() {
        #expect(choice("http://127.0.0.1:9000/store/film.bin") == .init())
        #expect(choice("https://127.0.0.1:8000/film.bin") == .init())
        #expect(choice("https://127.0.0.1/film.bin") == .init(), "not an upgrade from the link's port 8000")
    }

    /// http → https on the standard ports is the same service over TLS: the host's `.netrc` entry goes along (a
    /// login in the link does not, as curl drops it on a change of scheme).
    @Test func theUpgradeToHTTPSKeepsTheNetrcEntry() {
        let plain = "http://files.example/film.bin"
        let entry = NetrcFile(parsing: "machine files.example login carol password c-pass")
        #expect(choice("https://files.example/film.bin", links: [plain], netrc: entry)
            == .init(login: .init(user: "carol", password: "c-pass"), source: .netrc))
        #expect(choice("https://files.example:443/x", links: ["http://files.example:80/film.bin"], netrc: entry).source == .netrc)
        #expect(choice("https://files.example:8443/x", links: [plain], netrc: entry) == .init())
        #expect(choice("http://files.example/x", links: ["https://files.example/film.bin"], netrc: entry) == .init(), "a downgrade")
        #expect(choice("https://files.example/x", links: ["http://u:p@files.example/film.bin"], netrc: entry) == .init())
    }

    @Test func theDefaultEntryServesOnlyTheHostsTheUserGave() {
        let mirror = "http://mirror.example/film.bin"
        #expect(choice(mirror, links: [link, mirror]) == .init(login: .init(user: "anonymous", password: "guest"), source: .netrc))
        #expect(choice("http://cdn.example/film.bin") == .init(), "a host a server chose got the default login")
    }

    @Test func aLoginInTheLinkWinsOnItsOriginOnly() {
        let withLogin = "http://carol:c%40pass@127.0.0.1:8000/dl/film.bin"
        // libcurl sends the link's own; a hop to the same origin without it gets it as the request's login.
        #expect(choice(withLogin, links: [withLogin]) == .init(source: .link))
        #expect(choice("http://127.0.0.1:8000/elsewhere", links: [withLogin])
            == .init(login: .init(user: "carol", password: "c@pass"), source: .link))
        #expect(choice("http://localhost:9000/authed/film.bin", links: [withLogin])
            == .init(login: .init(user: "bob", password: "b-pass"), source: .netrc))
        #expect(choice("http://127.0.0.1:9000/store", links: [withLogin]) == .init())
    }

    @Test func withoutANetrcOnlyTheLinksOwnLoginGoes() {
        #expect(choice(link, netrc: .some(nil)) == .init())
        #expect(choice("http://localhost:9000/authed", netrc: .some(nil)) == .init())
    }

    @Test func aRefusedLoginIsNamedInThe401() {
        let links = [link]
        #expect(HopLogin.refused(at: "http://localhost:9000/a", links: links, netrc: netrc) == .netrc)
        #expect(HopLogin.refused(at: "http://other.example/a", links: links, netrc: netrc) == .netrcHasNone)
        #expect(HopLogin.refused(at: "http://u:p@other.example/a", links: links, netrc: nil) == .link)
        #expect(HopLogin.refused(at: link, links: links, netrc: nil) == nil)
        #expect(HopLogin.refused(at: "http://127.0.0.1:9000/store", links: links, netrc: netrc) == .netrcWithheld)
        #expect(HopLogin.refused(at: "http://127.0.0.1:9000/store", links: links, netrc: NetrcFile(parsing: "")) == .netrcHasNone)

        let plain = DownloadError.httpStatus(code: 401, reason: "Unauthorized", host: "127.0.0.1", retryAfter: nil)
        #expect(plain.description.contains("or --netrc-file"))
        let none = plain.refusing(.netrcHasNone, host: "localhost")
        #expect(none == .loginRefused(host: "localhost", reason: "Unauthorized", login: .netrcHasNone))
        #expect(!none.description.contains("or --netrc-file"), "\(none)")
        #expect(none.description.contains("--netrc-file has no machine entry for localhost"), "\(none)")
        #expect(plain.refusing(.netrc, host: "localhost").description.contains("refused the login --netrc-file gives for localhost"))
        #expect(plain.refusing(.link, host: "localhost").description.contains("refused the login in the link"))
        #expect(plain.refusing(nil, host: "localhost") == plain)
        let withheld = plain.refusing(.netrcWithheld, host: "127.0.0.1").description
        #expect(withheld.contains("goes only to the link's own port and scheme") && !withheld.contains("or --netrc-file"), "\(withheld)")
        let forbidden = DownloadError.httpStatus(code: 403, reason: nil, host: "a", retryAfter: nil)
        #expect(forbidden.refusing(.netrc, host: "a") == forbidden)
        #expect(none.httpCode == 401 && !none.isTransient)
    }
}

import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `.netrc` after a redirect to another host (DESIGN §8), with real nginx: `/dl/` on 127.0.0.1 answers 302 to
/// `localhost:OTHER/authed/`, which wants a login. Each hop gets the entry that names its own host, as
/// `curl -L --netrc-file` sends it, on every connection of a segmented download, and never another host's.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct NetrcRedirectTests {
    static let size = 4 << 20

    struct Servers {
        let origin: NginxFixture
        let store: NginxFixture
        let bytes: [UInt8]

        /// The store wants `bob`; throttled per connection so a segmented download opens several.
        static func start(_ run: HaulRun, seed: UInt64) async throws -> Servers {
            let htpasswd = run.root.file("htpasswd")
            try LinkTests.htpasswdLine(user: "bob", password: "b-pass").write(toFile: htpasswd, atomically: true, encoding: .utf8)
            let store = try await NginxFixture.start(locations: """
                location /authed/ {
                    auth_basic "store";
                    auth_basic_user_file \(htpasswd);
                    limit_rate 1m;
                }
                """)
            let origin = try await NginxFixture.start(locations: """
                location /dl/ {
                    rewrite ^/dl/(.*)$ http://localhost:\(store.port)/authed/$1 redirect;
                }
                """)
            let bytes = LinkTests.bytes(NetrcRedirectTests.size, seed: seed)
            try store.write(file: "authed/film.bin", bytes: bytes)
            return Servers(origin: origin, store: store, bytes: bytes)
        }

        func stop() {
            origin.stop()
            store.stop()
        }
    }

    static func netrc(_ run: HaulRun, _ text: String) throws -> String {
        let path = run.root.file("netrc")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o600) == 0)
        return path
    }

    @Test func eachHopGetsTheEntryOfItsOwnHostOnEveryConnection() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 2401)
        defer { servers.stop() }
        let netrc = try Self.netrc(run, """
            machine 127.0.0.1 login alice password a-pass
            machine localhost login bob password b-pass
            default login anonymous password guest

            """)

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-s", "4", "--min-split-size", "1M", "--netrc-file", netrc, servers.origin.url("/dl/film.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        // The origin got its own entry; the store got localhost's on every connection, never the origin's.
        #expect(servers.origin.accessEntries().contains { $0.uri == "/dl/film.bin" && $0.remoteUser == "alice" },
                "\(servers.origin.accessEntries())")
        let stored = await servers.store.entries { entries in
            entries.filter { [200, 206].contains($0.status) }.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size)
        }
        #expect(stored.filter { $0.range != nil && $0.status == 206 }.count >= 2, "several connections: \(stored)")
        #expect(!stored.isEmpty && stored.allSatisfy { $0.remoteUser == "bob" && [200, 206].contains($0.status) }, "\(stored)")
        #expect(!(out + err).contains("b-pass") && !(out + err).contains("a-pass"))
    }

    /// A `.netrc` without an entry for the redirect's host: no other host's login goes there (not the origin's,
    /// not the default one), and the 401 says the file has none for it instead of asking for `--netrc-file`.
    @Test func aMissingEntrySendsNoOtherLoginAndTheMessageSaysWhichHost() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 2402)
        defer { servers.stop() }
        let netrc = try Self.netrc(run, "machine 127.0.0.1 login alice password a-pass\ndefault login bob password b-pass\n")

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "--netrc-file", netrc, servers.origin.url("/dl/film.bin")])
        #expect(status == 1, "\(out)\n\(err)")
        #expect((out + err).contains("HTTP 401"), "\(out)\n\(err)")
        #expect((out + err).contains("--netrc-file has no machine entry for localhost"), "\(out)\n\(err)")
        #expect(!(out + err).contains("or --netrc-file"), "it asks for the file it was given: \(out)\n\(err)")
        let refused = await servers.store.entries { $0.contains { $0.status == 401 } }
        #expect(refused.contains { $0.status == 401 } && refused.allSatisfy { $0.authorization == nil }, "\(refused)")
    }
}

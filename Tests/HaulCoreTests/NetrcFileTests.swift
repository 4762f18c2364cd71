import HaulCore
import Testing

/// `.netrc` by curl's rules.
struct NetrcFileTests {
    @Test func machinesDefaultQuotesAndMacros() {
        let netrc = NetrcFile(parsing: """
            machine Example.ORG login alice password "p w\\"1"
            macdef init
            cd /pub
            login mallory password nope

            machine 127.0.0.1
              login bob
              password s3cret
              account ignored
            machine example.org login second password shadowed
            default login anonymous password me@example.org
            """)
        #expect(netrc.login(for: "example.org") == .init(user: "alice", password: "p w\"1"))
        #expect(netrc.login(for: "127.0.0.1") == .init(user: "bob", password: "s3cret"))
        #expect(netrc.login(for: "elsewhere.example") == .init(user: "anonymous", password: "me@example.org"))
    }

    @Test func aMachineWithoutALoginGivesNone() {
        let netrc = NetrcFile(parsing: "machine a.example password only\nmachine b.example login u")
        #expect(netrc.login(for: "a.example") == nil)
        #expect(netrc.login(for: "b.example") == .init(user: "u", password: ""))
        #expect(NetrcFile(parsing: "").login(for: "a.example") == nil)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: IntakeError.unreadableFile(kind: "netrc file", "/nonexistent/.netrc")) { try NetrcFile.read("/nonexistent/.netrc") }
    }

    /// The size is bounded before anything is kept: an endless file is refused after the limit, not read whole.
    @Test(.timeLimit(.minutes(1))) func anEndlessFileIsRefusedAtTheLimit() {
        #expect(throws: IntakeError.unreadableFile(kind: "netrc file", "/dev/zero")) { try NetrcFile.read("/dev/zero") }
        #expect(throws: BoundedFileRead.Failure.tooLarge(bytes: 4097)) { try BoundedFileRead.contents(of: "/dev/zero", limit: 4096) }
        #expect(throws: BoundedFileRead.Failure.directory) { try BoundedFileRead.contents(of: "/", limit: 4096) }
    }
}

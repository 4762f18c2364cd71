import Glibc
import HaulCore
import HaulStore
import Testing

/// Which existing directories haul may make private (0700) for its state, decided as a value: its own or empty,
/// owned by the user, and not shared; anything else is refused with the reason.
@Suite("State directory check")
struct StateDirectoryCheckTests {
    static let me: uid_t = 1000

    struct Row: Sendable, CustomTestStringConvertible {
        var owner: uid_t = StateDirectoryCheckTests.me
        var mode: mode_t
        var entries: [String] = []
        var verdict: StateDirectoryCheck.Verdict

        var testDescription: String { "owner \(owner) mode \(String(mode, radix: 8)) \(entries)" }
    }

    static let rows: [Row] = [
        Row(mode: 0o700, verdict: .use),
        Row(mode: 0o755, verdict: .makePrivate),
        Row(mode: 0o2750, verdict: .makePrivate),
        Row(mode: 0o755, entries: ["haul.sqlite", "haul.sqlite-wal", "haul.sqlite-shm", "haul.lock", "haul.sock", "haul.log", "rpc-secret"],
            verdict: .makePrivate),
        Row(mode: 0o700, entries: ["haul.sqlite", "haul.sqlite-journal"], verdict: .use),
        Row(owner: 0, mode: 0o755, verdict: .refuse(.ownedByAnotherUser(owner: 0, currentUser: me))),
        Row(owner: 1001, mode: 0o700, entries: ["haul.sqlite"], verdict: .refuse(.ownedByAnotherUser(owner: 1001, currentUser: me))),
        Row(mode: 0o1777, verdict: .refuse(.shared(mode: 0o1777))),
        Row(mode: 0o777, verdict: .refuse(.shared(mode: 0o777))),
        Row(mode: 0o1700, verdict: .refuse(.shared(mode: 0o1700))),
        Row(mode: 0o755, entries: ["haul.sqlite", "notes.txt"], verdict: .refuse(.foreignFiles(["notes.txt"]))),
        Row(mode: 0o700, entries: ["e", "haul.log", "d", ".bashrc", "c"], verdict: .refuse(.foreignFiles([".bashrc", "c", "d"]))),
        Row(mode: 0o755, entries: ["haul.sqlite.bak"], verdict: .refuse(.foreignFiles(["haul.sqlite.bak"]))),
    ]

    @Test(arguments: rows)
    func verdict(row: Row) {
        #expect(StateDirectoryCheck.decide(owner: row.owner, currentUser: Self.me, mode: row.mode, entries: row.entries) == row.verdict)
    }

    @Test func refusalsNameTheDirectoryAndWhy() {
        let shared = StateDirectoryError.refused(path: "/tmp", reason: .shared(mode: 0o1777)).description
        #expect(shared.contains("/tmp") && shared.contains("1777") && shared.contains("sticky") && shared.contains("--state-dir"), "\(shared)")
        let owned = StateDirectoryError.refused(path: "/srv/q", reason: .ownedByAnotherUser(owner: 0, currentUser: 1000)).description
        #expect(owned.contains("/srv/q") && owned.contains("user 0"), "\(owned)")
        let foreign = StateDirectoryError.refused(path: "/home/u", reason: .foreignFiles([".bashrc"])).description
        #expect(foreign.contains("/home/u") && foreign.contains("'.bashrc'"), "\(foreign)")
        let link = StateDirectoryError.symbolicLink(path: "/home/u/state").description
        #expect(link.contains("/home/u/state") && link.contains("symbolic link"), "\(link)")
    }
}

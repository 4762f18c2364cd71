import Foundation
import HaulCore
import HaulTestSupport
import Testing

/// `--on-link-expired`: which failures call for it, and what a command that misbehaves gives (DESIGN §8).
@Suite(.timeLimit(.minutes(1))) struct LinkRenewalTests {
    let task = DownloadTask(id: TaskID(3), url: "http://127.0.0.1/a.bin", directory: "/tmp", position: 1, bytesDone: 10)

    func script(_ body: String) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/renew.sh"
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return (dir, path)
    }

    @Test func anExpiredLinkCallsForItWithOrWithoutBytes() {
        for code in [401, 403, 404, 410] {
            #expect(LinkRenewal.applies(to: task, error: .httpStatus(code: code, reason: nil, host: "h", retryAfter: nil), lastGiven: nil))
        }
        #expect(LinkRenewal.applies(to: task, error: .loginRefused(host: "h", reason: nil, login: .netrc), lastGiven: nil))
        #expect(!LinkRenewal.applies(to: task, error: .httpStatus(code: 500, reason: nil, host: "h", retryAfter: nil), lastGiven: nil))
        #expect(!LinkRenewal.applies(to: task, error: .network(code: 7, message: "refused", host: "h"), lastGiven: nil))
        // A link that expired while the task waited in the queue: no byte yet.
        var fresh = task
        fresh.bytesDone = 0
        #expect(LinkRenewal.applies(to: fresh, error: .httpStatus(code: 410, reason: nil, host: "h", retryAfter: nil), lastGiven: nil))
    }

    /// Once per link it gave: that link expiring again before a byte came from it does not run it again; after
    /// bytes came, or for a link it did not give, it runs.
    @Test func aLinkItGaveThatFetchedNothingDoesNotCallForItAgain() {
        let gone = DownloadError.httpStatus(code: 410, reason: nil, host: "h", retryAfter: nil)
        let given = LinkRenewal.Given(link: task.url, bytes: task.bytesDone)
        #expect(!LinkRenewal.applies(to: task, error: gone, lastGiven: given))
        var further = task
        further.bytesDone += 1
        #expect(LinkRenewal.applies(to: further, error: gone, lastGiven: given))
        var another = task
        another.url = "http://127.0.0.1/set-by-hand.bin"
        #expect(LinkRenewal.applies(to: another, error: gone, lastGiven: given))
    }

    @Test func theFirstLinePrintedIsTheNewLinkAndTheArgumentsAreGIDAndLink() async throws {
        let (dir, path) = try script("echo \"$@\" > \"$(dirname \"$0\")/args\"\nprintf '\\n  http://127.0.0.1/b.bin  \\nsecond\\n'")
        let result = await LinkRenewal(command: path).newLink(for: task)
        #expect(result == .success("http://127.0.0.1/b.bin"))
        #expect(try String(contentsOfFile: dir.path + "/args", encoding: .utf8) == "0000000000000003 http://127.0.0.1/a.bin\n")
    }

    @Test func aCommandThatHangsFailsOrPrintsNothingGivesNoLink() async throws {
        let (hangsDir, hangs) = try script("sleep 30")
        let started = ContinuousClock.now
        let hung = await LinkRenewal(command: hangs, timeout: .milliseconds(300)).newLink(for: task)
        guard case let .failure(.noLink(text)) = hung else { Issue.record("\(hung)"); return }
        #expect(text.contains("did not finish"))
        #expect(ContinuousClock.now - started < .seconds(20), "the command was stopped, not waited for")
        let (failsDir, fails) = try script("echo http://127.0.0.1/x\nexit 3")
        #expect(await LinkRenewal(command: fails).newLink(for: task) == .failure(.noLink("\(fails) exited with status 3")))
        let (silentDir, silent) = try script("true")
        #expect(await LinkRenewal(command: silent).newLink(for: task) == .failure(.noLink("\(silent) printed no link")))
        guard case .failure(.cannotStart) = await LinkRenewal(command: "/nonexistent/renew").newLink(for: task) else {
            Issue.record("a missing command started")
            return
        }
        withExtendedLifetime((hangsDir, failsDir, silentDir)) {}
    }
}

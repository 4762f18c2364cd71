import Foundation
import HaulTestSupport
import Testing

/// `--on-link-expired` beside the other hooks, with real nginx `secure_link` (DESIGN §8): a task whose link is renewed
/// is never announced failed (no `--on-download-error`, no JSON `failed` event), and a link that expired while its
/// task waited in the queue runs the command too.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct LinkRenewalHookTests {
    /// A script that notes its call in `log` (`NAME ARGS`) and prints `output`.
    static func hook(_ run: HaulRun, _ name: String, log: String, printing output: String = "") throws -> String {
        try LinkTests.script(
            run.root.file("\(name).sh"), "#!/bin/sh\necho \"\(name) $1\" >> '\(log)'\n" + (output.isEmpty ? "" : "echo '\(output)'\n"))
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func aRenewedDownloadIsNeverToldFailed() async throws {
        let nginx = try await ExpiringLinkTests.start()
        defer { nginx.stop() }
        let film = LinkTests.bytes(ExpiringLinkTests.size, seed: 2421)
        try ExpiringLinkTests.publish(nginx, "film.bin", film)
        let run = try HaulRun()
        let fresh = try ExpiringLinkTests.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        let log = run.root.file("hooks.log")
        let hooks = [
            "--json",
            "--on-link-expired", try Self.hook(run, "renew", log: log, printing: fresh),
            "--on-download-error", try Self.hook(run, "error", log: log),
            "--on-download-complete", try Self.hook(run, "complete", log: log),
        ]

        let (haul, _) = try await ExpiringLinkTests.outliveTheLink(nginx, run, extra: hooks)
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), film)
        #expect(await nginx.entries { $0.contains { $0.status == 403 } }.contains { $0.status == 403 }, "the link expired")
        let events = haul.stdoutText().split(separator: "\n").filter { $0.contains("\"event\":") }
        #expect(!events.contains { $0.contains("\"event\":\"failed\"") }, "\(events)")
        #expect(events.contains { $0.contains("\"event\":\"completed\"") }, "\(events)")
        // The hooks run apart from the queue: the completion's, which the error's would have come before, says
        // when they have all run.
        try await eventually("the completion hook", timeout: .seconds(10)) { Self.lines(log).contains { $0.hasPrefix("complete ") } }
        #expect(Self.lines(log) == ["renew 0000000000000001", "complete 0000000000000001"], "\(Self.lines(log))")
    }

    /// `-j 1`: the second task's link expires while the first runs; its first answer (a 403) runs the command,
    /// and the link it gives finishes the task.
    @Test func aLinkThatExpiredInTheQueueRunsTheCommand() async throws {
        let nginx = try await ExpiringLinkTests.start()
        defer { nginx.stop() }
        let first = LinkTests.bytes(640 << 10, seed: 2422)
        let film = LinkTests.bytes(1 << 20, seed: 2423)
        try ExpiringLinkTests.publish(nginx, "first.bin", first)
        try ExpiringLinkTests.publish(nginx, "film.bin", film)
        let run = try HaulRun()
        // The first takes five seconds at the throttled rate; the second's link is valid for two.
        let slow = try ExpiringLinkTests.signed(nginx, "/signed/first.bin", expires: LinkTests.now + 3600, slow: true)
        let expires = LinkTests.now + 2
        let shortLived = try ExpiringLinkTests.signed(nginx, "/signed/film.bin", expires: expires)
        let fresh = try ExpiringLinkTests.signed(nginx, "/signed/film.bin", expires: LinkTests.now + 3600)
        let log = run.root.file("hooks.log")

        let haul = try run.start([
            "--headless", "-j", "1", "--on-link-expired", try Self.hook(run, "renew", log: log, printing: fresh), slow, shortLived,
        ])
        #expect(try await haul.waitForExit(timeout: .seconds(40)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("first.bin"), first)
        expectSameBytes(run.file("film.bin"), film)
        let query = String(shortLived[shortLived.range(of: "?")!.lowerBound...])
        let refused = await nginx.entries { $0.contains { $0.status == 403 } }.filter { $0.uri.hasSuffix(query) }
        #expect(refused.count == 1 && refused.allSatisfy { $0.status == 403 && $0.bodyBytesSent < 1024 }, "expired before a byte: \(refused)")
        #expect(Self.lines(log) == ["renew 0000000000000002"], "\(Self.lines(log))")
        let rows = try await run.list()
        #expect(rows.count == 2 && rows.allSatisfy { $0["state"] as? String == "completed" }, "\(rows)")
    }
}

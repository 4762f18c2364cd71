import FaultServer
import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An attached list whose background haul is killed, stopped by a signal, or restarted says what happened.
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: TmuxDriver.isAvailable, "tmux is not installed"))
struct AttachedLossTests {
    static func slowServer() throws -> FaultServer {
        let server = try FaultServer()
        var slow = FaultPlan.file(size: 64 << 20, seed: 91)
        slow.throttle = 128 << 10
        server.route("/slow.bin", slow)
        return server
    }

    /// A background haul on a slow download and a live list in tmux attached to it.
    static func attachedList() async throws -> (FaultServer, HaulRun, BackgroundDaemon, TmuxDriver) {
        let server = try slowServer()
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/slow.bin")])
        let haul = try HaulProcess.binary(named: "haul").path
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)", width: 140)
        try await tmux.waitFor("attached", timeout: .seconds(30)) { $0.contains("attached to haul (pid \(daemon.pid))") }
        return (server, run, daemon, tmux)
    }

    /// The list stays open, says the haul is gone and how to start it; `q` leaves with a failing status.
    @Test func aKilledDaemonIsReportedAsLostAndTheListStays() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            daemon.kill()
            tmux.kill()
            withExtendedLifetime(run) {}  // its directory holds the state and the socket
        }
        kill(daemon.pid, SIGKILL)
        let screen = try await tmux.waitFor("the loss banner", timeout: .seconds(20)) {
            $0.contains("lost the background haul (pid \(daemon.pid))") || $0.contains("EXITED=")
        }
        #expect(!screen.contains("EXITED="), "the list stays open: \(screen)")
        #expect(screen.contains("`haul daemon` starts it again"), "\(screen)")
        #expect(screen.contains("slow.bin"), "the last rows stay on screen: \(screen)")
        try tmux.send("q")
        let closed = try await tmux.waitFor("EXITED=", timeout: .seconds(10))
        #expect(closed.contains("lost the background haul (pid \(daemon.pid)): it ended without saving"), "\(closed)")
        #expect(closed.contains("EXITED=1"), "\(closed)")
    }

    /// A haul stopped by SIGSTOP is named as such while it is stopped, and followed again once it continues.
    @Test func aDaemonStoppedBySIGSTOPIsReportedAndFollowedAgain() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            kill(daemon.pid, SIGCONT)
            daemon.kill()
            tmux.kill()
            withExtendedLifetime(run) {}  // its directory holds the state and the socket
        }
        kill(daemon.pid, SIGSTOP)
        let screen = try await tmux.waitFor("the stopped banner", timeout: .seconds(20)) {
            $0.contains("is stopped by a signal") || $0.contains("EXITED=")
        }
        #expect(screen.contains("is stopped by a signal — `kill -CONT \(daemon.pid)` resumes it"), "\(screen)")
        kill(daemon.pid, SIGCONT)
        let back = try await tmux.waitFor("the banner cleared", timeout: .seconds(20)) {
            !$0.contains("is stopped by a signal") || $0.contains("EXITED=")
        }
        #expect(back.contains("attached to haul (pid \(daemon.pid))"), "\(back)")
        try tmux.send("q")
        let closed = try await tmux.waitFor("EXITED=", timeout: .seconds(10))
        #expect(closed.contains("EXITED=0"), "\(closed)")
    }

    @Test func aRestartedDaemonIsFollowedAndTheFooterNamesItsPid() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            daemon.kill()
            tmux.kill()
        }
        kill(daemon.pid, SIGKILL)
        // However long the new haul takes to start, the list waits for it.
        _ = try await tmux.waitFor("the loss banner", timeout: .seconds(20)) {
            $0.contains("lost the background haul") || $0.contains("EXITED=")
        }
        let second = try await BackgroundDaemon(run)
        defer { second.kill() }
        let screen = try await tmux.waitFor("the footer names the new pid", timeout: .seconds(20)) {
            ($0.contains("attached to haul (pid \(second.pid))") && !$0.contains("lost the background haul")) || $0.contains("EXITED=")
        }
        #expect(screen.contains("attached to haul (pid \(second.pid))"), "\(screen)")
        #expect(!screen.contains("lost the background haul"), "the banner goes with the loss: \(screen)")
        try tmux.send("q")
        let closed = try await tmux.waitFor("EXITED=", timeout: .seconds(10))
        #expect(closed.contains("EXITED=0"), "\(closed)")
        #expect(closed.contains("(pid \(second.pid))"), "\(closed)")
    }
}

/// `haul` with a background haul running but no usable screen prints the queue instead of the live list.
@Suite(.timeLimit(.minutes(1)))
struct AttachWithoutScreenTests {
    @Test(arguments: ["dumb", "no-such-terminal-type"])
    func theQueueIsPrintedAndTheStatusIsZero(term: String) async throws {
        let server = try AttachedLossTests.slowServer()
        defer { server.stop() }
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/slow.bin")])
        defer { daemon.kill() }
        // script(1) gives haul a terminal, so only TERM stands in the way of the screen.
        let haul = try HaulProcess.binary(named: "haul").path
        let process = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/script"),
            arguments: ["-qec", "\(haul) --state-dir \(run.state) -d \(run.downloads)", "/dev/null"],
            environment: ["TERM": term])
        let status = try await process.waitForExit(timeout: .seconds(30))
        let text = process.stdoutText() + process.stderrText()
        #expect(status == 0, "\(text)")
        #expect(text.contains("slow.bin"), "\(text)")
        #expect(text.contains("`haul list --state-dir \(run.state)` prints it again"), "the hint repeats the state directory: \(text)")
        #expect(!text.contains("running headless"), "\(text)")
    }
}

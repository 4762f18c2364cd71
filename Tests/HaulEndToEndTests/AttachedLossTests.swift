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
        let tmux = try TmuxDriver(command: "\(haul) --state-dir \(run.state) -d \(run.downloads)")
        try await tmux.waitFor("attached", timeout: .seconds(30)) { $0.contains("attached to haul (pid \(daemon.pid))") }
        return (server, run, daemon, tmux)
    }

    @Test func aKilledDaemonIsReportedAsLostWithAFailingStatus() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            daemon.kill()
            tmux.kill()
            withExtendedLifetime(run) {}  // its directory holds the state and the socket
        }
        kill(daemon.pid, SIGKILL)
        let screen = try await tmux.waitFor("EXITED=", timeout: .seconds(20))
        #expect(screen.contains("lost the background haul (pid \(daemon.pid)): it ended without saving"), "\(screen)")
        #expect(screen.contains("`haul daemon` starts it again"), "\(screen)")
        #expect(screen.contains("EXITED=1"), "\(screen)")
    }

    @Test func aDaemonStoppedBySIGSTOPIsReportedAsSuch() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            kill(daemon.pid, SIGCONT)
            daemon.kill()
            tmux.kill()
            withExtendedLifetime(run) {}  // its directory holds the state and the socket
        }
        kill(daemon.pid, SIGSTOP)
        let screen = try await tmux.waitFor("EXITED=", timeout: .seconds(20))
        #expect(screen.contains("is stopped by a signal — `kill -CONT \(daemon.pid)` resumes it"), "\(screen)")
        #expect(screen.contains("EXITED=1"), "\(screen)")
    }

    @Test func aRestartedDaemonIsFollowedAndTheFooterNamesItsPid() async throws {
        let (server, run, daemon, tmux) = try await Self.attachedList()
        defer {
            server.stop()
            daemon.kill()
            tmux.kill()
        }
        kill(daemon.pid, SIGKILL)
        let second = try await BackgroundDaemon(run)
        defer { second.kill() }
        try await tmux.waitFor("the footer names the new pid", timeout: .seconds(20)) {
            $0.contains("attached to haul (pid \(second.pid))") || $0.contains("EXITED=")
        }
        #expect(tmux.screen().contains("attached to haul (pid \(second.pid))"), "\(tmux.screen())")
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
        #expect(text.contains("`haul list` prints it again"), "\(text)")
        #expect(!text.contains("running headless"), "\(text)")
    }
}

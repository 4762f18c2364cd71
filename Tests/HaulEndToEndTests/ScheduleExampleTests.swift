import Foundation
import HaulTestSupport
import Testing

/// The schedule examples of the README and of `haul schedule --help`, run as written (unquoted, as a shell splits
/// them).
@Suite(.timeLimit(.minutes(1)))
struct ScheduleExampleTests {
    static func schedule(_ arguments: [String], state: String) async throws -> (Int32, String, String) {
        let process = try HaulProcess(try HaulProcess.binary(named: "haul"), arguments: ["schedule", "--state-dir", state] + arguments)
        let status = try await process.waitForExit(timeout: .seconds(30))
        return (status, process.stdoutText(), process.stderrText())
    }

    @Test func daysAsAWordOfTheirOwn() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, out, err) = try await Self.schedule(["mon-fri", "01:00-07:00", "sat,sun", "00:00-24:00"], state: state.path)
        #expect(status == 0, "\(err)")
        #expect(out.contains("runs   mon,tue,wed,thu,fri 01:00-07:00  ") && out.contains(" 00:00-24:00"), "\(out)")
    }

    @Test func daysAfterLimit() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, out, err) = try await Self.schedule(["--limit", "mon-fri", "08:00-18:00=1M"], state: state.path)
        #expect(status == 0, "\(err)")
        #expect(out.contains("caps   mon,tue,wed,thu,fri 08:00-18:00=1M"), "\(out)")
        let (plain, plainOut, plainErr) = try await Self.schedule(["--limit", "08:00-18:00=1M"], state: state.path)
        #expect(plain == 0 && plainOut.contains("08:00-18:00"), "\(plainErr)")
    }

    @Test func aCapWindowWithoutLimitIsStillRefusedWithItsReason() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, _, err) = try await Self.schedule(["08:00-18:00=1M"], state: state.path)
        #expect(status == 2 && err.contains("--limit"), "\(err)")
    }
}

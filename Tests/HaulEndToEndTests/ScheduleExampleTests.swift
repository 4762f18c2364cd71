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
        #expect(out.contains("runs   mon-fri 01:00-07:00  sat,sun 00:00-24:00\n"), "days as given, in their order: \(out)")
    }

    @Test func daysAfterLimit() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, out, err) = try await Self.schedule(["--limit", "mon-fri", "08:00-18:00=1M"], state: state.path)
        #expect(status == 0, "\(err)")
        #expect(out.contains("caps   mon-fri 08:00-18:00=1M"), "\(out)")
        let (plain, plainOut, plainErr) = try await Self.schedule(["--limit", "08:00-18:00=1M"], state: state.path)
        #expect(plain == 0 && plainOut.contains("08:00-18:00"), "\(plainErr)")
    }

    @Test func aCapWindowWithoutLimitIsStillRefusedWithItsReason() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, _, err) = try await Self.schedule(["08:00-18:00=1M"], state: state.path)
        #expect(status == 2 && err.contains("--limit"), "\(err)")
    }

    @Test func aCapOfZeroAndSingleDigitHoursAreTaken() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (status, out, err) = try await Self.schedule(["1:00-7:00", "--limit", "00:00-24:00=1M", "--limit", "sat,sun", "00:00-24:00=0"],
                                                         state: state.path)
        #expect(status == 0, "\(err)")
        #expect(out.contains("runs   01:00-07:00\n") && out.contains("caps   00:00-24:00=1M  sat,sun 00:00-24:00=0\n"), "\(out)")
    }

    @Test func aMistakeAfterTheStateDirectoryPointsToTheSchedulesHelp() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let process = try HaulProcess(try HaulProcess.binary(named: "haul"), arguments: ["--state-dir", state.path, "schedule", "xyz"])
        let status = try await process.waitForExit(timeout: .seconds(30))
        #expect(status == 2 && process.stderrText().contains("(see `haul schedule --help`)"), "\(process.stderrText())")
    }
}

import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// What a newcomer meets on a mistyped command line: a typo of a command is named as one, a usage error points to
/// the help that documents what ran, and a task named twice is edited once.
@Suite(.timeLimit(.minutes(1)))
struct CommandLineHelpTests {
    static func haul(_ arguments: [String]) async throws -> (Int32, String, String) {
        let process = try HaulProcess(try HaulProcess.binary(named: "haul"), arguments: arguments)
        let status = try await process.waitForExit(timeout: .seconds(30))
        return (status, process.stdoutText(), process.stderrText())
    }

    @Test func aMistypedCommandGetsTheMostSimilarOne() async throws {
        let (status, _, errors) = try await Self.haul(["lsit"])
        #expect(status == 2)
        #expect(errors.contains("'lsit' is not a haul command; the most similar is 'list'"), "\(errors)")
        let (scheduled, _, scheduleErrors) = try await Self.haul(["shcedule"])
        #expect(scheduled == 2 && scheduleErrors.contains("'schedule'"), "\(scheduleErrors)")
        // Another tool's word for a command is taken for that command, not for a link.
        let (removed, _, removeErrors) = try await Self.haul(["rm", "1"])
        #expect(removed == 2 && removeErrors.contains("'rm' is not a haul command; the most similar is 'remove'"), "\(removeErrors)")
        // A word like no command is still taken as a link, and refused as one.
        let (link, _, linkErrors) = try await Self.haul(["--state-dir", "/nonexistent/haul-state", "zzzzzz"])
        #expect(link == 2 && !linkErrors.contains("most similar"), "\(linkErrors)")
    }

    @Test func aDownloadsOptionBeforeAnotherCommandIsNamed() async throws {
        let state = try TemporaryDirectory()
        let (resume, _, resumeErrors) = try await Self.haul(["--state-dir", state.path, "-d", "/tmp", "resume", "1"])
        #expect(resume == 2, "\(resumeErrors)")
        #expect(resumeErrors.contains("'-d' is an option of a download (`haul -d … URL`), not of `haul resume`"), "\(resumeErrors)")
        let (list, _, listErrors) = try await Self.haul(["-j", "3", "list", "--state-dir", state.path])
        #expect(list == 2 && listErrors.contains("'-j' is an option of a download"), "\(listErrors)")
        // An option the command takes is still taken from before its name.
        let (listed, _, listedErrors) = try await Self.haul(["--state-dir", state.path, "list"])
        #expect(listed == 0, "\(listedErrors)")
    }

    @Test func aNegativeIdOrRateIsNamedAsOne() async throws {
        let state = try TemporaryDirectory()
        for arguments in [["pause", "-1"], ["pause", "-7", "3"], ["remove", "-3"], ["limit", "1", "-5"], ["set-url", "-1", "http://127.0.0.1:9/a"]] {
            let (status, _, errors) = try await Self.haul(arguments + ["--state-dir", state.path])
            #expect(status == 2, "\(arguments): \(errors)")
            #expect(errors.contains("'\(arguments.first { $0.hasPrefix("-") } ?? "")' is negative: task ids count from 1"), "\(arguments): \(errors)")
        }
        // A download's negative size still says what it is not.
        let (add, _, addErrors) = try await Self.haul(["add", "--state-dir", state.path, "--min-split-size", "-1M", "http://127.0.0.1:9/a"])
        #expect(add != 0 && !addErrors.contains("is negative: task ids"), "\(addErrors)")
    }

    @Test func usageErrorsPointToTheHelpOfTheCommandThatRan() async throws {
        let (run, _, runErrors) = try await Self.haul(["--limit-rat", "1M"])
        #expect(run == 2 && runErrors.contains("(see `haul run --help`)"), "\(runErrors)")
        let (schedule, _, scheduleErrors) = try await Self.haul(["schedule", "--bogus"])
        #expect(schedule == 2 && scheduleErrors.contains("(see `haul schedule --help`)"), "\(scheduleErrors)")
    }

    /// A limit or a reload is a right command that cannot be carried out when no haul runs: 3, not a usage error.
    @Test func aLimitOrAReloadWithNoHaulRunningExits3() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (limit, _, limitErrors) = try await Self.haul(["limit", "1M", "--state-dir", state.path])
        #expect(limit == 3 && limitErrors.contains("no haul is running"), "\(limitErrors)")
        let (reload, _, reloadErrors) = try await Self.haul(["config", "--reload", "--state-dir", state.path])
        #expect(reload == 3 && reloadErrors.contains("no haul is running"), "\(reloadErrors)")
    }

    @Test func aTaskNamedTwiceIsRemovedOnce() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (added, _, addErrors) = try await Self.haul(
            ["add", "--state-dir", state.path, "-d", state.path, "https://example.invalid/a.iso"])
        try #require(added == 0, "\(addErrors)")
        let (removed, printed, removeErrors) = try await Self.haul(["remove", "1", "1", "--state-dir", state.path])
        #expect(removed == 0, "\(removeErrors)")
        #expect(printed == "#1 removed\n", "\(printed)")
    }

    /// `haul config` shows the directory a run would download into, not "(none)".
    @Test func configShowsTheDownloadDirectoryThatWillBeUsed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let process = try HaulProcess(
            try HaulProcess.binary(named: "haul"), arguments: ["config"], currentDirectory: URL(fileURLWithPath: folder.path))
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 0, "\(process.stderrText())")
        let line = process.stdoutLines().first { $0.hasPrefix("dir ") } ?? ""
        #expect(line.contains("\"\(folder.path)\""), "\(process.stdoutText())")
    }

    /// A hint names the command with the options that find the same queue.
    @Test func hintsRepeatTheStateDirectory() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (added, _, addErrors) = try await Self.haul(
            ["add", "--state-dir", state.path, "-d", state.path, "https://example.invalid/a.iso"])
        #expect(added == 0)
        #expect(addErrors.contains("run `haul --state-dir \(state.path)` (or `haul --headless --state-dir \(state.path)`)"),
                "\(addErrors)")
    }

    /// An unknown task's hint, and the remove a finished task's hint names, find the same queue.
    @Test func taskHintsRepeatTheStateDirectory() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let (removed, _, removeErrors) = try await Self.haul(["remove", "7", "--state-dir", state.path])
        #expect(removed == 2)
        #expect(removeErrors.contains("no task #7 in the queue (see `haul list --state-dir \(state.path)`)"), "\(removeErrors)")

        let server = try FaultServer()
        defer { server.stop() }
        server.route("/done.bin", .file(size: 1_000, seed: 99))
        let queue = state.path + "/queue"
        let arguments = ["--headless", "--state-dir", queue, "-d", state.path + "/downloads", server.url("/done.bin")]
        let (first, _, firstErrors) = try await Self.haul(arguments)
        #expect(first == 0, "\(firstErrors)")
        let (second, _, secondErrors) = try await Self.haul(arguments)
        #expect(second == 0, "\(secondErrors)")
        #expect(secondErrors.contains("(`haul remove 1 --state-dir \(queue)`, then add it again"), "\(secondErrors)")
    }

    /// `haul config` takes no links: its help does not list them, and one given is refused as such.
    @Test func configsHelpListsNoURLs() async throws {
        let (status, help, _) = try await Self.haul(["config", "--help"])
        #expect(status == 0)
        #expect(!help.contains("<urls>") && help.contains("USAGE: haul config [<options>]"), "\(help)")
        let (refused, _, errors) = try await Self.haul(["config", "http://127.0.0.1/a.bin"])
        #expect(refused == 2 && errors.contains("haul config takes options, not URLs"), "\(errors)")
        let (_, addHelp, _) = try await Self.haul(["add", "--help"])
        #expect(addHelp.contains("<urls>"), "\(addHelp)")
    }
}

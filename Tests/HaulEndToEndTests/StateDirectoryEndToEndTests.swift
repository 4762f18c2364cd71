import Foundation
import Glibc
import HaulTestSupport
import Testing

/// `--state-dir` on directories haul did not make: it makes private only an empty one (or its own) of the user's,
/// refuses a shared one, one with other files and a symbolic link, naming it, and leaves them as they were.
@Suite(.timeLimit(.minutes(2))) struct StateDirectoryEndToEndTests {
    static func haul(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let process = try HaulProcess(binary: "haul", arguments: arguments)
        let status = try await process.waitForExit(timeout: .seconds(60))
        return (status, process.stderrText())
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func directory(_ path: String, mode: mode_t) {
        #expect(mkdir(path, 0o700) == 0 && chmod(path, mode) == 0, "\(path)")
    }

    @Test(arguments: [["list"], ["schedule"], ["stop"]])
    func aStickySharedDirectoryIsRefusedAndKeepsItsMode(command: [String]) async throws {
        let root = try TemporaryDirectory()
        let shared = root.file("shared")
        Self.directory(shared, mode: 0o1777)
        let (status, stderr) = try await Self.haul(command + ["--state-dir", shared])
        #expect(status != 0)
        #expect(stderr.contains(shared) && stderr.contains("1777"), "\(stderr)")
        #expect(Self.mode(shared) == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty, "no database made in it")
    }

    @Test func aDirectoryWithOtherFilesIsRefusedAndUnchanged() async throws {
        let root = try TemporaryDirectory()
        let home = root.file("home")
        Self.directory(home, mode: 0o755)
        #expect(FileManager.default.createFile(atPath: home + "/notes.txt", contents: Data("mine".utf8)))
        let (status, stderr) = try await Self.haul(["list", "--state-dir", home])
        #expect(status != 0)
        #expect(stderr.contains(home) && stderr.contains("notes.txt"), "\(stderr)")
        #expect(Self.mode(home) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home) == ["notes.txt"])
    }

    @Test func anEmptyDirectoryOfTheUsersBecomesPrivate() async throws {
        let root = try TemporaryDirectory()
        let state = root.file("state")
        Self.directory(state, mode: 0o755)
        let (status, stderr) = try await Self.haul(["list", "--state-dir", state])
        #expect(status == 0, "\(stderr)")
        #expect(Self.mode(state) == 0o700)
        // Its own files in it now: the next start takes it again.
        #expect(chmod(state, 0o750) == 0)
        let again = try await Self.haul(["list", "--state-dir", state])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.mode(state) == 0o700)
    }

    @Test func aSymbolicLinkIsNotFollowedToChangeAMode() async throws {
        let root = try TemporaryDirectory()
        let target = root.file("target")
        Self.directory(target, mode: 0o755)
        let link = root.file("link")
        #expect(symlink(target, link) == 0)
        let (status, stderr) = try await Self.haul(["list", "--state-dir", link])
        #expect(status != 0)
        #expect(stderr.contains(link) && stderr.contains("symbolic link"), "\(stderr)")
        #expect(Self.mode(target) == 0o755)
    }
}

import Foundation
import Testing
@testable import HaulCore

/// The directory rule: resolved against the default directory, never a file, and inside the allowed ones when set.
@Suite struct TaskIntakeDirectoryTests {
    static let root = NSTemporaryDirectory() + "haul-intake-dirs-\(getpid())"

    init() throws {
        try FileManager.default.createDirectory(atPath: Self.root + "/downloads/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: Self.root + "/allowed", withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: Self.root + "/downloads/link-out", withDestinationPath: "/etc")
    }

    @Test func relativeAndTildeDirectoriesResolve() throws {
        let intake = TaskIntake(defaultDirectory: Self.root + "/downloads")
        #expect(try intake.resolvedDirectory(nil) == Self.root + "/downloads")
        #expect(try intake.resolvedDirectory("sub/../sub") == Self.root + "/downloads/sub")
        #expect(try intake.resolvedDirectory("/srv/x") == "/srv/x")
        #expect(throws: IntakeError.emptyDirectory) { try intake.resolvedDirectory("  ") }
    }

    @Test func allowedDirectoriesConfineWhereTasksGo() throws {
        let intake = TaskIntake(defaultDirectory: Self.root + "/downloads", allowedDirectories: [Self.root + "/allowed"])
        #expect(try intake.newTask(TaskRequest(url: "http://a.example/x", directory: "sub")).directory == Self.root + "/downloads/sub")
        #expect(try intake.resolvedDirectory(Self.root + "/allowed/new") == Self.root + "/allowed/new")
        #expect(throws: IntakeError.directoryNotAllowed("/tmp")) { try intake.resolvedDirectory("/tmp") }
        #expect(throws: IntakeError.directoryNotAllowed(Self.root + "/allowed-not")) {
            try intake.resolvedDirectory(Self.root + "/allowed-not")
        }
        #expect(throws: IntakeError.directoryNotAllowed(Self.root)) { try intake.resolvedDirectory("../allowed/..") }
        // A link inside the default directory that leads out of it is outside too.
        do {
            let resolved = try intake.resolvedDirectory("link-out")
            Issue.record("accepted \(resolved)")
        } catch {
            guard case .directoryNotAllowed = error else { Issue.record("\(error)"); return }
        }
    }
}

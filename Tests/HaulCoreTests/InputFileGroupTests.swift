import Testing
@testable import HaulCore

/// Tasks read from one input file are one group named after the file (DESIGN §12), unless the file holds one task.
@Suite struct InputFileGroupTests {
    static let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")

    @Test func theTasksOfOneFileShareAGroupNamedAfterTheFile() throws {
        let text = "http://127.0.0.1/a\nhttp://127.0.0.1/b\n  out=b.bin\nhttp://127.0.0.1/c\n"
        let (tasks, _) = try InputFile.parse(Array(text.utf8), intake: Self.intake, source: "/home/me/lists/links.txt")
        #expect(tasks.count == 3)
        #expect(tasks.map(\.group) == ["links.txt", "links.txt", "links.txt"])
    }

    @Test func aFileOfOneTaskOrNoSourceMakesNoGroup() throws {
        let one = try InputFile.parse(Array("http://127.0.0.1/a\n".utf8), intake: Self.intake, source: "one.txt").tasks
        #expect(one.count == 1 && one[0].group == nil)
        let unnamed = try InputFile.parse(Array("http://127.0.0.1/a\nhttp://127.0.0.1/b\n".utf8), intake: Self.intake).tasks
        #expect(unnamed.allSatisfy { $0.group == nil })
    }

    @Test func theGroupNameIsTheBaseNameKeptAsItIs() {
        #expect(InputFile.groupName(of: "links.txt") == "links.txt")
        #expect(InputFile.groupName(of: "./dir/x\u{1B}[31m.txt") == "x\u{1B}[31m.txt", "escaped where it is shown, not here")
        #expect(InputFile.groupName(of: "/") == nil)
        #expect(InputFile.groupName(of: "-") == nil)
    }
}

import HaulCore
import Testing

/// `--referer '*'`: each task sends its own link as the Referer, as aria2 does, without credentials or fragment.
@Suite struct RefererStarTests {
    static let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")

    @Test func theStarIsTheTasksOwnLinkWithoutCredentials() throws {
        let request = TaskRequest(
            url: "https://alice:hunter2@example.org/dl/a b.iso?x=1#part", headers: ["X-A: 1", "Referer: *"])
        let task = try Self.intake.newTask(request)
        #expect(task.headers == ["X-A: 1", "Referer: https://example.org/dl/a%20b.iso?x=1"])
    }

    @Test(arguments: ["referer: *", "Referer:*", "REFERER:  * "])
    func anySpellingOfTheHeaderWithAStarIsResolved(header: String) throws {
        let task = try Self.intake.newTask(TaskRequest(url: "http://example.org/f", headers: [header]))
        #expect(task.headers == ["Referer: http://example.org/f"])
    }

    @Test(arguments: ["Referer: */x", "Referer: https://example.org/*", "X-Referer: *"])
    func otherValuesAreSentAsGiven(header: String) throws {
        let task = try Self.intake.newTask(TaskRequest(url: "http://example.org/f", headers: [header]))
        #expect(task.headers == [header])
    }

    @Test func eachLineOfAnInputFileGetsItsOwnLink() throws {
        let text = "http://example.org/a.bin\n  referer=*\nhttp://example.org/b.bin\n  referer=*\n"
        let (tasks, _) = try InputFile.parse(Array(text.utf8), intake: Self.intake)
        #expect(tasks.map(\.headers) == [["Referer: http://example.org/a.bin"], ["Referer: http://example.org/b.bin"]])
    }
}

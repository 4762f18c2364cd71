import HaulCore
import Testing

/// The mirror rule of the one intake (DESIGN §8).
struct MirrorIntakeTests {
    let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")

    @Test func mirrorsPassTheURLRuleAndRepeatsGo() throws {
        var request = TaskRequest(url: "https://a.example/f.iso")
        request.mirrors = ["https://b.example/f.iso", "https://a.example/f.iso", "https://b.example/f.iso", "https://c.example/f.iso"]
        let task = try intake.newTask(request)
        #expect(task.mirrors == ["https://b.example/f.iso", "https://c.example/f.iso"])
    }

    @Test func httpAndHttpsMirrorsMix() throws {
        var request = TaskRequest(url: "https://a.example/f.iso")
        request.mirrors = ["http://b.example/f.iso", "HTTPS://c.example/f.iso"]
        #expect(try intake.newTask(request).mirrors == ["http://b.example/f.iso", "https://c.example/f.iso"])
        var plain = TaskRequest(url: "http://a.example/f.iso")
        plain.mirrors = ["https://b.example/f.iso"]
        #expect(try intake.newTask(plain).mirrors == ["https://b.example/f.iso"])
    }

    @Test func aBadMirrorGetsTheURLRulesAnswer() {
        var request = TaskRequest(url: "https://a.example/f.iso")
        request.mirrors = ["ftp://b.example/f.iso"]
        #expect(throws: IntakeError.unsupportedScheme("ftp")) { try intake.newTask(request) }
        request.mirrors = ["https://"]
        #expect(throws: IntakeError.self) { try intake.newTask(request) }
    }

    /// Every mirror is asked for a sample before its ranges count, and every link is kept, shown and answered in
    /// `tellStatus`: 10,000 mirrors over one RPC call held a file's own ranges up for minutes. A task takes 64.
    @Test func aTaskTakesAtMost64Mirrors() throws {
        var request = TaskRequest(url: "https://a.example/f.iso")
        request.mirrors = (1...64).map { "https://m\($0).example/f.iso" }
        #expect(try intake.newTask(request).mirrors.count == 64)
        request.mirrors += ["https://m65.example/f.iso", "https://m1.example/f.iso"]
        #expect(throws: IntakeError.tooManyMirrors(count: 65, limit: 64)) { try intake.newTask(request) }
        #expect(IntakeError.tooManyMirrors(count: 65, limit: 64).description.contains("65 mirrors"))
        #expect(throws: IntakeError.tooManyMirrors(count: 65, limit: 64)) {
            try intake.commandLineTasks(urls: ["https://a.example/1"], mirrors: (1...65).map { "https://m\($0).example/1" })
        }
    }

    @Test func mirrorsOnTheCommandLineNeedExactlyOneURL() throws {
        #expect(throws: IntakeError.mirrorNeedsOneURL) {
            try intake.commandLineTasks(urls: ["https://a.example/1", "https://a.example/2"], mirrors: ["https://b.example/1"])
        }
        #expect(throws: IntakeError.mirrorNeedsOneURL) {
            try intake.commandLineTasks(urls: ["https://a.example/1"], hasInputFile: true, mirrors: ["https://b.example/1"])
        }
        // Plain URL1 URL2 stays two tasks.
        #expect(try intake.commandLineTasks(urls: ["https://a.example/1", "https://b.example/1"]).map(\.mirrors) == [[], []])
        let one = try intake.commandLineTasks(urls: ["https://a.example/1"], mirrors: ["https://b.example/1"])
        #expect(one.map(\.mirrors) == [["https://b.example/1"]])
    }
}

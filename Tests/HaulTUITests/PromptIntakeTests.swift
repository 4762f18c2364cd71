import HaulCore
import Testing
@testable import HaulTUI

/// The `a` prompt gives the core intake's verdict: the same bad URLs, the same messages as every other way in.
@Suite struct PromptIntakeTests {
    /// The URL rows of HaulCoreTests' intake table.
    static let badURLs: [(String, IntakeError)] = [
        ("ftp://example.org/f", .unsupportedScheme("ftp")),
        ("javascript:alert(1)", .unsupportedScheme("javascript")),
        ("example.org/f", .invalidURL("example.org/f")),
        ("https:///nohost", .invalidURL("https:///nohost")),
        ("http://example.org:70000/f", .invalidURL("http://example.org:70000/f")),
        ("https://alice:hunter2@example.org:0/x", .invalidURL("https://example.org:0/x")),
    ]

    @Test(arguments: badURLs)
    func thePromptRefusesWithTheIntakesMessage(text: String, verdict: IntakeError) {
        let (state, commands) = UIStateTests.press(
            [.character("a")] + UIStateTests.type(text) + [.enter], in: UIStateTests.context([]))
        #expect(commands.isEmpty)
        #expect(state.message == UIState.Message(verdict.description, isError: true))
        #expect(state.mode == .prompt(PromptField(text)))
        #expect(throws: verdict) { try TaskIntake(defaultDirectory: "/dl").promptTasks(text) }
    }

    @Test func thePromptQueuesWhatTheIntakeMakes() throws {
        let text = "HTTPS://example.org/a.iso  http://example.org/b.iso"
        let (_, commands) = UIStateTests.press(
            [.character("a")] + UIStateTests.type(text) + [.enter], in: UIStateTests.context([]))
        #expect(commands == [.add(try TaskIntake(defaultDirectory: "/dl").promptTasks(text))])
        #expect(commands == [.add([
            NewTask(url: "https://example.org/a.iso", directory: "/dl"), NewTask(url: "http://example.org/b.iso", directory: "/dl"),
        ])])
    }
}

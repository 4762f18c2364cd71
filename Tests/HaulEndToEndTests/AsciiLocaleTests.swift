import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Under `LANG=C` the live list cannot draw other characters than ASCII: names keep their ASCII parts with `?`
/// for each other character, and the columns after them line up.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TmuxDriver.isAvailable, "tmux is not installed"))
struct AsciiLocaleTests {
    @Test func nonASCIINamesShowAQuestionMarkPerCharacterAndRowsLineUp() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        for (index, path) in ["/%E3%83%87%E3%83%BC%E3%82%BF.bin", "/emoji-%F0%9F%98%80.bin", "/plain.bin"].enumerated() {
            var slow = FaultPlan.file(size: 64 << 20, seed: UInt64(90 + index))
            slow.throttle = 64 << 10
            server.route(path.removingPercentEncoding ?? path, slow)
        }
        let run = try HaulRun()
        let haul = try HaulProcess.binary(named: "haul").path
        let urls = ["/%E3%83%87%E3%83%BC%E3%82%BF.bin", "/emoji-%F0%9F%98%80.bin", "/plain.bin"].map { "'\(server.url($0))'" }
        let tmux = try TmuxDriver(
            command: "env LANG=C LC_ALL=C \(haul) --state-dir \(run.state) -d \(run.downloads) -j 3 -s 1 " + urls.joined(separator: " "))
        defer { tmux.kill() }
        // The header (the first line) counts them; the footer's "max 3 running" is the limit, not the count.
        let screen = try await tmux.waitFor("three running rows") { screen in
            screen.split(separator: "\n").first?.contains("3 running") == true && screen.contains("plain.bin")
        }
        let lines = screen.split(separator: "\n").map(String.init)
        let japanese = try #require(lines.first { $0.contains("? ? ? .bin") }, "\(screen)")
        let emoji = try #require(lines.first { $0.contains("emoji-? .bin") }, "\(screen)")
        let plain = try #require(lines.first { $0.contains("plain.bin") }, "\(screen)")
        // The bar after the name starts in the same column on every row.
        let barColumn = { (line: String) in line.firstIndex(of: "#").map { line.distance(from: line.startIndex, to: $0) } }
        let columns = [japanese, emoji, plain].map(barColumn)
        #expect(columns[2] != nil && columns[0] == columns[2] && columns[1] == columns[2], "\(screen)")
        let allASCII = screen.allSatisfy { $0.isASCII }
        #expect(allASCII, "\(screen)")
        // Symbols with an ASCII look-alike use it: no speed yet is `-`, not `?`.
        #expect(!plain.contains("?"), "\(plain)")
    }
}

import Foundation
import HaulCore
import Testing
@testable import HaulSettings

/// Hostile settings files: many rules are read in time linear in the file, a file over `SettingsFile.maxBytes` is
/// refused before it is read, and a NUL (which toml++ stops at) is refused with its line. The time limit bounds the
/// reading: finding each rule's header by reading every header took 10 s for 20,000 rules.
@Suite(.timeLimit(.minutes(1))) struct SettingsFileLimitsTests {
    static let path = "/home/u/.config/haul/config.toml"

    static func rules(_ count: Int) -> String {
        (0..<count).map { "[[rule]]\nhost = \"h\($0).example.org\"\nsplit = 2\n" }.joined()
    }

    @Test func eachRuleHeaderIsFoundWithoutReadingEveryHeader() {
        // 60,000 entries: reading every header for each entry is over 10^9 steps, minutes; an index takes moments.
        let count = 60_000
        let lines = TOMLKeyLines("[table]\nkey = 1\n" + Self.rules(count))
        #expect(lines.headerLine(of: "table") == 1)
        #expect(lines.headerLine(of: "rule") == 3)
        var wrong: [Int] = []
        for entry in 0..<count where lines.headerLine(ofArray: "rule", entry: entry) != 3 + 3 * entry { wrong.append(entry) }
        #expect(wrong.isEmpty, "first entries with a wrong line: \(wrong.prefix(5))")
        #expect(lines.headerLine(ofArray: "rule", entry: count) == nil)
        #expect(lines.line(of: "split", inArray: "rule", entry: count - 1) == 3 * count + 2)
    }

    @Test func twentyThousandRulesKeepTheirLines() throws {
        let file = try SettingsFile.parse(Self.rules(20_000), path: Self.path)
        #expect(file.rules.count == 20_000)
        #expect(file.rules.last?.origin == "\(Self.path):\(3 * 19_999 + 1)")
        #expect(file.rules.last?.host.pattern == "h19999.example.org")
    }

    /// A scratch directory for one test.
    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/haul-settings-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test(arguments: [Int64(SettingsFile.maxBytes) + 1, 200 << 20])
    func aFileOverTheLimitIsRefusedByItsSize(size: Int64) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        // Sparse: its size is on record without writing (or, with the limit, reading) its bytes.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("dir = \"/tmp\"\n".utf8)))
        #expect(truncate(path, off_t(size)) == 0)
        #expect(throws: SettingsFileError.tooLarge(path: path, bytes: size, limit: SettingsFile.maxBytes)) {
            try SettingsFile.read(path: path, optional: true)
        }
        let message = SettingsFileError.tooLarge(path: path, bytes: size, limit: SettingsFile.maxBytes).description
        #expect(message.contains(path) && message.contains("\(size) bytes") && message.contains("4.0 MiB"), "\(message)")
    }

    @Test func aFileWithoutASizeIsReadOnlyUpToTheLimit() {
        // A character device says size 0 and never ends: the read stops one byte past the limit.
        #expect(throws: SettingsFileError.tooLarge(path: "/dev/zero", bytes: Int64(SettingsFile.maxBytes) + 1, limit: SettingsFile.maxBytes)) {
            try SettingsFile.read(path: "/dev/zero", optional: false)
        }
    }

    @Test func aFileAtTheLimitIsRead() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        let line = "max-concurrent = 3\n"
        let padding = "#" + String(repeating: "x", count: SettingsFile.maxBytes - line.utf8.count - 2) + "\n"
        #expect(FileManager.default.createFile(atPath: path, contents: Data((line + padding).utf8)))
        let file = try #require(try SettingsFile.read(path: path, optional: false))
        #expect(file.values[.maxConcurrent]?.value == .int(3))
    }

    @Test(arguments: [
        ("split = 4\0\nretries = 3\n", 1),
        ("split = 4\nretries = 3\n# note \0\n", 3),
        ("[[rule]]\nhost = \"a.example.org\"\nheader = \"X-A: \\u0000tail\"\n", 3),
        ("header = [\"X-A: b\", \"\"\"\nX-B: \\U00000000\"\"\"]\n", 2),
    ])
    func aNULIsRefusedWithItsLine(text: String, line: Int) {
        do {
            let file = try SettingsFile.parse(text, path: Self.path)
            Issue.record("read: \(file.values) \(file.rules)")
        } catch {
            guard case let .syntax(path, found, message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == Self.path && found == line && message.contains("NUL"), "\(error)")
        }
    }

    @Test func anEscapedBackslashBeforeU0000IsNotANUL() throws {
        let file = try SettingsFile.parse("header = \"X-A: \\\\u0000\"\n", path: Self.path)
        #expect(file.values[.header]?.value == .strings(["X-A: \\u0000"]))
    }
}

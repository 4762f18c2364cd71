import HaulCore
import Testing
@testable import HaulSettings

/// The settings file's reader: values with their lines, and every error naming the file, the line and the key.
@Suite struct SettingsFileTests {
    static let path = "/home/u/.config/haul/config.toml"

    func parse(_ text: String) throws(SettingsFileError) -> SettingsFile {
        try SettingsFile.parse(text, path: Self.path)
    }

    func error(_ text: String) -> SettingsFileError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesKeepTheirLines() throws {
        let file = try parse("""
            # my settings
            dir = "~/Downloads"

            max-concurrent = 4
            limit-rate = "2M"
            min-split-size = 8388608
            header = "X-Team: blue"
            notify = true
            """)
        #expect(file.values[.dir] == .init(.string(HomePath.expanding("~/Downloads")), line: 2), "a path's ~ is the home")
        #expect(!HomePath.expanding("~/Downloads").hasPrefix("~"))
        #expect(file.values[.maxConcurrent] == .init(.int(4), line: 4))
        #expect(file.values[.limitRate] == .init(.string("2M"), line: 5))
        #expect(file.values[.minSplitSize] == .init(.int(8_388_608), line: 6))
        #expect(file.values[.header] == .init(.strings(["X-Team: blue"]), line: 7), "a single text is a list of one")
        #expect(file.values[.notify] == .init(.bool(true), line: 8))
    }

    @Test func aTypoNamesFileLineKeyAndTheNearestKey() {
        let found = error("dir = \"/tmp\"\nmax-concurent = 4\n")
        #expect(found == .unknownKey(path: Self.path, line: 2, key: "max-concurent", section: nil, suggestion: "max-concurrent"))
        #expect(found?.description == "\(Self.path):2: unknown key 'max-concurent' (did you mean 'max-concurrent'?)")
        #expect(error("colour = true\n")?.description == "\(Self.path):1: unknown key 'colour'")
    }

    @Test func aWrongTypeNamesTheTypeExpected() {
        let found = error("\n\nretries = \"five\"\n")
        #expect(found == .wrongType(path: Self.path, line: 3, key: "retries", section: nil, expected: .int, found: "a text"))
        #expect(found?.description == "\(Self.path):3: key 'retries' must be a whole number, not a text")
        #expect(error("notify = 1")?.description == "\(Self.path):1: key 'notify' must be true or false, not a whole number")
    }

    @Test func aBadValueSaysWhy() {
        #expect(error("split = 40")?.description == "\(Self.path):1: key 'split': must be between 1 and 16, got 40")
        #expect(error("a = 1\n")?.description.hasPrefix("\(Self.path):1: unknown key 'a'") == true)
        let rate = error("timeout = 30\nlimit-rate = \"fast\"")
        #expect(rate?.description == "\(Self.path):2: key 'limit-rate': 'fast' is not a rate like 500K, 2M or 1048576 (bytes per second; 0 for none)")
        #expect(error("all-proxy = \"ftp://proxy\"")?.description.hasPrefix("\(Self.path):1: key 'all-proxy': ") == true)
    }

    @Test func theRPCSecretIsNeverAKey() {
        let found = error("rpc-secret = \"hunter2hunter2\"")
        #expect(found?.description.contains("\(Self.path):1: key 'rpc-secret' is not allowed here") == true)
        #expect(found?.description.contains("rpc-secret-file") == true)
        #expect(found?.description.contains("HAUL_RPC_SECRET") == true)
        #expect(found?.description.contains("hunter2") == false)
    }

    @Test func notTOMLIsASyntaxErrorWithItsLine() {
        guard case let .syntax(path, line, _)? = error("dir = \"/tmp\"\nsplit = = 3\n") else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(path == Self.path && line == 2)
        // The precheck refuses what toml++ would assert on (moved here from the theme reader).
        guard case .syntax(_, 1, _)? = error("[ü]\n") else {
            Issue.record("expected the precheck's syntax error")
            return
        }
    }

    @Test func rulesAndCategoriesKeepWhereTheyAreWritten() throws {
        let file = try parse("""
            split = 2

            [[rule]]
            host = "*.example.org"
            split = 8
            limit-rate = "1M"
            header = ["X-Key: 1"]
            user-agent = "fetcher"
            dir = "/srv/example"

            [[rule]]
            host = "localhost"
            all-proxy = "http://127.0.0.1:8888"

            [[category]]
            extensions = ["MP4", ".mkv"]
            content-types = ["video/*"]
            dir = "~/Videos"
            """)
        #expect(file.rules.count == 2)
        #expect(file.rules[0].host.pattern == "*.example.org" && file.rules[0].origin == "\(Self.path):3")
        #expect(file.rules[0].split == 8 && file.rules[0].rateLimit == 1 << 20 && file.rules[0].headers == ["X-Key: 1"])
        #expect(file.rules[0].userAgent == "fetcher" && file.rules[0].directory == "/srv/example")
        #expect(file.rules[1].allProxy == "http://127.0.0.1:8888" && file.rules[1].origin == "\(Self.path):11")
        #expect(file.categories == [DownloadCategory(
            extensions: ["mp4", "mkv"], contentTypes: ["video/*"], directory: "~/Videos", origin: "\(Self.path):15")])
        #expect(file.values[.split]?.line == 1)
    }

    /// A file saved with Windows line ends keeps its lines: "\r\n" is one `Character`, so a split on "\n" saw one
    /// line, and every key after the first was named at line 0 (in errors and in `haul config`).
    @Test func windowsLineEndsKeepTheLines() throws {
        let file = try parse("split = 2\r\nretries = 3\r\n\r\n[[rule]]\r\nhost = \"a.example\"\r\nsplit = 8\r\n")
        #expect(file.values[.retries]?.line == 2)
        #expect(file.rules.first?.origin == "\(Self.path):4" && file.rules.first?.split == 8)
        #expect(error("split = 2\r\nmax-concurent = 4\r\n")?.description
            == "\(Self.path):2: unknown key 'max-concurent' (did you mean 'max-concurrent'?)")
        #expect(error("[[rule]]\r\nhost = \"a\"\r\nsplit = 99\r\n")?.description
            == "\(Self.path):3: key 'split' in [[rule]]: must be between 1 and 16, got 99")
    }

    @Test func ruleErrorsNameTheLineAndTheSection() {
        let typo = error("[[rule]]\nhost = \"a.example\"\nspilt = 3\n")
        #expect(typo?.description == "\(Self.path):3: unknown key 'spilt' in [[rule]] (did you mean 'split'?)")
        #expect(error("[[rule]]\nsplit = 3\n")?.description.hasPrefix("\(Self.path):1: [[rule]] needs host") == true)
        // A single table is named as written, not as the form it should take.
        #expect(error("[rule]\nhost = \"a\"\n")?.description.hasPrefix("\(Self.path):1: [rule] must be written [[rule]]") == true)
        #expect(error("rule = 3\n")?.description.hasPrefix("\(Self.path):1: rule = … must be written [[rule]]") == true)
        #expect(error("x = 1\n[[rule]]\nhost = \"a\"\nsplit = 99\n")?.description.hasPrefix("\(Self.path):1: unknown key 'x'") == true)
        #expect(error("[[rule]]\nhost = \"a\"\nsplit = 99\n")?.description == "\(Self.path):3: key 'split' in [[rule]]: must be between 1 and 16, got 99")
        #expect(error("[[category]]\nextensions = [\"mp4\"]\n")?.description.hasPrefix("\(Self.path):1: [[category]] needs dir") == true)
        #expect(error("[[category]]\ndir = \"/v\"\nextensions = \"mp4\"\n")?.description
            == "\(Self.path):3: key 'extensions' in [[category]] must be \(SettingKind.strings.rawValue), not a text")
    }

    /// Every problem of the file is reported, one a line in the file's order, not only the first.
    @Test func everyProblemIsReportedInTheFilesOrder() {
        let problem = error("spilt = 3\nretries = \"x\"\n[[rule]]\nhost = \"a\"\nsplit = 99\n[[rule]]\nsplit = 2\n")
        let lines = problem?.description.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.hasPrefix("\(Self.path):1: unknown key 'spilt'") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("\(Self.path):2: key 'retries'") == true, "\(lines)")
        #expect(lines.dropFirst(2).first?.hasPrefix("\(Self.path):5: key 'split' in [[rule]]") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("\(Self.path):6: [[rule]] needs host") == true, "\(lines)")
    }

    /// A rule's cap keeps the form the file wrote it in, to be shown back.
    @Test func aRulesLimitKeepsItsWrittenForm() throws {
        let file = try parse("[[rule]]\nhost = \"a.example\"\nlimit-rate = \"500K\"\n")
        #expect(file.rules.first?.rateLimitText == "500K" && file.rules.first?.rateLimit == 500 << 10)
    }

    @Test func keysInsideMultilineValuesAreNotMistakenForKeys() throws {
        let file = try parse("""
            header = [
              "A: 1",
              "B: 2",
            ]
            on-download-complete = \"\"\"x
            y = z\"\"\"
            retries = 2
            """)
        #expect(file.values[.retries]?.line == 7)
        #expect(file.values[.header]?.line == 1)
    }
}

import Foundation
import HaulTestSupport
import Testing

/// haul(1) as `make install` writes it (Sources/haul-manual, man/*.mdoc): lint-clean, every form in SYNOPSIS, each
/// option once with its value, the sections a reader of curl(1) or aria2c(1) looks for, each exit status.
@Suite(
    .timeLimit(.minutes(2)),
    .enabled(if: BuiltTools.haulManual != nil || BuiltTools.madeByMake, "haul-manual is not built"))
struct ManualTests {
    /// The page's mdoc source as installed into a fresh prefix, and the page rendered by man at 100 columns.
    static func installedPage() async throws -> (source: String, rendered: String) {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let (installed, out, err) = try await InstallTests.run(
            InstallTests.repository + "/scripts/install.sh",
            [InstallTests.binDirectory, prefix.path, prefix.path, try InstallTests.requireHaulManual()])
        try #require(installed == 0, "\(out)\n\(err)")
        let path = prefix.file("share/man/man1/haul.1")
        let (man, rendered, manErrors) = try await InstallTests.run(
            "/usr/bin/man", ["-l", path], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
        #expect(man == 0 && manErrors.isEmpty, "\(manErrors)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") {
            let (lint, lintOut, lintErr) = try await InstallTests.run("/usr/bin/mandoc", ["-T", "lint", "-W", "warning", path])
            #expect(lint == 0 && lintOut.isEmpty && lintErr.isEmpty, "\(lintOut)\(lintErr)")
        }
        return (try String(contentsOfFile: path, encoding: .utf8), rendered)
    }

    @Test func thePageHasEachFormEachSectionAndEachOptionOnce() async throws {
        let (source, rendered) = try await Self.installedPage()
        let headings = source.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        #expect(headings == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "SETTINGS FILE",
                             "SCHEDULES", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"])
        // The URL form and each command's.
        #expect(rendered.contains("haul [options] [url ...]"), "\(rendered.prefix(1500))")
        for form in ["haul add [options] [urls ...]", "haul pause [options] [ids ...]", "haul set-url [options] id url"] {
            #expect(rendered.contains(form), "\(form)")
        }
        // Each option once in OPTIONS, with its value, in a group the README has (none left over).
        #expect(!source.contains("Other options"))
        let items = source.split(separator: "\n").filter { $0.hasPrefix(".It Fl ") }
        #expect(items.filter { $0.contains("Fl -limit-rate ") }.count == 1)
        #expect(items.contains(".It Fl j , Fl -max-concurrent Ar n"), "\(items)")
        #expect(items.contains(".It Fl -limit-rate Ar rate"), "\(items)")
        #expect(!rendered.contains("--limit-rate limit-rate"))
        // --no-notify is named as notify's inverse, not described as --notify.
        #expect(source.contains(".It Fl -notify , Fl -no-notify"))
        #expect(rendered.contains("--no-notify turns it off"))
        // Defaults and choices from the registry.
        #expect(rendered.contains("One of: auto, off."))
        // Every exit status with its meaning; the keys of the live list.
        for status in ["0", "1", "2", "3", "130"] { #expect(source.contains("\n.It \(status)\n"), "exit status \(status)") }
        #expect(rendered.contains("Interrupted by a signal"))
        #expect(source.contains(".It Sy e\n") && source.contains(".It Sy z\n"))
        #expect(!rendered.contains("haul help"))
        #expect(source.components(separatedBy: "\n.Dl haul ").count - 1 >= 10)
        #expect(source.contains(".Xr aria2c 1") && source.contains(".Xr curl 1") && source.contains(".Xr yt-dlp 1"))
        #expect(source.contains("Ev NO_COLOR") && source.contains("Ev XDG_STATE_HOME") && source.contains("Ev http_proxy"))
    }
}

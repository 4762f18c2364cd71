import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// glibc's own wcwidth, reached without the C shim (HaulTUITests cannot import it).
enum SystemWidth {
    typealias Function = @convention(c) (UInt32) -> Int32

    /// wcwidth in the C.UTF-8 locale; nil when the C library does not export it.
    static let wcwidth: Function? = {
        setlocale(LC_CTYPE, "C.UTF-8")
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}

@Suite struct DisplayWidthTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    @Test(arguments: [
        ("abc", 3), ("電影", 4), ("Ａｂ", 4), ("😀", 2), ("e\u{301}", 1), ("👨‍👩‍👧", 6), ("❤️", 1),
        ("🇯🇵", 2), ("한국어", 6), ("a\u{200B}b", 2), ("⏸▶·✗✓", 5), ("", 0),
    ])
    func widthsAgreeWithWhatNcurseswDraws(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells)
    }

    @Test func truncatesCJKByGraphemeWithAnEllipsis() {
        let name = "電影-第一集-超長的檔案名稱.mkv"
        #expect(DisplayWidth.truncated(name, to: 20) == "電影-第一集-超長的…")
        #expect(DisplayWidth.of(DisplayWidth.truncated(name, to: 20)) == 19)
        #expect(DisplayWidth.truncated(name, to: 10) == "電影-第一…")
        #expect(DisplayWidth.truncated(name, to: 1) == "…")
        #expect(DisplayWidth.truncated(name, to: 0) == "")
        #expect(DisplayWidth.truncated("short", to: 10) == "short")
    }

    @Test func neverSplitsCombiningSequencesOrZWJEmoji() {
        #expect(DisplayWidth.truncated("cafe\u{301}-au-lait", to: 5) == "cafe\u{301}…")
        #expect(DisplayWidth.truncated("ab👨‍👩‍👧cd", to: 7) == "ab…")
        #expect(DisplayWidth.truncated("ab👨‍👩‍👧cd", to: 9) == "ab👨‍👩‍👧…")
    }

    @Test func fitsAndPadsToAnExactWidth() {
        #expect(DisplayWidth.fitted("電影", to: 6) == "電影  ")
        #expect(DisplayWidth.fitted("電影", to: 6, alignment: .right) == "  電影")
        #expect(DisplayWidth.of(DisplayWidth.fitted("電影電影電影", to: 7)) == 7)
    }

    @Test func controlCharactersAreReplacedNotDrawn() {
        #expect(DisplayWidth.sanitized("\u{1B}") == "\u{FFFD}")
        #expect(DisplayWidth.sanitized("\r\n") == "\u{FFFD}")
        #expect(DisplayWidth.sanitized("\u{9B}") == "\u{FFFD}")
        #expect(DisplayWidth.sanitized("a") == "a")
    }

    /// The generated table must agree with the running glibc for every scalar it can print; scalars glibc
    /// calls unprintable (unassigned) count 1 here and the painter swaps them for U+FFFD.
    @Test func tableAgreesWithGlibcForEveryScalar() throws {
        let wcwidth = try #require(SystemWidth.wcwidth)
        var disagreements: [String] = []
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !scalar.isControlCharacter else { continue }
            let system = Int(wcwidth(value))
            let ours = DisplayWidth.of(scalar)
            if system >= 0 ? ours != system : ours != 1 {
                disagreements.append(String(value, radix: 16) + ": glibc \(system), table \(ours)")
            }
            if disagreements.count > 20 { break }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// Prints the table from the running glibc: `HAUL_PRINT_WIDTH_TABLE=1 swift test --filter DisplayWidthTableDump`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HAUL_PRINT_WIDTH_TABLE"] != nil))
    func DisplayWidthTableDump() throws {
        let wcwidth = try #require(SystemWidth.wcwidth)
        var ranges: [Int: [(UInt32, UInt32)]] = [0: [], 2: []]
        var start: UInt32 = 1
        var current = Int(wcwidth(1))
        for value in UInt32(2)...0x110000 {
            let width = value > 0x10FFFF || (0xD800...0xDFFF).contains(value) ? -9 : Int(wcwidth(value))
            if width != current {
                if current == 0 || current == 2 { ranges[current]?.append((start, value - 1)) }
                (start, current) = (value, width)
            }
        }
        for (name, width) in [("zeroWidthRanges", 0), ("wideRanges", 2)] {
            print("    static let \(name): [UInt32] = [")
            let items = (ranges[width] ?? []).map { "0x" + String($0.0, radix: 16, uppercase: true) + ", 0x" + String($0.1, radix: 16, uppercase: true) }
            for chunk in stride(from: 0, to: items.count, by: 5) {
                print("        " + items[chunk..<min(chunk + 5, items.count)].joined(separator: ", ") + ",")
            }
            print("    ]")
        }
    }
}

import Foundation
import Testing
import Glibc
import HaulCore

/// The shared formatters every front end uses: percent and free space.
@Suite struct FormattingTests {
    @Test(arguments: [(0.0, "0.0%"), (0.5, "50.0%"), (0.9995, "99.9%"), (0.99999, "99.9%"), (1.0, "100.0%"), (0.1234, "12.3%"),
                      (-0.2, "0.0%"), (1.7, "100.0%")])
    func percentNeverRoundsUpTo100(fraction: Double, text: String) {
        #expect(PercentFormat.text(fraction: fraction) == text)
    }

    @Test func percentOfBytes() {
        #expect(PercentFormat.text(done: 552, total: 1000, isComplete: false) == "55.2%")
        #expect(PercentFormat.text(done: 999, total: 1000, isComplete: false) == "99.9%")
        #expect(PercentFormat.text(done: 10, total: nil, isComplete: false) == "—")
        #expect(PercentFormat.text(done: 0, total: 0, isComplete: false) == "—")
        // A complete task is whole, also when it has no bytes or an unknown size.
        #expect(PercentFormat.text(done: 0, total: 0, isComplete: true) == "100.0%")
        #expect(PercentFormat.text(done: 7, total: nil, isComplete: true) == "100.0%")
    }

    @Test func freeSpaceGuardsAgainstOverflow() {
        #expect(FreeSpace.bytes(availableBlocks: 10, blockSize: 4096) == 40_960)
        #expect(FreeSpace.bytes(availableBlocks: UInt64.max, blockSize: 4096) == Int64.max)
        #expect(FreeSpace.bytes(availableBlocks: UInt64(Int64.max) + 1, blockSize: 1) == Int64.max)
    }

    @Test func freeSpaceOfARealDirectory() throws {
        let free = try #require(FreeSpace.bytes(at: "/tmp"))
        #expect(free >= 0)
        #expect(FreeSpace.bytes(at: "/no/such/directory/for/haul") == nil)
        let descriptor = open("/tmp", O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(FreeSpace.bytes(onFileSystemOf: descriptor) != nil)
        #expect(FreeSpace.bytes(onFileSystemOf: -1) == nil)
    }
}

@Suite struct JSONStringLiteralTests {
    @Test func escapesQuotesBackslashesAndEveryControlCharacter() throws {
        let text = "a\"b\\c\nd\re\tf\u{1}g\u{7f}h\u{85}i/é😀"
        let literal = text.jsonStringLiteral
        #expect(literal == #""a\"b\\c\nd\re\tf\u0001g\u007fh\u0085i/é😀""#)
        let decoded = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == text)
    }
}

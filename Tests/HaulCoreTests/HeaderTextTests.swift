import Testing
@testable import HaulCore

@Suite struct HeaderTextTests {
    @Test func validUTF8StaysUTF8() {
        #expect(HeaderText.decode(Array("電影 café.mp4".utf8)) == "電影 café.mp4")
        #expect(HeaderText.decode([UInt8]()) == "")
    }

    @Test func otherBytesAreLatin1() {
        #expect(HeaderText.decode(Array("caf".utf8) + [0xE9] + Array(".txt".utf8)) == "café.txt")
        // A truncated UTF-8 sequence is not UTF-8: every byte is read on its own.
        #expect(HeaderText.decode([0x61, 0xE9, 0x9B]) == "a\u{E9}\u{9B}")
        #expect(HeaderText.latin1([0xFF, 0x41]) == "ÿA")
    }

    @Test func aLatin1QuotedFileNameSurvivesSanitising() {
        let value = HeaderText.decode(Array("attachment; filename=\"caf".utf8) + [0xE9] + Array(".txt\"".utf8))
        #expect(ContentDisposition.fileName(from: value).flatMap(SafeFileName.sanitize) == "café.txt")
    }
}

import Foundation
import Testing
@testable import HaulTransfer

/// AES-128-CBC as HLS uses it, checked against the openssl tool's own encryption.
struct SegmentDecryptorTests {
    static let key: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]
    static let iv: [UInt8] = Array((0...15).reversed())

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// `openssl aes-128-cbc -e` of `plain` (with PKCS#7 padding).
    static func encrypted(_ plain: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["aes-128-cbc", "-e", "-K", hex(key), "-iv", hex(iv)]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(plain))
        try input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](bytes)
    }

    @Test(arguments: [1, 15, 16, 188 * 396, 100_003])
    func opensslsCiphertextDecryptsToThePlainBytes(size: Int) throws {
        let plain = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let cipher = try Self.encrypted(plain)
        #expect(cipher.count == (size / 16 + 1) * 16, "PKCS#7 adds a block to whole blocks")
        #expect(try SegmentDecryptor.decrypt(cipher, key: Self.key, iv: Self.iv) == plain)
    }

    @Test func aWrongKeyOrACutSegmentIsBadPadding() throws {
        let cipher = try Self.encrypted(Array(repeating: 7, count: 1000))
        var wrong = Self.key
        wrong[0] ^= 1
        #expect(throws: SegmentDecryptor.Failure.badPadding) { try SegmentDecryptor.decrypt(cipher, key: wrong, iv: Self.iv) }
        #expect(throws: SegmentDecryptor.Failure.badPadding) { try SegmentDecryptor.decrypt(Array(cipher.dropLast(5)), key: Self.key, iv: Self.iv) }
        #expect(throws: SegmentDecryptor.Failure.badPadding) { try SegmentDecryptor.decrypt([], key: Self.key, iv: Self.iv) }
        #expect(throws: SegmentDecryptor.Failure.badKey(bytes: 15)) { try SegmentDecryptor.decrypt(cipher, key: Array(Self.key.prefix(15)), iv: Self.iv) }
    }

    @Test func aWrongIVChangesOnlyTheFirstBlock() throws {
        let plain = Array(repeating: UInt8(9), count: 64)
        let cipher = try Self.encrypted(plain)
        var iv = Self.iv
        iv[15] ^= 1
        let clear = try SegmentDecryptor.decrypt(cipher, key: Self.key, iv: iv)
        #expect(Array(clear.dropFirst(16)) == Array(plain.dropFirst(16)) && clear.prefix(16) != plain.prefix(16))
    }
}

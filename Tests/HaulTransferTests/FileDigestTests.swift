import Foundation
import HaulCore
@testable import HaulTransfer
import HaulTestSupport
import Testing

/// SHA-256 of files through OpenSSL, fed by the Swift read loop.
@Suite struct FileDigestTests {
    @Test func knownDigestsAndAFileOfSeveralChunksAsSha256sumGivesIt() async throws {
        let directory = try TemporaryDirectory()
        let empty = directory.file("empty"), abc = directory.file("abc"), large = directory.file("large")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = FileManager.default.createFile(atPath: abc, contents: Data("abc".utf8))
        let bytes = (0..<(2 * FileDigest.chunkSize + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        _ = FileManager.default.createFile(atPath: large, contents: Data(bytes))
        #expect(try FileDigest.sha256Hex(path: empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try FileDigest.sha256Hex(path: abc) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let tool = try HaulProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), arguments: [large])
        #expect(try await tool.waitForExit(timeout: .seconds(20)) == 0)
        #expect(try FileDigest.sha256Hex(path: large) == tool.stdoutText().split(separator: " ").first.map(String.init))
    }

    @Test func aSymlinkOrAMissingFileIsAnErrorNamingTheCall() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("target"), link = directory.file("link")
        _ = FileManager.default.createFile(atPath: target, contents: Data("abc".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for path in [link, directory.file("missing")] {
            #expect {
                try FileDigest.sha256Hex(path: path)
            } throws: { error in
                if case let .fileSystem(call, failedPath, _, _) = error as? DownloadError { return call == "open" && failedPath == path }
                return false
            }
        }
    }
}

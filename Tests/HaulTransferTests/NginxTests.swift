import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
import HaulTransfer
import Testing

/// Range, ETag and If-Range as a real server does them.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable)) struct NginxTests {
    static func content(_ size: Int, seed: UInt64) -> [UInt8] {
        FaultPlan.Body.generated(size: Int64(size), seed: seed).bytes()
    }

    @Test func pauseThenResumeContinuesWithA206() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let bytes = Self.content(32 << 20, seed: 41)
        try nginx.write(file: "movie.bin", bytes: bytes)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        var slow = TransferOptions(rateLimit: 2 << 20, stallTimeout: 5, diskReserve: 0, checkpointInterval: 0.2, split: 1)
        engine.start(request(1, url: nginx.url("/movie.bin"), directory: dir.path, options: slow))
        try await eventually("some progress", timeout: .seconds(10)) { (engine.position(of: TaskID(1)) ?? 0) > 500_000 }
        engine.driver.send(.pause(TaskID(1)))
        let outcome = try await engine.outcome(of: TaskID(1))
        guard case let .paused(durable) = outcome else {
            Issue.record("pause did not end in paused: \(outcome)")
            return
        }
        let first = try #require(engine.responses(of: TaskID(1)).first)
        #expect(first.validators.etag?.hasPrefix("\"") == true)
        #expect(first.totalBytes == 32 << 20)
        slow.rateLimit = nil
        engine.start(request(
            2, url: nginx.url("/movie.bin"), directory: dir.path, fileName: first.fileName, resumeFrom: durable,
            expectedTotal: first.totalBytes, validators: first.validators, options: slow))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "movie.bin", bytes: 32 << 20))
        expectSameBytes(contents(dir.path + "/movie.bin"), bytes)
        let last = try #require(nginx.accessEntries().last)
        #expect(last.status == 206)
        #expect(last.range == "bytes=\(durable)-")
        // nginx logs quotes as \x22.
        #expect(last.ifRange?.replacingOccurrences(of: "\\x22", with: "\"") == first.validators.etag)
        #expect(last.bodyBytesSent == Int64(32 << 20) - durable)
    }

    @Test func aChangedFileRestartsFromZero() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let old = Self.content(1 << 20, seed: 42)
        try nginx.write(file: "data.bin", bytes: old)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: nginx.url("/data.bin"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "data.bin", bytes: 1 << 20))
        let seen = try #require(engine.responses(of: TaskID(1)).first)

        // Pretend an earlier run kept 400,000 bytes of the old file, then the file changed on the server.
        // A different size, so nginx's ETag (mtime-size) changes even within the same second.
        let new = Self.content((1 << 20) + 1000, seed: 43)
        try nginx.write(file: "data.bin", bytes: new)
        #expect(FileManager.default.createFile(atPath: dir.path + "/next.bin.part", contents: Data(old[0..<400_000])))
        engine.start(request(
            2, url: nginx.url("/data.bin"), directory: dir.path, fileName: "next.bin", resumeFrom: 400_000,
            expectedTotal: 1 << 20, validators: seen.validators))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "next.bin", bytes: (1 << 20) + 1000))
        expectSameBytes(contents(dir.path + "/next.bin"), new)
        #expect(engine.responses(of: TaskID(2)).first?.restartReason == "remote file changed")
        #expect(nginx.accessEntries().last?.status == 200)
    }

    @Test func contentDispositionNamesFromARealServer() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        try nginx.write(file: "report.bin", bytes: Self.content(10_000, seed: 44))
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: nginx.url("/cd/report.bin"), directory: dir.path))
        engine.start(request(2, url: nginx.url("/cd/report.bin?name=%E5%A0%B1%E5%91%8A.pdf"), directory: dir.path))
        #expect(try await engine.outcome(of: TaskID(1)) == .completed(fileName: "report.bin", bytes: 10_000))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "報告.pdf", bytes: 10_000))
        #expect(listing(dir.path) == ["report.bin", "報告.pdf"])
    }
}

/// HTTPS with a private CA: verification stays on, `--ca-cert` makes it pass, and HTTP/2 resumes too.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct NginxTLSTests {
    @Test func verificationStaysOnAndAPrivateCAWorksOverHTTP2() async throws {
        let nginx = try await NginxFixture.start(tls: true)
        defer { nginx.stop() }
        let bytes = NginxTests.content(2 << 20, seed: 45)
        try nginx.write(file: "secure.bin", bytes: bytes)
        let dir = try TemporaryDirectory()
        let engine = EngineHarness()
        engine.start(request(1, url: nginx.url("/secure.bin"), directory: dir.path))
        guard let (error, _) = try await engine.failure(of: TaskID(1)) else { return }
        guard case .tls = error else {
            Issue.record("a self-signed certificate was accepted without --ca-cert")
            return
        }
        #expect(listing(dir.path).isEmpty)

        let trusted = TransferOptions(stallTimeout: 5, caCertificate: nginx.certificate, diskReserve: 0, checkpointInterval: 0.2, split: 1)
        // Half the file as if an earlier run had stopped there, then a resume over HTTP/2.
        engine.start(request(2, url: nginx.url("/secure.bin"), directory: dir.path, options: trusted))
        #expect(try await engine.outcome(of: TaskID(2)) == .completed(fileName: "secure.bin", bytes: 2 << 20))
        let first = try #require(engine.responses(of: TaskID(2)).first)
        #expect(FileManager.default.createFile(atPath: dir.path + "/again.bin.part", contents: Data(bytes[0..<1_000_000])))
        engine.start(request(
            3, url: nginx.url("/secure.bin"), directory: dir.path, fileName: "again.bin", resumeFrom: 1_000_000,
            expectedTotal: 2 << 20, validators: first.validators, options: trusted))
        #expect(try await engine.outcome(of: TaskID(3)) == .completed(fileName: "again.bin", bytes: 2 << 20))
        expectSameBytes(contents(dir.path + "/again.bin"), bytes)
        let last = try #require(nginx.accessEntries().last)
        #expect(last.status == 206)
        #expect(last.range == "bytes=1000000-")
    }
}

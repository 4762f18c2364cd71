import Foundation
import HaulTestSupport
import Testing

/// Every input in the fuzz corpora (Fuzz/Corpus/TARGET: seeds and the reproducers of what the fuzzers found) runs
/// through its target's checks in the normal build, so a fixed crash stays fixed without libFuzzer.
@Suite(.timeLimit(.minutes(1)))
struct FuzzCorpusTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path

    @Test(arguments: ["fuzz-json-rpc", "fuzz-url-intake", "fuzz-content-disposition", "fuzz-content-range", "fuzz-input-file",
                      "fuzz-theme", "fuzz-playlist"])
    func everySavedInputPassesItsTarget(target: String) async throws {
        let directory = Self.corpora + "/" + target
        let inputs = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!inputs.isEmpty)
        let replay = try HaulProcess(try HaulProcess.binary(named: target), arguments: [directory])
        #expect(try await replay.waitForExit(timeout: .seconds(30)) == 0, "\(replay.stderrText())")
        #expect(replay.stdoutText().contains("replayed \(inputs.count) inputs"), "\(replay.stdoutText())")
    }
}

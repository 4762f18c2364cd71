import Foundation
@testable import HaulCore
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hooks run bounded and apart from haul's own output.
@Suite(.timeLimit(.minutes(1))) struct DownloadHooksTests {
    /// A hook that never exits is stopped after its time, with a warning; it never had haul's stdout or stderr.
    @Test func aHookThatNeverExitsIsStoppedAndHasNoneOfHaulsStreams() async throws {
        let warnings = PthreadMutex<[String]>([])
        let pid = try DownloadHooks.launch("/bin/sleep", arguments: ["1000"], timeout: .milliseconds(300)) { line in
            warnings.withLock { $0.append(line) }
        }
        let output = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/1")
        let errors = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/2")
        #expect(output == "/dev/null" && errors == "/dev/null", "\(output) \(errors)")
        try await eventually("the hook was stopped", timeout: .seconds(10)) {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?
                .split(separator: " ").first
            return state == nil || state == "Z" || state == "X"
        }
        #expect(warnings.withLock { $0 } == ["hook /bin/sleep did not finish within 0.3 seconds: stopped"])
    }
}

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

    /// A hook is started with the environment `HookEnvironment` gives: the RPC secret is not in it.
    @Test func aHookDoesNotInheritTheRPCSecret() async throws {
        setenv("HAUL_RPC_SECRET", "s3cret-token", 1)
        defer { unsetenv("HAUL_RPC_SECRET") }
        let pid = try DownloadHooks.launch("/bin/sleep", arguments: ["1000"], timeout: .milliseconds(500)) { _ in }
        defer { kill(pid, SIGKILL) }
        // Its environment shows once it has started the command.
        let environ = try await eventuallyValue("the hook's environment", timeout: .seconds(10)) { () -> String? in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? ""
            return text.contains("PATH=") ? text : nil
        }
        #expect(environ.contains("PATH="))
        #expect(!environ.contains("s3cret-token"), "the hook got the RPC secret")
    }
}

/// What a hook's environment keeps of haul's.
struct HookEnvironmentTests {
    @Test func theRPCSecretAndProxyLoginsAreNotHandedOn() {
        let environment = HookEnvironment.forHooks([
            "HAUL_RPC_SECRET": "s3cret-token", "PATH": "/usr/bin", "HOME": "/root",
            "http_proxy": "http://puser:ppass@127.0.0.1:3128", "HTTPS_PROXY": "puser:ppass@127.0.0.1:3128",
            "all_proxy": "socks5h://127.0.0.1:1080", "no_proxy": "localhost",
        ])
        #expect(environment == [
            "PATH": "/usr/bin", "HOME": "/root", "all_proxy": "socks5h://127.0.0.1:1080", "no_proxy": "localhost",
        ])
    }
}

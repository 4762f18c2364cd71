import Foundation

/// The environment a hook (`--on-download-complete`, `--on-download-error`, `--on-link-expired`) runs with: haul's
/// own, less what is secret. The RPC secret is not handed on, and neither is a proxy variable that carries a login
/// (a hook that needs the proxy is given it without one only by the user's own setup, never haul's credentials).
public enum HookEnvironment {
    /// Variables a hook never gets.
    static let secretNames: Set<String> = ["HAUL_RPC_SECRET"]
    /// Variables naming a proxy, any case (curl reads both spellings).
    static let proxyNames: Set<String> = ["http_proxy", "https_proxy", "all_proxy"]

    /// `environment` without its secrets.
    public static func forHooks(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        environment.filter { name, value in
            if secretNames.contains(name) { return false }
            if proxyNames.contains(name.lowercased()), ProxyURL.redacted(value) != value { return false }
            return true
        }
    }
}

import ArgumentParser
import Foundation
import HaulCore

/// How new tasks are added, from the resolved settings: headers, proxies, cookies and the file's rules.
extension RunSettings {
    /// `header` lines, then the ones `user-agent` and `referer` stand for.
    var allHeaders: [String] {
        strings(.header) + (string(.userAgent).map { ["User-Agent: \($0)"] } ?? [])
            + (string(.referer).map { ["Referer: \($0)"] } ?? [])
    }

    /// Proxy, cookies, netrc and stream settings as given.
    var access: AccessRequest {
        var access = AccessRequest(
            allProxy: string(.allProxy), noProxy: string(.noProxy), loadCookies: string(.loadCookies), netrcFile: string(.netrcFile))
        access.stream = string(.stream)
        access.streamQuality = string(.streamQuality)
        access.streamRemux = string(.streamRemux)
        access.liveLimit = string(.liveLimit)
        access.streamAudio = string(.streamAudio)
        access.streamSubs = string(.streamSubs)
        return access
    }

    /// The proxies of tasks added by this command, in the list it opens, or over its RPC: `all-proxy` and
    /// `no-proxy`, else this process's environment.
    func proxyDefaults() throws -> ProxySettings {
        do {
            // A bad variable matters only when no setting replaces it.
            let allProxy = string(.allProxy)
            let environment = allProxy != nil ? ProxySettings() : try ProxySettings.fromEnvironment(ProcessInfo.processInfo.environment)
            return try ProxySettings.resolve(allProxy: allProxy, noProxy: string(.noProxy), defaults: environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The intake for this run: tasks go into `dir`, the file's rules and categories apply.
    func intake(allowedDirectories: [String]? = nil) throws -> TaskIntake {
        var intake = TaskIntake(defaultDirectory: downloadDirectory, allowedDirectories: allowedDirectories, proxyDefaults: try proxyDefaults())
        intake.rules = intakeRules
        intake.defaultHeaders = allHeaders
        return intake
    }
}

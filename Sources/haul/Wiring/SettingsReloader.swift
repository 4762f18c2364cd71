import ArgumentParser
import Foundation
import HaulCore
import HaulRemote
import HaulSettings

/// A running haul's settings, read again on request (`haul config --reload`, SIGHUP to a daemon): what can change
/// live goes to the controller and to RPC's intake, what cannot is named as needing a restart (DESIGN §10).
/// The command line the haul started with still wins over the file.
actor SettingsReloader {
    private var settings: RunSettings
    private let controller: DownloadController
    private var dispatcher: RPCDispatcher?

    init(settings: RunSettings, controller: DownloadController) {
        self.settings = settings
        self.controller = controller
    }

    /// RPC's intake is replaced on each reload.
    func attach(_ dispatcher: RPCDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Reads the file again and applies it; a file with an error changes nothing.
    func reload() async -> SettingsReloadAnswer {
        var answer = SettingsReloadAnswer(file: settings.path)
        let new: RunSettings
        let options: TransferOptions
        let overall: RateLimit?
        let intake: TaskIntake
        do {
            new = try settings.reloaded()
            options = try new.transferOptions()
            overall = try new.overallLimit()
            intake = try new.intake(allowedDirectories: new.rpcAllowedDirectories)
        } catch let error as CommandFailure {
            answer.error = error.message
            return answer
        } catch let error as ValidationError {
            answer.error = error.message
            return answer
        } catch {
            answer.error = "\(error)"
            return answer
        }
        let changed = new.resolution.changedKeys(from: settings.resolution)
        for name in changed {
            let entry = new.resolution[name]
            let text = "\(name): \(Self.text(settings.resolution[name].shownValue)) → \(Self.text(entry.shownValue)) (\(entry.origin))"
            if entry.key.change == .live { answer.applied.append(text) } else { answer.needsRestart.append(text) }
        }
        if new.file?.rules != settings.file?.rules { answer.applied.append("rules: \(new.file?.rules.count ?? 0) for tasks added from now on") }
        if new.file?.categories != settings.file?.categories {
            answer.applied.append("categories: \(new.file?.categories.count ?? 0) for tasks added from now on")
        }
        await controller.applySettings(
            maxConcurrent: changed.contains(.maxConcurrent) ? new.maxConcurrent(stored: nil) : nil,
            retryPolicy: new.retryPolicy, transferOptions: options, overallLimit: overall)
        let proxies = intake.proxyDefaults
        dispatcher?.replaceSettings(
            intake: intake, runOptions: Aria2RunOptions(transfer: options, maxTries: new.retryPolicy.maxRetries, proxies: proxies))
        settings = new
        return answer
    }

    /// Reloads and says how it went in the log (for SIGHUP the log is the only one listening).
    @discardableResult
    func reloadAndReport(_ trigger: String) async -> SettingsReloadAnswer {
        let answer = await reload()
        for line in Self.lines(answer, trigger: trigger) { note(line) }
        return answer
    }

    /// What `haul config --reload` and the log say about `answer`.
    static func lines(_ answer: SettingsReloadAnswer, trigger: String) -> [String] {
        if let error = answer.error { return ["\(trigger): settings not reloaded, nothing changed: \(error)"] }
        var lines = ["\(trigger): settings reloaded from \(answer.file ?? "(no settings file)")"]
        if answer.applied.isEmpty && answer.needsRestart.isEmpty { lines.append("  nothing changed") }
        lines += answer.applied.map { "  applied  \($0)" }
        lines += answer.needsRestart.map { "  restart  \($0) (takes effect when haul starts again)" }
        return lines
    }

    static func text(_ value: SettingValue?) -> String {
        value?.description ?? "(none)"
    }
}

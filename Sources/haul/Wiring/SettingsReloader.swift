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
        do {
            return try await apply(settings.reloaded())
        } catch {
            var answer = SettingsReloadAnswer(file: settings.path)
            answer.error = Self.message(error)
            return answer
        }
    }

    /// Sets options of the run an RPC client changed (`changeGlobalOption`, checked there) over the file and the
    /// command line, until haul starts again; says why when they cannot be applied (nothing changes then).
    func change(_ changes: [OptionKey: SettingValue]) async -> String? {
        await apply(settings.changed(by: changes)).error
    }

    /// Applies `new`: what can change live goes to the controller and to RPC's intake and options; what cannot is
    /// named. Settings with an error change nothing.
    private func apply(_ new: RunSettings) async -> SettingsReloadAnswer {
        var answer = SettingsReloadAnswer(file: new.path)
        let options: TransferOptions
        let overall: RateLimit?
        let intake: TaskIntake
        do {
            options = try new.transferOptions()
            overall = try new.overallLimit()
            intake = try new.intake(allowedDirectories: new.rpcAllowedDirectories)
        } catch {
            answer.error = Self.message(error)
            return answer
        }
        let changed = new.resolution.changedKeys(from: settings.resolution)
        for key in changed {
            let entry = new.resolution[key]
            let text = "\(key): \(Self.text(settings.resolution[key].shownValue)) → \(Self.text(entry.shownValue)) (\(entry.origin))"
            if entry.key.change == .live { answer.applied.append(text) } else { answer.needsRestart.append(text) }
        }
        if new.file?.rules != settings.file?.rules { answer.applied.append("rules: \(new.file?.rules.count ?? 0) for tasks added from now on") }
        if new.file?.categories != settings.file?.categories {
            answer.applied.append("categories: \(new.file?.categories.count ?? 0) for tasks added from now on")
        }
        await controller.applySettings(
            maxConcurrent: changed.contains(.maxConcurrent) ? new.maxConcurrent(stored: nil) : nil,
            retryPolicy: new.retryPolicy, transferOptions: options, overallLimit: overall)
        dispatcher?.replaceSettings(intake: intake, runOptions: new.aria2Options(proxies: intake.proxyDefaults))
        settings = new
        return answer
    }

    /// A settings error as the user reads it.
    private static func message(_ error: any Error) -> String {
        if let error = error as? CommandFailure { return error.message }
        if let error = error as? ValidationError { return error.message }
        return "\(error)"
    }

    /// Applies an RPC client's changes and says so in the log.
    func changeAndReport(_ changes: [OptionKey: SettingValue]) async -> String? {
        let problem = await change(changes)
        let names = changes.keys.sorted().map(\.name).joined(separator: ", ")
        note(problem.map { "changeGlobalOption: \(names) not changed: \($0)" } ?? "changeGlobalOption: \(names) set until haul starts again")
        return problem
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

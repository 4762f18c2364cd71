import ArgumentParser
import HaulCore

/// How transfers behave, as the command line gives it; the run reads them through `RunSettings`, where the
/// settings file and the defaults fill what is not given here.
struct TransferFlags: ParsableArguments {
    // `.unconditional` takes `-3` (or `-1M`) as the value, so a negative number gets the range (or rate, or size)
    // message, not "Missing value".
    @Option(name: [.customShort("j"), .customLong(OptionKey.maxConcurrent.name)], parsing: .unconditional, help: OptionKey.maxConcurrent.argumentHelp)
    var maxConcurrent: Int?

    /// `--limit-rate` and `-s`, which `haul add` takes too.
    @OptionGroup var perTask: TaskTransferFlags

    @Option(name: .customLong(OptionKey.retries.name), parsing: .unconditional, help: OptionKey.retries.argumentHelp)
    var retries: Int?

    @Option(name: .customLong(OptionKey.timeout.name), parsing: .unconditional, help: OptionKey.timeout.argumentHelp)
    var timeout: Int?

    @Option(name: .customLong(OptionKey.caCert.name), help: OptionKey.caCert.argumentHelp, completion: OptionKey.caCert.completion)
    var caCertificate: String?

    @Option(name: .customLong(OptionKey.diskReserve.name), parsing: .unconditional, help: OptionKey.diskReserve.argumentHelp)
    var diskReserve: String?

    @Option(name: .customLong(OptionKey.minSplitSize.name), parsing: .unconditional, help: OptionKey.minSplitSize.argumentHelp)
    var minSplitSize: String?

    @Option(name: .customLong(OptionKey.maxOverallDownloadLimit.name), parsing: .unconditional,
            help: OptionKey.maxOverallDownloadLimit.argumentHelp)
    var maxOverallDownloadLimit: String?

    @Option(name: .customLong(OptionKey.maxHostConnections.name), parsing: .unconditional,
            help: OptionKey.maxHostConnections.argumentHelp)
    var maxHostConnections: Int?

    /// The settings these options give, by key.
    var commandLine: [OptionKey: SettingValue] {
        var values = perTask.commandLine
        values.given(.maxConcurrent, maxConcurrent.map(SettingValue.int))
        values.given(.retries, retries.map(SettingValue.int))
        values.given(.timeout, timeout.map(SettingValue.int))
        values.given(.caCert, caCertificate.map(SettingValue.string))
        values.given(.diskReserve, diskReserve.map(SettingValue.string))
        values.given(.minSplitSize, minSplitSize.map(SettingValue.string))
        values.given(.maxOverallDownloadLimit, maxOverallDownloadLimit.map(SettingValue.string))
        values.given(.maxHostConnections, maxHostConnections.map(SettingValue.int))
        return values
    }
}

/// The transfer options a task can carry on its own: the run applies them to all its tasks, `haul add` stores
/// them with the tasks it queues (as a settings rule's are), so whichever haul runs them uses them.
struct TaskTransferFlags: ParsableArguments {
    @Option(name: .customLong(OptionKey.limitRate.name), parsing: .unconditional, help: OptionKey.limitRate.argumentHelp)
    var limitRate: String?

    @Option(name: [.customShort("s"), .customLong(OptionKey.split.name)], parsing: .unconditional,
            help: OptionKey.split.argumentHelp)
    var split: Int?

    /// The settings these options give, by key.
    var commandLine: [OptionKey: SettingValue] {
        var values: [OptionKey: SettingValue] = [:]
        values.given(.limitRate, limitRate.map(SettingValue.string))
        values.given(.split, split.map(SettingValue.int))
        return values
    }

    /// What each task added keeps of the options given here, as `settings` checked them (`settings` holds
    /// `commandLine`).
    func stored(_ settings: RunSettings) throws -> TaskRequest.Transfer {
        let transfer = try settings.taskTransferOptions()
        return TaskRequest.Transfer(split: split.map { _ in transfer.split }, rateLimit: limitRate.map { _ in transfer.rateLimit ?? 0 })
    }
}

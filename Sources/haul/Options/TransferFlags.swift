import ArgumentParser
import HaulCore

/// How transfers behave, as the command line gives it; the run reads them through `RunSettings`, where the
/// settings file and the defaults fill what is not given here.
struct TransferFlags: ParsableArguments {
    // `.unconditional` takes `-3` as the value, so a negative number gets the range message, not "Missing value".
    @Option(name: [.customShort("j"), .customLong(OptionKey.maxConcurrent.name)], parsing: .unconditional, help: "Tasks running at once (default 3).")
    var maxConcurrent: Int?

    /// `--limit-rate` and `-s`, which `haul add` takes too.
    @OptionGroup var perTask: TaskTransferFlags

    @Option(parsing: .unconditional, help: "Retries of a transient error before a task fails (default 5).")
    var retries: Int?

    @Option(parsing: .unconditional, help: "Seconds without data before a transfer counts as stalled and is retried (default 30).")
    var timeout: Int?

    @Option(name: .customLong(OptionKey.caCert.name), help: "CA bundle to verify servers with instead of the system one (verification stays on).")
    var caCertificate: String?

    @Option(name: .customLong(OptionKey.diskReserve.name), help: "Free space to keep on the download filesystem, e.g. 64M (a task pauses below it; default 64M).")
    var diskReserve: String?

    @Option(name: .customLong(OptionKey.minSplitSize.name), help: "Smallest range one connection is given, e.g. 4M; smaller files use one connection (default 4M).")
    var minSplitSize: String?

    @Option(name: .customLong(OptionKey.maxOverallDownloadLimit.name), help: "Cap on all downloads together, e.g. 10M (bytes/s; 0 for none).")
    var maxOverallDownloadLimit: String?

    @Option(name: .customLong(OptionKey.maxHostConnections.name), parsing: .unconditional,
            help: "Connections open to one host across all downloads (default 8).")
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
    @Option(name: .customLong(OptionKey.limitRate.name), help: "Receive limit per task, e.g. 500K, 2M, 1.5G (bytes/s).")
    var limitRate: String?

    @Option(name: [.customShort("s"), .customLong(OptionKey.split.name)], parsing: .unconditional,
            help: "Connections per download (servers that cap each connection go faster with more; default 4).")
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

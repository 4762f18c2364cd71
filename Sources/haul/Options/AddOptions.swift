import ArgumentParser
import Foundation
import HaulCore

/// How to add links and where they go (the links themselves are `URLArguments`).
struct AddOptions: ParsableArguments {
    @Option(name: [.short, .customLong(OptionKey.dir.name)], help: OptionKey.dir.argumentHelp, completion: OptionKey.dir.completion)
    var directory: String?

    // `.unconditional`: `-o -rf` is that name (refused as one), not "Missing value".
    @Option(name: [.short, .customLong("output")], parsing: .unconditional,
            help: ArgumentHelp("File name for the single URL given.", valueName: "name"))
    var output: String?

    @Option(name: [.short, .customLong("input-file")], help: ArgumentHelp("File of URLs in aria2's format (out=, dir=, checksum= options).", valueName: "file"),
            completion: .file())
    var inputFile: String?

    @Option(name: [.customShort("H"), .customLong(OptionKey.header.name)], help: OptionKey.header.argumentHelp)
    var headers: [String] = []

    @Option(help: ArgumentHelp("Expected digest of the finished file: sha-256=HEX.", valueName: "sha-256=hex"))
    var checksum: String?

    @Option(name: .customLong(OptionKey.userAgent.name), help: OptionKey.userAgent.argumentHelp)
    var userAgent: String?

    @Option(name: .customLong(OptionKey.referer.name), help: OptionKey.referer.argumentHelp)
    var referer: String?

    @Option(name: .customLong(OptionKey.allProxy.name), help: OptionKey.allProxy.argumentHelp)
    var allProxy: String?

    @Option(name: .customLong(OptionKey.noProxy.name), help: OptionKey.noProxy.argumentHelp)
    var noProxy: String?

    @Option(name: .customLong(OptionKey.loadCookies.name), help: OptionKey.loadCookies.argumentHelp, completion: OptionKey.loadCookies.completion)
    var loadCookies: String?

    @Option(name: .customLong(OptionKey.netrcFile.name), help: OptionKey.netrcFile.argumentHelp, completion: OptionKey.netrcFile.completion)
    var netrcFile: String?

    @Flag(name: [.short, .customLong(OptionKey.continuePartial.name)], help: OptionKey.continuePartial.argumentHelp)
    var continuePartial = false

    @Flag(name: .customLong(OptionKey.allowOverwrite.name), help: OptionKey.allowOverwrite.argumentHelp)
    var allowOverwrite = false

    @Option(name: .customLong(OptionKey.stream.name), help: OptionKey.stream.argumentHelp, completion: OptionKey.stream.completion)
    var stream: String?

    @Option(name: .customLong(OptionKey.streamQuality.name), help: OptionKey.streamQuality.argumentHelp, completion: OptionKey.streamQuality.completion)
    var streamQuality: String?

    @Option(name: .customLong(OptionKey.streamRemux.name), help: OptionKey.streamRemux.argumentHelp, completion: OptionKey.streamRemux.completion)
    var streamRemux: String?

    @Option(name: .customLong(OptionKey.liveLimit.name), help: OptionKey.liveLimit.argumentHelp, completion: OptionKey.liveLimit.completion)
    var liveLimit: String?

    @Option(name: .customLong(OptionKey.streamAudio.name), help: OptionKey.streamAudio.argumentHelp, completion: OptionKey.streamAudio.completion)
    var streamAudio: String?

    @Option(name: .customLong(OptionKey.streamSubs.name), help: OptionKey.streamSubs.argumentHelp, completion: OptionKey.streamSubs.completion)
    var streamSubs: String?

    @Option(name: .customLong(OptionKey.extractor.name), help: OptionKey.extractor.argumentHelp, completion: OptionKey.extractor.completion)
    var extractor: String?

    /// The settings these options give, by key (the URLs, `-o`, `-i`, `--checksum` and `--mirror` name tasks, not settings).
    var commandLine: [OptionKey: SettingValue] {
        var values: [OptionKey: SettingValue] = [:]
        values.given(.dir, directory.map(SettingValue.string))
        values.given(.header, headers.isEmpty ? nil : .strings(headers))
        values.given(.userAgent, userAgent.map(SettingValue.string))
        values.given(.referer, referer.map(SettingValue.string))
        values.given(.allProxy, allProxy.map(SettingValue.string))
        values.given(.noProxy, noProxy.map(SettingValue.string))
        values.given(.loadCookies, loadCookies.map(SettingValue.string))
        values.given(.netrcFile, netrcFile.map(SettingValue.string))
        values.given(.continuePartial, continuePartial ? .bool(true) : nil)
        values.given(.allowOverwrite, allowOverwrite ? .bool(true) : nil)
        values.given(.stream, stream.map(SettingValue.string))
        values.given(.streamQuality, streamQuality.map(SettingValue.string))
        values.given(.streamRemux, streamRemux.map(SettingValue.string))
        values.given(.liveLimit, liveLimit.map(SettingValue.string))
        values.given(.streamAudio, streamAudio.map(SettingValue.string))
        values.given(.streamSubs, streamSubs.map(SettingValue.string))
        values.given(.extractor, extractor.map(SettingValue.string))
        return values
    }

    @Option(name: .customLong("mirror"), help: ArgumentHelp(
        "Another link to the same file, fetched from at once (repeatable; one URL).", valueName: "url"))
    var mirrors: [String] = []

    /// The tasks these options make of `urls` (and of `-i FILE`), with the run's settings, validated by the core intake; throws a
    /// ValidationError with its message.
    ///
    /// `-d` is checked even without URLs: a path that names a file is a usage error before anything runs.
    /// `stored` is what `haul add` keeps with each task (`-s`, `--limit-rate`).
    func newTasks(
        _ settings: RunSettings, urls: [String], stored: TaskRequest.Transfer = TaskRequest.Transfer()
    ) throws -> [NewTask] {
        let intake = try settings.intake()
        let headers = settings.allHeaders
        let access = settings.access
        var transfer = stored
        transfer.allowOverwrite = settings.bool(.allowOverwrite)
        var tasks: [NewTask]
        do {
            _ = try intake.resolvedDirectory(nil)
            tasks = try intake.commandLineTasks(
                urls: urls, output: output, headers: headers, checksum: checksum, access: access, transfer: transfer,
                hasInputFile: inputFile != nil, mirrors: mirrors)
        } catch {
            throw ValidationError(error.description)
        }
        if let inputFile {
            let data: Data
            do {
                data = try BoundedFileRead.contents(of: inputFile, limit: InputFile.maxBytes)
            } catch .tooLarge(let bytes) {
                throw ValidationError(
                    "input file '\(inputFile)' holds \(ByteCountFormat.size(bytes)); haul reads at most \(ByteCountFormat.size(Int64(InputFile.maxBytes))) (about 500,000 links): split it")
            } catch {
                throw ValidationError("cannot read input file '\(inputFile)' (missing, a directory, or not readable)")
            }
            let parsed: (tasks: [NewTask], warnings: [String])
            do {
                parsed = try InputFile.parse(
                    data, intake: intake, headers: headers, checksum: checksum, access: access, transfer: transfer,
                    source: inputFile)
            } catch {
                throw ValidationError("\(inputFile): \(error)")
            }
            for warning in parsed.warnings { note("\(inputFile): \(warning)") }
            // Taken as parsed when no link came on the command line: a copy of 100,000 tasks is not made for nothing.
            if tasks.isEmpty { tasks = parsed.tasks } else { tasks += parsed.tasks }
        }
        // The intake has read each cookies file; the lines it skipped are named once per file.
        for path in Set(tasks.compactMap(\.requestOptions.cookiesFile)).sorted() {
            for warning in (try? CookieFile.read(path))?.warnings ?? [] { note(warning) }
        }
        if settings.bool(.continuePartial) {
            tasks = try tasks.map { task in
                do { return try PartialAdoption.adopt(task) } catch { throw ValidationError("\(error)") }
            }
        }
        return tasks
    }
}

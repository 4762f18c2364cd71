import ArgumentParser
import Foundation
import HaulCore

/// What to add and where it goes.
struct AddOptions: ParsableArguments {
    @Argument(help: "http(s) URLs to download.")
    var urls: [String] = []

    @Option(name: [.short, .customLong("dir")], help: "Download directory (default: the current directory).")
    var directory: String?

    @Option(name: [.short, .customLong("output")], help: "File name for the single URL given.")
    var output: String?

    @Option(name: [.short, .customLong("input-file")], help: "File of URLs in aria2's format (out=, dir=, checksum= options).")
    var inputFile: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "Extra request header \"K: V\" (repeatable).")
    var headers: [String] = []

    @Option(help: "Expected digest of the finished file: sha-256=HEX.")
    var checksum: String?

    @Option(name: .customLong("user-agent"), help: "The User-Agent header to send (aria2's name).")
    var userAgent: String?

    @Option(name: .customLong("referer"), help: "The Referer header to send (aria2's name).")
    var referer: String?

    @Option(name: .customLong("mirror"), help: "Another link to the same file, fetched from at once (repeatable; one URL).")
    var mirrors: [String] = []

    /// `-H` lines, then the ones `--user-agent` and `--referer` stand for.
    var allHeaders: [String] {
        headers + (userAgent.map { ["User-Agent: \($0)"] } ?? []) + (referer.map { ["Referer: \($0)"] } ?? [])
    }

    /// The intake for these options: tasks go into `-d` (default: the current directory).
    var intake: TaskIntake { TaskIntake(defaultDirectory: directory ?? FileManager.default.currentDirectoryPath) }

    /// The tasks these options describe, validated by the core intake; throws a ValidationError with its message.
    ///
    /// `-d` is checked even without URLs: a path that names a file is a usage error before anything runs.
    func newTasks() throws -> [NewTask] {
        let intake = intake
        var tasks: [NewTask]
        do {
            _ = try intake.resolvedDirectory(nil)
            tasks = try intake.commandLineTasks(
                urls: urls, output: output, headers: allHeaders, checksum: checksum, hasInputFile: inputFile != nil,
                mirrors: mirrors)
        } catch {
            throw ValidationError(error.description)
        }
        if let inputFile {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: inputFile, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: inputFile) else {
                throw ValidationError("cannot read input file '\(inputFile)' (missing, a directory, or not readable)")
            }
            let parsed: (tasks: [NewTask], warnings: [String])
            do {
                parsed = try InputFile.parse(data, intake: intake, headers: allHeaders, checksum: checksum)
            } catch {
                throw ValidationError("\(inputFile): \(error)")
            }
            for warning in parsed.warnings { note("\(inputFile): \(warning)") }
            tasks += parsed.tasks
        }
        return tasks
    }
}

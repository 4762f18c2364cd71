import ArgumentParser
import Foundation
import HaulCore

/// Where the queue lives.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "Directory of the queue database (default $XDG_STATE_HOME/haul).")
    var stateDirectory: String?
}

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

    /// A `-H` header: `Name: value`, one line, and not one of the headers haul sets itself for resuming.
    static func validate(header: String) throws {
        guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
            throw ValidationError("header '\(header)' is not of the form 'Name: value'")
        }
        guard !header.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw ValidationError("header '\(header.debugDescription)' contains a line break or control character")
        }
        let rawName = header[..<colon]
        guard !rawName.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw ValidationError("header name '\(rawName)' contains a space; write it as 'Name: value'")
        }
        let name = rawName.lowercased()
        if ["range", "if-range", "content-length", "transfer-encoding"].contains(name) {
            throw ValidationError("header '\(name)' is set by haul itself (it resumes with Range and If-Range)")
        }
    }

    /// The tasks these options describe, validated; throws a ValidationError with a clear message.
    func newTasks() throws -> [NewTask] {
        let baseDirectory = absolutePath(directory ?? FileManager.default.currentDirectoryPath)
        for header in headers { try Self.validate(header: header) }
        var checksumValue: Checksum?
        if let checksum {
            guard let parsed = Checksum(parsing: checksum) else {
                throw ValidationError("--checksum '\(checksum)' is not of the form sha-256=<64 hex digits>")
            }
            checksumValue = parsed
        }
        if output != nil, urls.count != 1 || inputFile != nil {
            throw ValidationError("-o/--output names one file: give exactly one URL with it")
        }
        if let output, SafeFileName.sanitize(output) != output {
            throw ValidationError("-o '\(output)' is not a plain file name (no '/', no leading dot, no control characters)")
        }
        var tasks: [NewTask] = []
        for url in urls {
            let valid: String
            do { valid = try URLValidation.validate(url) } catch { throw ValidationError(error.description) }
            tasks.append(NewTask(url: valid, directory: baseDirectory, requestedName: output, checksum: checksumValue, headers: headers))
        }
        if let inputFile {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: inputFile, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: inputFile) else {
                throw ValidationError("cannot read input file '\(inputFile)' (missing, a directory, or not readable)")
            }
            let text = String(decoding: data, as: UTF8.self)
            let parsed: (entries: [InputFileEntry], warnings: [String])
            do { parsed = try InputFile.parse(text) } catch { throw ValidationError("\(inputFile): \(error)") }
            for warning in parsed.warnings { FileHandle.standardError.write(Data("haul: \(inputFile): \(warning)\n".utf8)) }
            for entry in parsed.entries {
                let entryDirectory = entry.dir.map { absolutePath($0, relativeTo: baseDirectory) } ?? baseDirectory
                if let out = entry.out, SafeFileName.sanitize(out) != out {
                    throw ValidationError("\(inputFile): out='\(out)' is not a plain file name")
                }
                tasks.append(NewTask(
                    url: entry.url, directory: entryDirectory, requestedName: entry.out,
                    checksum: entry.checksum ?? checksumValue, headers: headers + entry.headers))
            }
        }
        return tasks
    }
}

/// How transfers behave.
struct TransferFlags: ParsableArguments {
    @Option(name: [.customShort("j"), .customLong("max-concurrent")], help: "Tasks running at once.")
    var maxConcurrent: Int?

    @Option(name: .customLong("limit-rate"), help: "Receive limit per task, e.g. 500K, 2M, 1.5G (bytes/s).")
    var limitRate: String?

    @Option(help: "Retries of a transient error before a task fails.")
    var retries: Int = 5

    @Option(help: "Seconds without data before a transfer counts as stalled and is retried.")
    var timeout: Int = 30

    @Option(name: .customLong("ca-cert"), help: "CA bundle to verify servers with instead of the system one (verification stays on).")
    var caCertificate: String?

    @Option(name: .customLong("disk-reserve"), help: "Free space to keep on the download filesystem, e.g. 64M (a task pauses below it).")
    var diskReserve: String = "64M"

    func transferOptions() throws -> TransferOptions {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
        if let maxConcurrent, !(1...64).contains(maxConcurrent) {
            throw ValidationError("-j/--max-concurrent must be between 1 and 64, got \(maxConcurrent)")
        }
        guard retries >= 0 else { throw ValidationError("--retries must be 0 or more") }
        var rate: Int64?
        if let limitRate {
            guard let parsed = ByteSize.parse(limitRate) else {
                throw ValidationError("--limit-rate '\(limitRate)' is not a rate like 500K, 2M or 1048576 (0 for none)")
            }
            rate = parsed > 0 ? parsed : nil
        }
        guard let reserve = ByteSize.parse(diskReserve) else {
            throw ValidationError("--disk-reserve '\(diskReserve)' is not a size like 64M, 1G or 0")
        }
        if let caCertificate, !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw ValidationError("--ca-cert '\(caCertificate)' cannot be read")
        }
        return TransferOptions(rateLimit: rate, stallTimeout: timeout, caCertificate: caCertificate, diskReserve: reserve)
    }
}

func absolutePath(_ path: String, relativeTo base: String = FileManager.default.currentDirectoryPath) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    let joined = expanded.hasPrefix("/") ? expanded : (base as NSString).appendingPathComponent(expanded)
    return (joined as NSString).standardizingPath
}

/// Reads aria2's input-file format (`-i FILE`) and passes every entry through the intake.
///
/// ```
/// # comment
/// https://example.org/a.iso
///   out=ubuntu.iso
///   dir=/srv/isos
///   checksum=sha-256=0123…
///   header=Authorization: Bearer x
/// https://mirror-1/b.bin	https://mirror-2/b.bin
/// ```
public enum InputFile {
    /// Option keys haul understands: `out`, `checksum`, and every option a download may set for itself, by haul's
    /// name or aria2's (`split`, `max-download-limit`, `netrc-path`).
    public static var knownOptions: Set<String> {
        Set(["out", "checksum"] + OptionRegistry.all.filter { $0.scope == .task }.flatMap { [$0.name] + ($0.aria2.map { [$0.name] } ?? []) })
    }

    /// The most an input file may hold: about 500,000 links. A bigger file is refused before it is read.
    public static let maxBytes = 64 << 20
    /// The longest line: far above any real link or option, and short enough that a hostile one costs nothing.
    public static let maxLineBytes = 64 << 10

    /// The tasks of an input file, in order, plus warnings about lines that were ignored.
    ///
    /// A line that starts with neither a space nor a tab holds a URL, or several tab-separated URLs of one file
    /// (aria2's mirrors): the first is the task's link and the others its mirrors, by the intake's mirror rule. Lines
    /// indented with spaces or tabs hold `key=value` options for the URL above them. Lines whose first
    /// non-blank character is `#` and blank lines are skipped; a byte order mark and `\r\n` line ends are fine.
    /// An unknown option key gives a warning, not an error. `headers` (from `-H`) come before each
    /// entry's own; `checksum` (from `--checksum`) applies to entries without `checksum=`.
    ///
    /// `source` is the file's path: when the file holds more than one task, they form one group named after the
    /// file (`links.txt`), shown as one row in the live list (DESIGN §12). Every way in that reads an input file
    /// passes it; a file of one task makes no group.
    ///
    /// - Throws: `InputFileError` naming the first bad line: bytes that are not UTF-8, an option before
    ///   any URL or without `=`, an empty `out=` or `dir=`, or any value `intake` refuses (the reason
    ///   is then the intake's own `IntakeError`, the same the command line gives).
    public static func parse(
        _ bytes: some Collection<UInt8>, intake: TaskIntake, headers: [String] = [], checksum: String? = nil,
        access: AccessRequest = AccessRequest(), transfer: TaskRequest.Transfer = TaskRequest.Transfer(), source: String? = nil
    ) throws(InputFileError) -> (tasks: [NewTask], warnings: [String]) {
        var tasks: [NewTask] = []
        var warnings: [String] = []
        var entry: Entry?
        let allLines = Self.lines(of: bytes)
        // Room for one task per line that may begin one, at once: a list of 100,000 links is not copied as it grows.
        tasks.reserveCapacity(allLines.count(where: { line in
            line.first.map { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "#") } ?? false
        }))

        for (index, raw) in allLines.enumerated() {
            let number = index + 1
            guard raw.count <= maxLineBytes else { throw InputFileError(line: number, reason: .lineTooLong(limit: maxLineBytes)) }
            guard let line = String(validating: raw, as: UTF8.self) else {
                throw InputFileError(line: number, reason: .invalidUTF8)
            }
            let content = Substring(line).trimmingHTTPWhitespace()
            if content.isEmpty || content.first == "#" { continue }

            if let first = line.first, first.isHTTPWhitespace {
                guard entry != nil else {
                    throw InputFileError(line: number, reason: .syntax("option '\(content)' comes before any URL; put a URL on a line of its own above it"))
                }
                if let warning = try apply(option: content, to: &entry!, line: number, intake: intake) { warnings.append(warning) }
            } else {
                if let finished = entry { tasks.appendSharingOptions(try finished.task(intake: intake)) }
                let uris = content.split(separator: "\t").map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
                do throws(IntakeError) {
                    _ = try TaskIntake.url(String(uris[0]))
                } catch {
                    throw InputFileError(line: number, reason: .intake(error))
                }
                var request = TaskRequest(url: String(uris[0]), headers: headers, checksum: checksum)
                request.access = access
                request.transfer = transfer
                request.mirrors = uris.dropFirst().map(String.init)
                entry = Entry(line: number, request: request)
            }
        }
        if let finished = entry { tasks.appendSharingOptions(try finished.task(intake: intake)) }
        if let source, tasks.count > 1, let name = groupName(of: source) {
            for index in tasks.indices { tasks[index].group = name }
        }
        return (tasks, warnings)
    }

    /// The group an input file's tasks share: the file's base name (`/home/me/links.txt` → `links.txt`); nil for a
    /// path with no name (`/`, `-`). Kept as it is: a name is display text, escaped where it is shown.
    public static func groupName(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty || name == "-" || name == "." || name == ".." ? nil : name
    }

    /// One URL line and the options read for it so far.
    struct Entry {
        var line: Int
        var request: TaskRequest
        var directoryLine: Int?

        /// The validated task; a refused directory is reported on its `dir=` line.
        func task(intake: TaskIntake) throws(InputFileError) -> NewTask {
            do {
                return try intake.newTask(request)
            } catch {
                switch error {
                case .emptyDirectory, .notADirectory, .directoryNotAllowed:
                    throw InputFileError(line: directoryLine ?? line, reason: .intake(error))
                default:
                    throw InputFileError(line: line, reason: .intake(error))
                }
            }
        }
    }

    /// Applies one `key=value` option line to `entry`, checking its value; returns a warning for an unknown key.
    static func apply(option: Substring, to entry: inout Entry, line: Int, intake: TaskIntake) throws(InputFileError) -> String? {
        guard let eq = option.firstIndex(of: "=") else {
            throw InputFileError(line: line, reason: .syntax("'\(option)' is not an option; write key=value (out=, dir=, checksum=, header=)"))
        }
        let key = option[..<eq].trimmingHTTPWhitespace().lowercased()
        let value = String(option[option.index(after: eq)...].trimmingHTTPWhitespace())
        if value.isEmpty, key == "out" || key == "dir" {
            throw InputFileError(line: line, reason: .syntax(key == "out" ? "out= needs a file name" : "dir= needs a directory"))
        }
        if key == "out" || key == "checksum" {
            do throws(IntakeError) {
                if key == "out" { try TaskIntake.checkOutput(value) } else { _ = try TaskIntake.checksum(value) }
            } catch {
                throw InputFileError(line: line, reason: .intake(error))
            }
            if key == "out" { entry.request.output = value } else { entry.request.checksum = value }
            return nil
        }
        guard let definition = OptionRegistry.named(key) ?? OptionRegistry.aria2Named(key), definition.scope == .task else {
            return "line \(line): unknown option '\(key)' ignored (haul reads \(knownOptions.sorted().joined(separator: ", ")))"
        }
        // An entry's own line wins over the settings file's rules, as the command line does (`TaskRequest.given`).
        // One value a line: a `header=` line is one header, whatever it holds.
        let setting = definition.kind == .strings ? .strings([value]) : Aria2Form.value(value, kind: definition.kind)
        guard let setting else {
            throw InputFileError(line: line, reason: .syntax("\(key)= must be \(definition.kind.rawValue)"))
        }
        do {
            try entry.request.set(definition.key, setting)
        } catch {
            if case let .intake(intakeError) = error { throw InputFileError(line: line, reason: .intake(intakeError)) }
            throw InputFileError(line: line, reason: .syntax(error.description))
        }
        if definition.key == .dir { entry.directoryLine = line }
        // A file it names is read here, so that its problem names this line.
        do throws(IntakeError) {
            switch definition.key {
            case .loadCookies: _ = try intake.requestOptions(AccessRequest(loadCookies: value))
            case .netrcFile: _ = try intake.requestOptions(AccessRequest(netrcFile: value))
            default: break
            }
        } catch {
            throw InputFileError(line: line, reason: .intake(error))
        }
        return nil
    }

    /// The file's lines as bytes: split at `\n`, without a trailing `\r` and without a leading byte order mark.
    static func lines(of bytes: some Collection<UInt8>) -> [ArraySlice<UInt8>] {
        var all = Array(bytes)[...]
        if all.starts(with: [0xEF, 0xBB, 0xBF]) { all = all.dropFirst(3) }
        return all.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
    }
}

extension [NewTask] {
    /// Appends `task`, holding one copy of its request options with the task before when they are equal (the links of
    /// one file mostly share them).
    fileprivate mutating func appendSharingOptions(_ task: NewTask) {
        var task = task
        if let last { task.shareRequestOptions(with: last) }
        append(task)
    }
}

import HaulCore

/// What the disk worker does when a transfer of any kind ends: the steps `ClosingPolicy` gives, carried out on the
/// task's part files (DESIGN §5, §11). Built on the transfer thread by the kind's factory (`ClosingWork+Kinds`),
/// run off it on descriptors of its own; a value, so it carries its copies across.
struct ClosingWork: Sendable {
    let policy: ClosingPolicy
    /// The part files, the main output's first.
    let parts: [ClosingPart]
    /// The task's name: where the main part file is published.
    let fileName: String?
    /// How the part files become one output before they are checked; nil: the main part file is the output.
    let assembly: StreamAssembly?
    let account: ClosingAccount
    let directory: DownloadDirectory
    /// A complete file replaces a file at its name (`--allow-overwrite`).
    let replacing: Bool
    /// The task's mark: a file carrying it at the final name is the task's own and is replaced.
    let tag: PartOwnerTag
    /// Written beside the output once it is published.
    var sidecars: [ClosingSidecar] = []

    /// Whether the closing may take long (a mux by ffmpeg), so that it runs apart from other tasks' syncs.
    var mayTakeLong: Bool { assembly != nil }

    /// Carries out the policy's steps, in its order, to the end it records.
    func run() -> ClosingResult {
        defer { for part in parts { part.writer.close() } }
        var files = ClosingFiles(main: parts.first.map(\.name))
        var policy = policy
        var step = policy.next(after: .done)
        while true {
            if case let .record(verdict) = step { return result(of: verdict, files) }
            step = policy.next(after: carryOut(step, on: &files))
        }
    }

    private func result(of verdict: ClosingVerdict, _ files: ClosingFiles) -> ClosingResult {
        switch verdict {
        case .completed:
            // Nothing published now: a run that died published the file under the task's name.
            let names = files.published.isEmpty ? [fileName ?? ""] : files.published
            let bytes = names.reduce(Int64(0)) { $0 + (directory.regularFileSize($1) ?? 0) }
            return ClosingResult(
                outcome: .completed(fileName: names[0], bytes: bytes), segments: account.completedSegments,
                // Every part was synced before it was published (or muxed into the output): the whole record holds.
                stream: account.streamRecord(durable: account.stream?.appendedBytes ?? bytes, note: files.note))
        case .paused:
            let (durable, segments) = account.recorded(.synced, error: nil)
            return ClosingResult(
                outcome: .paused(durableBytes: durable), segments: segments, stream: account.streamRecord(durable: durable, note: files.note))
        case let .failed(error, kept):
            let (durable, segments) = account.recorded(kept, error: error)
            return ClosingResult(
                outcome: .failed(error, durableBytes: durable), segments: segments,
                stream: account.streamRecord(durable: durable, note: files.note))
        }
    }
}

/// A part file the closing works on.
struct ClosingPart: Sendable {
    /// Its own descriptor, closed when the closing ends.
    let writer: FileWriter
    /// Its name in the download directory (`NAME.part`).
    let name: String
    /// What the transfer wrote into it.
    let bytes: Int64
    /// The container of an audio rendition saved beside the video when it is not muxed; nil for the main output.
    let audioContainer: String?

    init(writer: FileWriter, name: String, bytes: Int64, audioContainer: String? = nil) {
        self.writer = writer
        self.name = name
        self.bytes = bytes
        self.audioContainer = audioContainer
    }
}

/// A small file written beside the published output (a stream's subtitles: `NAME.LANG.vtt`).
struct ClosingSidecar: Sendable {
    /// The language it is named by.
    let language: String
    let bytes: [UInt8]
}

/// How a closing ended: what the controller records.
struct ClosingResult: Sendable, Equatable {
    let outcome: TransferOutcome
    /// The layout to record (nil: not segmented; empty: no layout any more).
    let segments: [SegmentRecord]?
    /// A stream's segments to record, with what the task is told when the files were saved otherwise than the
    /// stream asked (no ffmpeg, a mux that failed); nil for a file, or when the last checkpoint stands.
    let stream: StreamInfo?

    /// What the engine reports of it besides the outcome: the layout or the stream's segments to record.
    func checkpoints(of id: TaskID) -> [TransferEvent] {
        var events: [TransferEvent] = []
        if let segments { events.append(.segmentCheckpoint(id, segments, durableBytes: outcome.durableBytes)) }
        if let stream { events.append(.streamCheckpoint(id, stream)) }
        return events
    }
}

/// The files a closing has made so far, as it goes.
struct ClosingFiles {
    /// The file that is checked and published: the main part file, or the output of the assembly.
    var output: String?
    /// Whether `output` was made by the assembly (the part files go once it is published).
    var assembled = false
    /// The final names published, the main output's first.
    var published: [String] = []
    var note: String?
    /// Sidecars written as part files before an assembly muxed them in, by language.
    var sidecarParts: [String: String] = [:]

    init(main: String?) {
        output = main
    }

    mutating func add(note text: String) {
        note = (note.map { $0 + "; " } ?? "") + text
    }
}

import Foundation
import HaulCore

/// What the engine does when a stream ends (DESIGN §9): sync its part files; once complete, publish the video
/// — muxed with its separate audio rendition, or remuxed (`--stream-remux`), by ffmpeg when it is installed —
/// else the video and the audio side by side. Runs off the transfer thread, on its own descriptors.
struct StreamClosingWork: Sendable {
    let ending: TransferEnding
    let writers: [FileWriter]
    /// The part files' lengths now, and what was durable before this closing sync.
    let positions: [Int64]
    let durable: Int64
    let fileName: String?
    /// The video's container ("ts", "mp4") and the audio rendition's, when there is one.
    let container: String
    let audioContainer: String?
    let remux: String?
    let directory: DownloadDirectory
    let replacing: Bool
    /// `--checksum`: the digest the finished file must have.
    let checksum: Checksum?
    /// The task's mark, put on a muxed file before it is published (the part files carry it already).
    let tag: PartOwnerTag

    init(ending: TransferEnding, stream: StreamTransfer) {
        self.ending = ending
        writers = stream.tracks.compactMap { $0.writer?.duplicate() }
        positions = stream.positions
        durable = stream.info?.appendedBytes ?? 0
        fileName = stream.fileName
        container = stream.info?.container ?? "ts"
        audioContainer = stream.tracks.count > 1 ? (stream.tracks[1].media.isFragmentedMP4 ? "mp4" : "ts") : nil
        remux = stream.request.requestOptions.streamRemux
        directory = stream.directory
        replacing = stream.request.requestOptions.allowOverwrite == true
        checksum = stream.request.checksum
        tag = PartOwnerTag(stream.request)
    }

    /// The outcome, and a note for the task when the files were saved otherwise than the stream said.
    func run() -> (TransferOutcome, note: String?) {
        defer { for writer in writers { writer.close() } }
        var syncError: DownloadError?
        for writer in writers {
            do throws(DownloadError) { try writer.sync() } catch { syncError = error }
        }
        let synced = syncError == nil ? positions.reduce(0, +) : durable
        switch ending {
        case .paused:
            if let syncError { return (.failed(syncError, durableBytes: synced), nil) }
            return (.paused(durableBytes: synced), nil)
        case let .failed(error):
            return (.failed(error, durableBytes: synced), nil)
        case let .fileChanged(reason):
            return (.failed(.remoteFileChanged(reason), durableBytes: synced), nil)
        case .complete:
            if let syncError { return (.failed(syncError, durableBytes: synced), nil) }
            guard let fileName else { return (.failed(.inconsistentTransfer("completed without a file"), durableBytes: 0), nil) }
            do throws(DownloadError) {
                return try verify(try publish(fileName))
            } catch {
                return (.failed(error, durableBytes: synced), nil)
            }
        }
    }

    /// The finished file against `--checksum`: a file that does not match is of no use under any name, so it is
    /// removed and the stream starts over on a retry, as a file's would.
    private func verify(_ result: (TransferOutcome, note: String?)) throws(DownloadError) -> (TransferOutcome, note: String?) {
        guard let checksum, case let .completed(final, _) = result.0 else { return result }
        let actual = try FileDigest.sha256Hex(path: directory.fullPath(final))
        guard actual != checksum.hex else { return result }
        unlinkat(directory.fd, final, 0)
        return (.failed(.checksumMismatch(expected: checksum.hex, actual: actual), durableBytes: 0), result.note)
    }

    private func publish(_ name: String) throws(DownloadError) -> (TransferOutcome, note: String?) {
        let videoPart = PartialFilePath.partName(for: name)
        let audioPart = audioContainer.map { _ in PartialFilePath.partName(for: StreamFileName.audioPart(of: name)) }
        let format = remux ?? container
        let target = StreamFileName.remuxed(name, container: format)
        var note: String?
        if audioPart != nil || format != container {
            if let ffmpeg = FFmpeg.path {
                let temporary = PartialFilePath.partName(for: target + ".mux")
                let inputs = [videoPart] + (audioPart.map { [$0] } ?? [])
                if FFmpegMux.run(ffmpeg, inputs: inputs.map(directory.fullPath), output: directory.fullPath(temporary), format: format) {
                    directory.mark(temporary, with: tag)
                    let final = try directory.publish(temporary, as: target, replacing: replacing, tag: tag)
                    for part in inputs { unlinkat(directory.fd, part, 0) }
                    return (.completed(fileName: final, bytes: directory.regularFileSize(final) ?? 0), nil)
                }
                unlinkat(directory.fd, temporary, 0)
                note = "ffmpeg could not " + (audioPart != nil ? "mux the audio into the video" : "remux the stream into \(format)")
                    + ": the stream is saved as it came"
            } else if format != container, audioPart == nil {
                note = "ffmpeg is not installed: the stream is saved as .\(container), not remuxed into \(format)"
            }
        }
        let final = try directory.publish(partOf: name, replacing: replacing, tag: tag)
        var bytes = directory.regularFileSize(final) ?? 0
        if let audioPart, let audioContainer {
            let audio = try directory.publish(audioPart, as: StreamFileName.audioName(of: final, container: audioContainer), replacing: replacing, tag: tag)
            bytes += directory.regularFileSize(audio) ?? 0
            note = (note.map { $0 + "; " } ?? "") + "the audio is saved beside the video as \(audio)"
        }
        return (.completed(fileName: final, bytes: bytes), note)
    }
}

/// One bounded `ffmpeg -c copy` run: the inputs' streams into one file of `format`.
enum FFmpegMux {
    /// Longest a mux may take before it is stopped (it copies, never encodes).
    static let timeout: DispatchTimeInterval = .seconds(600)

    static func run(_ ffmpeg: String, inputs: [String], output: String, format: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-y"]
        for input in inputs { arguments += ["-i", input] }
        arguments += ["-map", "0"]
        if inputs.count > 1 { arguments += ["-map", "1:a"] }
        arguments += ["-c", "copy", "-f", format == "mp4" ? "mp4" : "mpegts", output]
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            return false
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            done.wait()
            return false
        }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}

import Glibc
import HaulCore

/// How a stream's part files become one file before it is checked and published (DESIGN §9, §11): the audio
/// rendition muxed into the video, the video remuxed into the container its name or `--stream-remux` asks for, or
/// copied as it is to mend timestamps that restart at discontinuities — by ffmpeg when it is installed. Without
/// ffmpeg, or when it fails, the parts stay the output, as they came, and a note says so.
///
/// A value carried by the closing work to the disk worker's queue.
struct StreamAssembly: Sendable {
    /// The container the stream came in ("ts", "mp4") and the one the output is to have (an extension: "mkv").
    let container: String
    let format: String
    /// The final name of the assembled file.
    let target: String
    /// Whether a separate audio rendition is muxed in.
    let muxesAudio: Bool
    /// Whether ffmpeg runs on the video alone (another container, or timestamps to mend).
    let remuxes: Bool
    /// Whether the timestamps restart at discontinuities and are joined up.
    let mendsTimestamps: Bool
    /// Said when the file is published as it came (`StreamOutput.note`: timestamps that restart).
    let note: String?

    /// The assembly a stream named `fileName` needs, or nil when its video part is the output as it is.
    init?(fileName: String, output: StreamOutput, muxesAudio: Bool) {
        guard muxesAudio || output.remuxes || output.note != nil else { return nil }
        container = output.container
        format = output.format
        // Only mended: the name stays as it is, whatever its extension.
        target = format == container && !muxesAudio ? fileName : StreamFileName.remuxed(fileName, container: format)
        self.muxesAudio = muxesAudio
        remuxes = output.remuxes
        mendsTimestamps = output.mendsTimestamps
        note = output.note
    }

    /// Runs ffmpeg on `parts` (the video's first) into a marked file beside them: its name when it was made, and a
    /// note when the parts stay the output.
    /// The subtitles `subtitles` (part files beside the parts, with their languages) are muxed in when the format takes
    /// them.
    func run(
        parts: [String], subtitles: [(path: String, language: String)] = [], in directory: DownloadDirectory, tag: PartOwnerTag
    ) -> (output: String?, note: String?) {
        guard muxesAudio || remuxes else { return (nil, note) }
        guard let ffmpeg = FFmpeg.path else {
            guard !muxesAudio else { return (nil, note) }
            return (nil, joined(note, "ffmpeg is not installed: the stream is saved as .\(container), not remuxed into \(format)"))
        }
        let output = PartialFilePath.partName(for: target + ".mux")
        let muxer = StreamOutput.muxers[format] ?? "mpegts"
        if FFmpegMux.run(ffmpeg, inputs: parts.map(directory.fullPath), output: directory.fullPath(output), muxer: muxer,
                          mendsTimestamps: mendsTimestamps,
                          subtitles: subtitles.map { (directory.fullPath($0.path), $0.language) },
                          subtitleCodec: StreamOutput.subtitleCodec(for: format)) {
            directory.mark(output, with: tag)
            return (output, nil)
        }
        unlinkat(directory.fd, output, 0)
        return (nil, joined(note, "ffmpeg could not " + (muxesAudio ? "mux the audio into the video" : "remux the stream into \(format)")
            + ": the stream is saved as it came"))
    }

    private func joined(_ first: String?, _ second: String) -> String {
        first.map { $0 + "; " + second } ?? second
    }
}

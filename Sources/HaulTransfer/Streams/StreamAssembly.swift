import Glibc
import HaulCore

/// How a stream's part files become one file before it is checked and published (DESIGN §9): the audio rendition
/// muxed into the video, or the video remuxed (`--stream-remux`), by ffmpeg when it is installed. Without ffmpeg,
/// or when it fails, the parts stay the output, as they came, and a note says so.
///
/// A value carried by the closing work to the disk worker's queue.
struct StreamAssembly: Sendable {
    /// The container the stream came in ("ts", "mp4") and the one the output is to have.
    let container: String
    let format: String
    /// The final name of the assembled file.
    let target: String
    /// Whether a separate audio rendition is muxed in.
    let muxesAudio: Bool

    /// The assembly a stream named `fileName` needs, or nil when its video part is the output as it is.
    init?(fileName: String, container: String, remux: String?, muxesAudio: Bool) {
        let format = remux ?? container
        guard muxesAudio || format != container else { return nil }
        self.container = container
        self.format = format
        target = StreamFileName.remuxed(fileName, container: format)
        self.muxesAudio = muxesAudio
    }

    /// Runs ffmpeg on `parts` (the video's first) into a marked file beside them: its name when it was made, and a
    /// note when the parts stay the output.
    func run(parts: [String], in directory: DownloadDirectory, tag: PartOwnerTag) -> (output: String?, note: String?) {
        guard let ffmpeg = FFmpeg.path else {
            guard !muxesAudio else { return (nil, nil) }
            return (nil, "ffmpeg is not installed: the stream is saved as .\(container), not remuxed into \(format)")
        }
        let output = PartialFilePath.partName(for: target + ".mux")
        if FFmpegMux.run(ffmpeg, inputs: parts.map(directory.fullPath), output: directory.fullPath(output), format: format) {
            directory.mark(output, with: tag)
            return (output, nil)
        }
        unlinkat(directory.fd, output, 0)
        return (nil, "ffmpeg could not " + (muxesAudio ? "mux the audio into the video" : "remux the stream into \(format)")
            + ": the stream is saved as it came")
    }
}

import Foundation

/// One bounded `ffmpeg -c copy` run: the inputs' streams into one file made by ffmpeg's `muxer` ("mp4", "matroska").
enum FFmpegMux {
    /// Longest a mux may take before it is stopped (it copies, never encodes).
    static let timeout: DispatchTimeInterval = .seconds(600)

    /// `mendsTimestamps`: every timestamp jump of an MPEG-TS input is joined to what came before
    /// (`-dts_delta_threshold 0`), so that discontinuities neither shorten the file nor overlap its audio.
    /// `subtitles`: WebVTT files muxed as subtitle streams in `subtitleCodec`, each tagged with its language.
    static func run(
        _ ffmpeg: String, inputs: [String], output: String, muxer: String, mendsTimestamps: Bool = false,
        subtitles: [(path: String, language: String)] = [], subtitleCodec: String? = nil
    ) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-y"]
        for input in inputs { arguments += (mendsTimestamps ? ["-dts_delta_threshold", "0"] : []) + ["-i", input] }
        let subtitles = subtitleCodec == nil ? [] : subtitles
        for subtitle in subtitles { arguments += ["-i", subtitle.path] }
        arguments += ["-map", "0"]
        if inputs.count > 1 { arguments += ["-map", "1:a"] }
        for (index, subtitle) in subtitles.enumerated() {
            arguments += ["-map", "\(inputs.count + index):s", "-metadata:s:s:\(index)", "language=\(subtitle.language)"]
        }
        arguments += ["-c", "copy"]
        if let subtitleCodec, !subtitles.isEmpty { arguments += ["-c:s", subtitleCodec] }
        arguments += ["-f", muxer, output]
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

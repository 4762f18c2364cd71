import Foundation

/// One bounded `ffmpeg -c copy` run: the inputs' streams into one file made by ffmpeg's `muxer` ("mp4", "matroska").
enum FFmpegMux {
    /// Longest a mux may take before it is stopped (it copies, never encodes).
    static let timeout: DispatchTimeInterval = .seconds(600)

    /// `mendsTimestamps`: every timestamp jump of an MPEG-TS input is joined to what came before
    /// (`-dts_delta_threshold 0`), so that discontinuities neither shorten the file nor overlap its audio.
    static func run(_ ffmpeg: String, inputs: [String], output: String, muxer: String, mendsTimestamps: Bool = false) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-y"]
        for input in inputs { arguments += (mendsTimestamps ? ["-dts_delta_threshold", "0"] : []) + ["-i", input] }
        arguments += ["-map", "0"]
        if inputs.count > 1 { arguments += ["-map", "1:a"] }
        arguments += ["-c", "copy", "-f", muxer, output]
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

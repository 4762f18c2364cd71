import Foundation

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

import Foundation

/// Where `ffmpeg` is on PATH, for muxing a separate audio rendition and `--stream-remux` (DESIGN §9).
enum FFmpeg {
    static var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.lazy.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

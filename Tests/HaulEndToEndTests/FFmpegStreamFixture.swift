import Foundation
import HaulTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real HLS stream made by Debian's `ffmpeg` from `testsrc` and `sine`: 60 s in three variants under a master
/// playlist, made once per test process (about 5 s on two cores) and published into any `NginxFixture`.
///
/// - 180p: MPEG-TS, AES-128 with the IV in the tag (as ffmpeg writes it), the lowest BANDWIDTH (`worst`);
/// - 270p: MPEG-TS, AES-128 without an IV attribute (each segment's IV is its media sequence number, which
///   starts at 5), the middle one (chosen by height, `270`);
/// - 360p: fMP4 (`EXT-X-MAP` init section, `.m4s` segments), clear, the highest BANDWIDTH (`best`).
///
/// ffmpeg makes the three in one run; openssl encrypts the segments of the first two, so `plainFiles` (the
/// clear init section and segments) are what a client must write after decrypting, byte for byte.
struct FFmpegStream: Sendable {
    /// One variant, its files and what it should download to.
    struct Variant: Sendable {
        enum Encryption: Sendable, Equatable {
            case none
            case aes128(implicitIV: Bool)
        }

        /// Its directory under the stream (`v180`), which holds `index.m3u8`.
        var directory: String
        var width: Int
        var height: Int
        var bandwidth: Int
        var encryption: Encryption
        /// `ts` or `mp4`: the extension of the finished file.
        var container: String
        /// The clear files in playlist order (the init section first for fMP4), absolute paths.
        var plainFiles: [String]
        /// Segments in its playlist.
        var segments: Int

        /// What a client must write: the clear files end to end.
        func expectedOutput() throws -> [UInt8] {
            try plainFiles.flatMap { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        }
    }

    /// Seconds of the source (`testsrc` and `sine`); ffprobe reads 60.02 for the segments end to end.
    static let sourceDuration = 60.0
    /// The AES-128 key served at `enc.key` beside the master playlist.
    static let key: [UInt8] = (0..<16).map { UInt8($0 * 17) }
    /// The media sequence number of the implicit-IV variant's first segment.
    static let implicitIVFirstSequence = 5

    /// Everything made, kept for the test process's life.
    let root: String
    /// What is published: `master.m3u8`, `enc.key` and one directory per variant with the served segments.
    var web: String { root + "/web" }
    let variants: [Variant]

    /// The variant `--stream-quality best` picks (highest BANDWIDTH).
    var best: Variant { variants.max { $0.bandwidth < $1.bandwidth }! }
    /// … `worst` (lowest BANDWIDTH).
    var worst: Variant { variants.min { $0.bandwidth < $1.bandwidth }! }
    /// … a height.
    func variant(height: Int) -> Variant { variants.first { $0.height == height }! }

    /// Copies the stream into `nginx`'s document root under `/PREFIX/` (`master.m3u8` there); returns the master's link.
    func publish(to nginx: NginxFixture, prefix: String = "hls") throws -> String {
        let target = nginx.root + "/" + prefix
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: web, toPath: target)
        return nginx.url("/\(prefix)/master.m3u8")
    }

    /// The link of one variant's media playlist once published under `/PREFIX/`.
    func mediaURL(_ variant: Variant, on nginx: NginxFixture, prefix: String = "hls") -> String {
        nginx.url("/\(prefix)/\(variant.directory)/index.m3u8")
    }
}

/// Makes the `FFmpegStream` once per process and hands it to every test that asks.
enum FFmpegStreamFixture {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let ffprobe = "/usr/bin/ffprobe"
    static let openssl = "/usr/bin/openssl"

    /// Whether ffmpeg, ffprobe and openssl are installed (Debian's `ffmpeg` and `openssl` packages).
    static var isAvailable: Bool {
        ([ffmpeg, ffprobe, openssl] as [String]).allSatisfy { access($0, X_OK) == 0 } && NginxFixture.isAvailable
    }

    /// The stream, made on the first call (bounded: two minutes); every later call gets the same one.
    static func stream() async throws -> FFmpegStream {
        try await cache.stream()
    }

    /// nginx serving `.m3u8`, `.ts` and `.m4s` with the content types a CDN sends, and the stream under `/hls/`.
    static func nginx() async throws -> (NginxFixture, FFmpegStream) {
        let stream = try await stream()
        let nginx = try await NginxFixture.start(locations: """
            location /hls/ {
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/iso.segment m4s; video/mp4 mp4; }
            }
            """)
        _ = try stream.publish(to: nginx)
        return (nginx, stream)
    }

    private static let cache = Cache()

    /// One generation per process, shared by concurrent callers.
    private actor Cache {
        private var making: Task<FFmpegStream, any Error>?

        func stream() async throws -> FFmpegStream {
            if let making { return try await making.value }
            let task = Task { try await FFmpegStreamFixture.make() }
            making = task
            return try await task.value
        }
    }

    /// The directory the stream is made in: one per test process, removed at its exit.
    static let directory: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = "\(base)/haul-ffmpeg-stream.\(getpid())"
        atexit { try? FileManager.default.removeItem(atPath: FFmpegStreamFixture.directory) }
        return path
    }()

    /// Runs ffmpeg once for the three variants, then openssl to encrypt two of them, and writes the playlists.
    static func make() async throws -> FFmpegStream {
        let root = directory
        try? FileManager.default.removeItem(atPath: root)
        let plain = root + "/plain"
        let web = root + "/web"
        let layout: [(name: String, width: Int, height: Int, rate: Int, encryption: FFmpegStream.Variant.Encryption)] = [
            ("v180", 320, 180, 150, .aes128(implicitIV: false)),
            ("v270", 480, 270, 250, .aes128(implicitIV: true)),
            ("v360", 640, 360, 400, .none),
        ]
        for variant in layout {
            try FileManager.default.createDirectory(atPath: plain + "/" + variant.name, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: web + "/" + variant.name, withIntermediateDirectories: true)
        }

        // One encode for all three: a two-second GOP at 25 fps, so every segment is exactly 2 s (30 segments).
        let encode = [
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "50", "-keyint_min", "50",
            "-sc_threshold", "0", "-c:a", "aac", "-b:a", "32k", "-ac", "1",
            "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
            "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        ]
        var arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25:duration=\(Int(FFmpegStream.sourceDuration))",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=\(Int(FFmpegStream.sourceDuration))",
            "-filter_complex", "[0:v]split=3[a][b][c];[a]scale=320:180[v0];[b]scale=480:270[v1];[c]copy[v2]",
        ]
        for (index, variant) in layout.enumerated() {
            arguments += ["-map", "[v\(index)]", "-map", "1:a"] + encode + ["-b:v", "\(variant.rate)k"]
            if variant.encryption == .none {
                arguments += [
                    "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                    "-hls_segment_filename", "\(plain)/\(variant.name)/seg_%03d.m4s",
                ]
            } else {
                arguments += ["-hls_segment_filename", "\(plain)/\(variant.name)/seg_%03d.ts"]
            }
            arguments.append("\(plain)/\(variant.name)/index.m3u8")
        }
        try await run(ffmpeg, arguments, timeout: .seconds(120))

        var variants: [FFmpegStream.Variant] = []
        try Data(FFmpegStream.key).write(to: URL(fileURLWithPath: web + "/enc.key"))
        var script = ""
        for variant in layout {
            let source = plain + "/" + variant.name
            let playlist = try String(contentsOfFile: source + "/index.m3u8", encoding: .utf8)
            let uris = playlist.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
            var lines = playlist.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var plainFiles = uris.map { source + "/" + $0 }
            switch variant.encryption {
            case .none:
                // Clear fMP4: served as ffmpeg made it.
                plainFiles.insert(source + "/init.mp4", at: 0)
                for file in ["init.mp4", "index.m3u8"] + uris {
                    try FileManager.default.copyItem(atPath: source + "/" + file, toPath: web + "/" + variant.name + "/" + file)
                }
            case .aes128(let implicitIV):
                let first = implicitIV ? FFmpegStream.implicitIVFirstSequence : 0
                let explicit = "0f0e0d0c0b0a09080706050403020100"
                for (index, uri) in uris.enumerated() {
                    let iv = implicitIV ? hex(sequence: first + index) : explicit
                    script += "\(openssl) aes-128-cbc -e -K \(FFmpegStream.key.map { String(format: "%02x", $0) }.joined())"
                        + " -iv \(iv) -in '\(source)/\(uri)' -out '\(web)/\(variant.name)/\(uri)' || exit 1\n"
                }
                let keyLine = "#EXT-X-KEY:METHOD=AES-128,URI=\"../enc.key\"" + (implicitIV ? "" : ",IV=0x\(explicit)")
                lines = lines.map { $0 == "#EXT-X-MEDIA-SEQUENCE:0" ? "#EXT-X-MEDIA-SEQUENCE:\(first)" : $0 }
                let at = (lines.firstIndex { $0.hasPrefix("#EXTINF") } ?? 1)
                lines.insert(keyLine, at: at)
                try lines.joined(separator: "\n").write(toFile: web + "/" + variant.name + "/index.m3u8", atomically: true, encoding: .utf8)
            }
            variants.append(FFmpegStream.Variant(
                directory: variant.name, width: variant.width, height: variant.height,
                bandwidth: (variant.rate + 32) * 1100, encryption: variant.encryption,
                container: variant.encryption == .none ? "mp4" : "ts", plainFiles: plainFiles, segments: uris.count))
        }
        try await run("/bin/sh", ["-c", script], timeout: .seconds(60))

        // The master lists the middle variant first and the best last but one, as packagers order them at will.
        var master = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for variant in [variants[1], variants[2], variants[0]] {
            let codecs = "avc1.42c01e,mp4a.40.2"
            master.append("#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height),CODECS=\"\(codecs)\"")
            master.append("\(variant.directory)/index.m3u8")
            master.append("")
        }
        try master.joined(separator: "\n").write(toFile: web + "/master.m3u8", atomically: true, encoding: .utf8)
        return FFmpegStream(root: root, variants: variants)
    }

    /// The IV for a media sequence number: 32 hex digits, big-endian.
    static func hex(sequence: Int) -> String {
        let digits = String(sequence, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }

    /// Runs a tool to its end (bounded); throws with its stderr unless it exits 0.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], timeout: Duration) async throws -> String {
        let process = try HaulProcess(URL(fileURLWithPath: tool), arguments: arguments)
        let status = try await process.waitForExit(timeout: timeout)
        guard status == 0 else {
            throw FixtureFailure(message: "\(tool) \(arguments.prefix(12).joined(separator: " ")) … exited \(status):\n\(process.stderrText())")
        }
        return process.stdoutText()
    }
}

/// A fixture tool failed.
struct FixtureFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// What ffprobe and ffmpeg say of a downloaded file.
enum MediaCheck {
    /// The container's duration in seconds (`format=duration`), nil when ffprobe cannot read one.
    static func duration(_ path: String) async throws -> Double? {
        let text = try await FFmpegStreamFixture.run(
            FFmpegStreamFixture.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], timeout: .seconds(30))
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The number of streams ffprobe finds (`format=nb_streams`: video and audio make 2).
    static func streamCount(_ path: String) async throws -> Int? {
        let text = try await FFmpegStreamFixture.run(
            FFmpegStreamFixture.ffprobe, ["-v", "error", "-show_entries", "format=nb_streams", "-of", "csv=p=0", path], timeout: .seconds(30))
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What `ffmpeg -v error -i PATH -f null -` prints while decoding every frame: empty for a clean file.
    static func decodeErrors(_ path: String) async throws -> String {
        let process = try HaulProcess(
            URL(fileURLWithPath: FFmpegStreamFixture.ffmpeg), arguments: ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
        let status = try await process.waitForExit(timeout: .seconds(60))
        return (status == 0 ? "" : "exit \(status)\n") + process.stderrText()
    }
}

import Foundation
import HaulTestSupport

/// HLS streams ffmpeg makes that a plain concatenation gets wrong (issue 26 §1, TECH_NOTES §I.6), made once per
/// test process from short `testsrc`/`sine` pieces (each restarting its timestamps) and served by nginx under `/odd/`:
///
/// - `piece.m3u8`: one 6 s MPEG-TS piece, as ffmpeg wrote it;
/// - `disc.m3u8`: MPEG-TS pieces of 6, 4 and 4 s joined with `EXT-X-DISCONTINUITY` (14 s; `cat` reads 6.02 s);
/// - `updown.m3u8`: MPEG-TS, 6 s at 320x180, then `EXT-X-DISCONTINUITY` and 6 s at 640x360 (12 s; `cat` reads 6.02 s);
/// - `mapchange.m3u8`: fMP4, 4 s at 320x180, then `EXT-X-DISCONTINUITY` and a new `EXT-X-MAP` at 160x90 (segment 2);
/// - `encinit.m3u8`: fMP4 whose `EXT-X-KEY` (with an IV) comes before `EXT-X-MAP`, so the init section is encrypted
///   too; `encInitPlain` is what a client must write;
/// - `music.m3u`: a plain M3U music playlist (`audio/x-mpegurl`), no HLS at all.
enum FFmpegOddStreams {
    /// Seconds of `disc.m3u8` and of `piece.m3u8`.
    static let discontinuousSeconds = 14.0
    static let pieceSeconds = 6.0
    static let upDownSeconds = 12.0

    /// The clear init section and segments of `encinit.m3u8`, in order (absolute paths).
    static let encInitPlain = ["init_f.mp4", "f_000.m4s", "f_001.m4s"].map { directory + "/src/" + $0 }

    static let directory = FFmpegStreamFixture.directory + "-odd"

    /// Made once per process (bounded), removed at its exit.
    static let made = Task<String, any Error> {
        atexit { try? FileManager.default.removeItem(atPath: FFmpegOddStreams.directory) }
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory + "/src", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/web", withIntermediateDirectories: true)
        try await FFmpegStreamFixture.run("/bin/sh", ["-c", script], timeout: .seconds(120))
        return directory + "/web"
    }

    /// nginx serving the streams under `/odd/`.
    static func serve() async throws -> NginxFixture {
        let web = try await made.value
        let nginx = try await NginxFixture.start(locations: """
            location /odd/ {
                types { application/vnd.apple.mpegurl m3u8; audio/x-mpegurl m3u; video/mp2t ts; video/iso.segment m4s; video/mp4 mp4; }
            }
            """)
        try FileManager.default.copyItem(atPath: web, toPath: nginx.root + "/odd")
        return nginx
    }

    /// What `encinit.m3u8` holds in the clear.
    static func encInitExpected() throws -> [UInt8] {
        try encInitPlain.flatMap { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
    }

    static let key = "00112233445566778899aabbccddeeff"
    static let iv = "0f0e0d0c0b0a09080706050403020100"

    /// The shell script that makes every stream (ffmpeg, then openssl for the encrypted one).
    static var script: String {
        let ffmpeg = FFmpegStreamFixture.ffmpeg
        let openssl = FFmpegStreamFixture.openssl
        let encode = "-c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 50 -keyint_min 50 -sc_threshold 0 -threads 1 "
            + "-c:a aac -b:a 32k -ac 1 -f hls -hls_time 2 -hls_playlist_type vod"
        func piece(_ name: String, seconds: Int, size: String, fmp4: Bool) -> String {
            let input = "-f lavfi -i testsrc=size=\(size):rate=25:duration=\(seconds) "
                + "-f lavfi -i sine=frequency=1000:sample_rate=48000:duration=\(seconds)"
            let segments = fmp4
                ? "-hls_segment_type fmp4 -hls_fmp4_init_filename init_\(name).mp4 -hls_segment_filename \(name)_%03d.m4s"
                : "-hls_segment_filename \(name)_%03d.ts"
            return "\(ffmpeg) -nostdin -hide_banner -loglevel error -y \(input) \(encode) \(segments) \(name).m3u8 || exit 1\n"
        }
        // The EXTINF and URI lines of a piece's playlist.
        let body = "body() { grep -v -e '^#EXTM3U' -e '^#EXT-X-VERSION' -e '^#EXT-X-TARGETDURATION' -e '^#EXT-X-MEDIA-SEQUENCE' "
            + "-e '^#EXT-X-PLAYLIST-TYPE' -e '^#EXT-X-ENDLIST' -e '^#EXT-X-MAP' -e '^#EXT-X-INDEPENDENT' \"$1\"; }\n"
        let header = "printf '#EXTM3U\\n#EXT-X-VERSION:7\\n#EXT-X-TARGETDURATION:2\\n#EXT-X-MEDIA-SEQUENCE:0\\n#EXT-X-PLAYLIST-TYPE:VOD\\n'"
        var script = "set -e\ncd '\(directory)/src'\n" + body
        script += piece("a", seconds: 6, size: "320x180", fmp4: false)
        script += piece("b", seconds: 4, size: "320x180", fmp4: false)
        script += piece("c", seconds: 4, size: "320x180", fmp4: false)
        script += piece("d", seconds: 6, size: "640x360", fmp4: false)
        script += piece("f", seconds: 4, size: "320x180", fmp4: true)
        script += piece("g", seconds: 4, size: "160x90", fmp4: true)
        script += """
            W='\(directory)/web'
            cp a_*.ts b_*.ts c_*.ts d_*.ts f_*.m4s g_*.m4s init_f.mp4 init_g.mp4 "$W/"
            cp a.m3u8 "$W/piece.m3u8"
            { \(header); body a.m3u8; echo '#EXT-X-DISCONTINUITY'; body b.m3u8; echo '#EXT-X-DISCONTINUITY'; body c.m3u8; echo '#EXT-X-ENDLIST'; } > "$W/disc.m3u8"
            { \(header); body a.m3u8; echo '#EXT-X-DISCONTINUITY'; body d.m3u8; echo '#EXT-X-ENDLIST'; } > "$W/updown.m3u8"
            { \(header); echo '#EXT-X-MAP:URI="init_f.mp4"'; body f.m3u8; echo '#EXT-X-DISCONTINUITY'; echo '#EXT-X-MAP:URI="init_g.mp4"'; body g.m3u8; echo '#EXT-X-ENDLIST'; } > "$W/mapchange.m3u8"
            printf '#EXTM3U\n#EXTINF:215,Artist - Song\nArtist/Song.mp3\n#EXTINF:180,Other - Tune\nOther/Tune.mp3\n' > "$W/music.m3u"
            mkdir -p "$W/enc"
            printf '\\000\\021\\042\\063\\104\\125\\146\\167\\210\\231\\252\\273\\314\\335\\356\\377' > "$W/enc/enc.key"
            for f in init_f.mp4 f_*.m4s; do \(openssl) aes-128-cbc -e -K \(key) -iv \(iv) -in "$f" -out "$W/enc/$f"; done
            { \(header); echo '#EXT-X-KEY:METHOD=AES-128,URI="enc.key",IV=0x\(iv)'; echo '#EXT-X-MAP:URI="init_f.mp4"'; body f.m3u8; echo '#EXT-X-ENDLIST'; } > "$W/enc/encinit.m3u8"

            """
        return script
    }
}

extension MediaCheck {
    /// ffprobe's `format_name` of a file ("mpegts", "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"), without CSV quotes.
    static func formatName(_ path: String) async throws -> String {
        try await FFmpegStreamFixture.run(
            FFmpegStreamFixture.ffprobe, ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", path], timeout: .seconds(30)
        ).trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\""]))
    }
}

extension HLSPlan {
    /// The master playlist: `variants` entries with BANDWIDTH, RESOLUTION and CODECS, and the audio group when `audio`.
    public func masterPlaylist() -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3"]
        if audio {
            lines.append(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,"
                    + "URI=\"\(uri("audio/index.m3u8"))\"")
        }
        for index in 0..<variants {
            let group = audio ? ",AUDIO=\"aud\"" : ""
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\(Self.bandwidth(ofVariant: index)),RESOLUTION=\(Self.resolution(ofVariant: index)),"
                    + "CODECS=\"avc1.42c01e,mp4a.40.2\"\(group)")
            lines.append(uri("v\(index)/index.m3u8"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The media playlist of `track` as served at its fetch number `fetch` (1-based): `change` and `rotate` depend on it.
    public func mediaPlaylist(track: Track = .main, fetch: Int = 1) -> String {
        let (shown, ended) = listed(atFetch: fetch)
        let duration = durationMilliseconds(atFetch: fetch)
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:\(byteRange ? 4 : 3)", "#EXT-X-TARGETDURATION:\((duration + 999) / 1000)",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence + Int64(shown.lowerBound))",
        ]
        if !live, growth == nil { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        if encrypted {
            let iv = implicitIV ? "" : ",IV=0x" + Self.explicitIV.map { hex($0) }.joined()
            lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"\(uri("key.bin"))\"\(iv)")
        }
        let token = rotate ? "r\(fetch)/" : ""
        for index in shown {
            lines.append("#EXTINF:\(Self.seconds(duration)),")
            if byteRange {
                lines.append("#EXT-X-BYTERANGE:\(servedSize(of: index))@\(byteRangeOffset(of: index, track: track))")
                lines.append(uri(token + "stream.ts"))
            } else {
                lines.append(uri(token + "seg\(index).ts"))
            }
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `relative` with the plan's query.
    private func uri(_ relative: String) -> String { query.isEmpty ? relative : relative + "?" + query }

    /// Milliseconds as seconds with six decimals, as ffmpeg writes `EXTINF` (`2.000000`).
    static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "000"
    }

    private func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16)
        return text.count == 1 ? "0" + text : text
    }
}

import Foundation
import HaulCore
import Testing

/// What `yt-dlp -J` says a page holds, read as a value, and the video haul fetches from it (DESIGN §11): pure, no I/O.
@Suite struct PageChoiceTests {
    func info(_ json: String) throws -> PageInfo {
        try PageExtractor.decode(Array(json.utf8)).get()
    }

    let headers = #""http_headers": {"User-Agent": "Mozilla/5.0 X", "Referer": "http://127.0.0.1:1/p.html", "Accept": "*/*"}"#

    @Test func aPageWithOneFileGivesItUnderItsTitle() throws {
        let page = try info(#"""
            {"_type": "video", "id": "one-1", "title": "My \"Talk\" ../../etc/passwd (1)", "formats": [{"format_id": "0",
             "url": "http://127.0.0.1:1/x.mp4", "protocol": "http", "ext": "mp4", "vcodec": null, \#(headers)}]}
            """#)
        let selection = try PageChoice.select(page, choice: .best).get()
        #expect(selection.group == nil)
        let media = try #require(selection.media.first)
        #expect(media.url == "http://127.0.0.1:1/x.mp4")
        #expect(media.formatID == "0")
        let name = try #require(media.fileName)
        #expect(name.hasSuffix(".mp4"))
        #expect(!name.contains("/") && !name.hasPrefix("."))
        #expect(name.contains("passwd (1)"))
        #expect(media.headers.contains("Referer: http://127.0.0.1:1/p.html"))
        #expect(media.headers.contains("User-Agent: Mozilla/5.0 X"))
    }

    @Test func anHLSPageGivesTheMasterPlaylistAndNoExtension() throws {
        let page = try info(#"""
            {"id": "hls-1", "title": "HLS page", "formats": [
             {"format_id": "hls-group_aud-audio_1", "url": "http://127.0.0.1:1/a.m3u8", "manifest_url": "http://127.0.0.1:1/master.m3u8",
              "protocol": "m3u8_native", "vcodec": "none", "acodec": "mp4a"},
             {"format_id": "hls-70", "url": "http://127.0.0.1:1/v.m3u8", "manifest_url": "http://127.0.0.1:1/master.m3u8",
              "protocol": "m3u8_native", "vcodec": "avc1.42c00d", "acodec": "none", "height": 240, "tbr": 70.4}]}
            """#)
        let media = try #require(try PageChoice.select(page, choice: .height(720)).get().media.first)
        #expect(media.url == "http://127.0.0.1:1/master.m3u8")
        #expect(media.fileName == nil)
        #expect(media.stem == "HLS page")
        #expect(PageChoice.refreshed(page, formatID: "hls-70") == "http://127.0.0.1:1/master.m3u8")
        #expect(PageChoice.refreshed(page, formatID: "gone") == nil)
    }

    @Test func aDASHPageGivesItsManifest() throws {
        let page = try info(#"""
            {"id": "d", "title": "D", "formats": [{"format_id": "v", "url": "http://127.0.0.1:1/m.mpd",
             "manifest_url": "http://127.0.0.1:1/m.mpd", "protocol": "http_dash_segments", "fragments": [{"path": "a"}]}]}
            """#)
        #expect(try PageChoice.select(page, choice: .best).get().media.first?.url == "http://127.0.0.1:1/m.mpd")
    }

    @Test func aPlaylistPageGivesEveryVideoInOneGroup() throws {
        let entry = { (n: Int) in
            #"{"id": "two-\#(n)", "title": "Two (\#(n))", "formats": [{"format_id": "0", "url": "http://127.0.0.1:1/\#(n).mp4", "protocol": "http", "ext": "mp4"}]}"#
        }
        let page = try info(#"{"_type": "playlist", "id": "two", "title": "Two", "entries": [\#(entry(1)), null, 7, \#(entry(2))]}"#)
        let selection = try PageChoice.select(page, choice: .best).get()
        #expect(selection.group == "Two")
        #expect(selection.media.map(\.url) == ["http://127.0.0.1:1/1.mp4", "http://127.0.0.1:1/2.mp4"])
        #expect(selection.media.map(\.fileName) == ["Two (1).mp4", "Two (2).mp4"])
    }

    @Test func qualityPicksAmongFilesWithVideoAndAudio() throws {
        let format = { (id: String, height: Int, tbr: Double, acodec: String) in
            #"{"format_id": "\#(id)", "url": "http://127.0.0.1:1/\#(id).mp4", "protocol": "https", "ext": "mp4", "height": \#(height), "tbr": \#(tbr), "acodec": "\#(acodec)", "vcodec": "avc1"}"#
        }
        let page = try info(#"""
            {"id": "q", "title": "Q", "formats": [\#(format("240", 240, 300, "mp4a")), \#(format("360", 360, 600, "mp4a")),
             \#(format("720", 720, 1500, "mp4a")), \#(format("1080v", 1080, 4000, "none"))]}
            """#)
        #expect(try PageChoice.select(page, choice: .best).get().media.first?.formatID == "720")
        #expect(try PageChoice.select(page, choice: .worst).get().media.first?.formatID == "240")
        #expect(try PageChoice.select(page, choice: .height(480)).get().media.first?.formatID == "360")
    }

    @Test func onlyHTTPLinksAreTaken() throws {
        let page = try info(#"""
            {"id": "x", "title": "X", "formats": [{"format_id": "f", "url": "file:///etc/passwd", "protocol": "http"},
             {"format_id": "r", "url": "rtmp://127.0.0.1/live", "protocol": "rtmp"},
             {"format_id": "m", "manifest_url": "file:///etc/passwd", "protocol": "m3u8_native"},
             {"format_id": "g", "url": "gopher://127.0.0.1/", "protocol": "https"}]}
            """#)
        #expect(PageChoice.select(page, choice: .best) == .failure(.noUsableFormat))
        #expect(PageChoice.select(try info(#"{"_type": "playlist", "entries": []}"#), choice: .best) == .failure(.noUsableFormat))
    }

    @Test func hostileValuesReadAsUnknown() throws {
        let page = try info(#"""
            {"id": 5, "title": ["no"], "formats": [{"format_id": "a", "url": "http://127.0.0.1:1/a.webm", "protocol": "http",
             "ext": "../../x", "height": -5, "tbr": 1e308, "http_headers": {"X-Evil": "a\r\nHost: b", "Good": "1", "Bad Name": "2", "N": 3}}]}
            """#)
        let format = try #require(page.formats.first)
        #expect(format.height == nil && format.kbps == nil)
        #expect(page.id == nil && page.title == nil)
        let media = try #require(try PageChoice.select(page, choice: .best).get().media.first)
        #expect(media.headers == ["Good: 1"])
        #expect(media.fileName == "video")
    }

    @Test func cookiesGoAsOneCookieLine() {
        let format = PageFormat(url: "http://127.0.0.1:1/a", cookies: "sid=abc; Domain=127.0.0.1; Path=/; Expires=1; lang=en; Secure")
        #expect(PageHeaders.lines(of: format) == ["Cookie: sid=abc; lang=en"])
    }

    @Test func theUsersHeadersWin() {
        let merged = PageHeaders.merged(["user-agent: mine"], page: ["User-Agent: theirs", "Referer: http://127.0.0.1/p"])
        #expect(merged == ["user-agent: mine", "Referer: http://127.0.0.1/p"])
    }

    @Test func answersThatAreNoPageAreRefused() {
        for text in ["null", "", "garbage", "{\"formats\": ", "[1, 2]"] {
            guard case .failure(.unreadable) = PageExtractor.decode(Array(text.utf8)) else {
                Issue.record("\(text) decoded")
                continue
            }
        }
    }

    @Test func aPageIsKnownByItsContentType() {
        #expect(WebPageAnswer.isPage(contentType: "text/html; charset=utf-8"))
        #expect(WebPageAnswer.isPage(contentType: "Application/XHTML+xml"))
        #expect(!WebPageAnswer.isPage(contentType: "application/octet-stream"))
        #expect(!WebPageAnswer.isPage(contentType: "text/plain"))
        #expect(!WebPageAnswer.isPage(contentType: nil))
    }

    @Test func extractionOffOrMissingSaysWhy() {
        let off = PageExtraction.resolve("none", path: "/nonexistent-dir")
        #expect(off.extractor == nil)
        #expect(off.note?.contains("--extractor none") == true)
        let bogus = PageExtraction.resolve("/nonexistent/yt-dlp", path: nil)
        #expect(bogus.extractor == nil)
        #expect(bogus.note?.contains("/nonexistent/yt-dlp is not a program") == true)
        let missing = PageExtraction.resolve(nil, path: "/nonexistent-dir")
        #expect(missing.note?.contains("install yt-dlp") == true)
        #expect(PageExtraction.resolve("/bin/sh", path: nil).extractor?.executable == "/bin/sh")
    }
}

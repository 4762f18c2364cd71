import Testing
@testable import HaulCore

@Suite struct ContentDispositionTests {
    @Test(arguments: [
        // Plain quoted and token forms.
        ("attachment; filename=\"a b.pdf\"", "a b.pdf"),
        ("attachment; filename=movie.bin", "movie.bin"),
        ("attachment;filename=\"movie.bin\"", "movie.bin"),
        ("ATTACHMENT; FILENAME=\"Report.PDF\"", "Report.PDF"),
        ("attachment; filename = \"spaced.txt\" ", "spaced.txt"),
        ("inline; filename=\"preview.png\"", "preview.png"),
        // No disposition type at all (seen from misconfigured servers).
        ("filename=\"bare.txt\"", "bare.txt"),
        // Unquoted name with spaces, as sent by sloppy servers.
        ("attachment; filename=my report.pdf; size=12", "my report.pdf"),
        // Escapes and separators inside quotes.
        ("attachment; filename=\"say \\\"hi\\\".txt\"", "say \"hi\".txt"),
        ("attachment; filename=\"back\\\\slash.txt\"", "back\\slash.txt"),
        ("attachment; filename=\"a;b=c.txt\"; creation-date=\"x\"", "a;b=c.txt"),
        // Other parameters before the name.
        ("attachment; size=100; name=\"field\"; filename=\"third.bin\"", "third.bin"),
        // Unterminated quote runs to the end.
        ("attachment; filename=\"open.txt", "open.txt"),
        // The first of two filename parameters wins.
        ("attachment; filename=\"one.txt\"; filename=\"two.txt\"", "one.txt"),
        // Not sanitised here: that is SafeFileName's job.
        ("attachment; filename=\"../../etc/passwd\"", "../../etc/passwd"),
    ])
    func plainFileName(header: String, expected: String) {
        #expect(ContentDisposition.fileName(from: header) == expected)
    }

    @Test(arguments: [
        ("attachment; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4", "電影.mp4"),
        ("attachment; filename=\"fallback.mp4\"; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4", "電影.mp4"),
        ("attachment; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4; filename=\"fallback.mp4\"", "電影.mp4"),
        ("attachment; filename*=iso-8859-1'en'%A3%20rates", "£ rates"),
        ("attachment; filename*=ISO-8859-1''caf%E9.txt", "café.txt"),
        ("attachment; filename*=utf-8'ja'%E3%83%86%E3%82%B9%E3%83%88.zip", "テスト.zip"),
        ("attachment; filename*=UTF-8''plain-ascii.txt", "plain-ascii.txt"),
        ("attachment; FILENAME*=UTF-8''upper%20case.txt", "upper case.txt"),
        // Quoted ext-value: not allowed by RFC 8187, but sent in the wild.
        ("attachment; filename*=\"UTF-8''quoted%20ext.txt\"", "quoted ext.txt"),
        // A language tag with a region.
        ("attachment; filename*=UTF-8'en-US'na%C3%AFve.txt", "naïve.txt"),
    ])
    func extendedFileName(header: String, expected: String) {
        #expect(ContentDisposition.fileName(from: header) == expected)
    }

    @Test(arguments: [
        // Unknown charset, bad UTF-8, broken escape, missing quote parts: fall back to filename.
        ("attachment; filename*=KOI8-R''%F4%C5%D3%D4; filename=\"fallback.txt\"", "fallback.txt"),
        ("attachment; filename*=UTF-8''%FF%FE.txt; filename=\"fallback.txt\"", "fallback.txt"),
        ("attachment; filename*=UTF-8''%E9%9B; filename=\"fallback.txt\"", "fallback.txt"),
        ("attachment; filename*=UTF-8''bad%zzescape; filename=\"fallback.txt\"", "fallback.txt"),
        ("attachment; filename*=no-quotes-at-all; filename=\"fallback.txt\"", "fallback.txt"),
        ("attachment; filename*=UTF-8''; filename=\"fallback.txt\"", "fallback.txt"),
    ])
    func undecodableExtendedValueFallsBack(header: String, expected: String) {
        #expect(ContentDisposition.fileName(from: header) == expected)
    }

    @Test(arguments: [
        "",
        "inline",
        "attachment",
        "attachment;",
        "attachment; filename",
        "attachment; filename=",
        "attachment; filename=\"\"",
        "attachment; filename*=UTF-8''%FF",
        "attachment; name=\"upload\"",
        ";;;===;;;",
        "=\"orphan.txt\"",
        "\u{1B}[2J garbage \u{0}",
    ])
    func noFileName(header: String) {
        #expect(ContentDisposition.fileName(from: header) == nil)
    }

    @Test func parametersAreSplitOutsideQuotesOnly() {
        let parameters = ContentDisposition.parameters(of: "attachment; a=\"x;y\"; B = z ;c=\"q\\\"r\"")
        #expect(parameters.map(\.name) == ["a", "b", "c"])
        #expect(parameters.map(\.value) == ["x;y", "z", "q\"r"])
    }
}

import HaulCore
import Testing

/// Every option defined once (`OptionRegistry`), and what the ways in make of a download's own options.
struct OptionRegistryTests {
    @Test func everyOptionHasOneDefinitionAndEveryAria2NameOneOption() {
        #expect(OptionRegistry.all.map(\.key) == OptionKey.allCases, "one definition each, in the keys' order")
        let aria2 = OptionRegistry.all.compactMap(\.aria2?.name)
        #expect(Set(aria2).count == aria2.count)
        #expect(OptionRegistry.aria2Named("max-download-limit")?.key == .limitRate)
        #expect(OptionRegistry.aria2Named("max-connection-per-server")?.key == .maxHostConnections)
        #expect(OptionRegistry.aria2Named("netrc-path")?.key == .netrcFile)
        #expect(OptionRegistry.aria2Named("rpc-secret") == nil)
    }

    @Test func aStallTimeoutIsBetweenASecondAndADay() {
        let check = OptionRegistry[.timeout].check
        #expect(check(.int(0)) == "must be at least 1 second, got 0")
        #expect(check(.int(86_400)) == nil)
        #expect(check(.int(Int.max))?.hasPrefix("must be at most 86400 seconds") == true)
    }

    /// A check's message follows the option's name (`--stream-quality 'abc' is not valid …`): a stream option's
    /// named itself again (`--stream-quality stream-quality 'abc' …`, `key 'stream': stream 'x' …`).
    @Test func aStreamOptionsMessageDoesNotNameItAgain() {
        for key in [OptionKey.stream, .streamQuality, .streamRemux, .liveLimit, .streamSubs] {
            let message = OptionRegistry[key].check(.string("!bogus!")) ?? ""
            #expect(message.hasPrefix("'!bogus!' is not valid: use "), "\(key.name): \(message)")
        }
    }

    @Test func aria2ValuesAreStringsInItsForms() {
        #expect(Aria2Form.text(.string("1M"), kind: .size) == "1048576")
        #expect(Aria2Form.text(.bool(true), kind: .bool) == "true")
        #expect(Aria2Form.text(.strings(["X-A: 1", "X-B: 2"]), kind: .strings) == "X-A: 1\nX-B: 2\n")
        #expect(Aria2Form.value("512K", kind: .size) == .string("512K"))
        #expect(Aria2Form.value("abc", kind: .size) == nil)
        #expect(Aria2Form.value("yes", kind: .bool) == nil)
        #expect(Aria2Form.value("8", kind: .int) == .int(8))
        #expect(Aria2Form.value("X-A: 1\nX-B: 2\n", kind: .strings) == .strings(["X-A: 1", "X-B: 2"]))
    }

    @Test func aDownloadsOwnOptionsGoIntoItsRequestChecked() throws {
        var request = TaskRequest(url: "http://127.0.0.1/a.bin")
        try request.set(.split, .int(8))
        try request.set(.limitRate, .string("1M"))
        try request.set(.header, .string("X-A: 1"))
        try request.set(.referer, .string("http://127.0.0.1/page"))
        #expect(request.transfer.split == 8 && request.transfer.rateLimit == 1 << 20)
        #expect(request.headers == ["X-A: 1", "Referer: http://127.0.0.1/page"])
        #expect(request.given == [.split, .limitRate, .header])
        #expect(throws: OptionValueError.notPerTask(.maxConcurrent)) { try request.set(.maxConcurrent, .int(2)) }
        #expect(throws: OptionValueError.self) { try request.set(.split, .int(0)) }
        #expect(throws: OptionValueError.intake(.reservedHeader("range"))) { try request.set(.header, .string("Range: bytes=0-")) }
        try request.set(.limitRate, .string("0"))
        #expect(request.transfer.rateLimit == 0, "0: none for this download")
    }

    @Test func anInputFileEntryTakesHaulsAndAria2sNames() throws {
        let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")
        let text = "http://127.0.0.1/a.bin\n  split=8\n  max-download-limit=1M\n  allow-overwrite=true\n"
        let (tasks, warnings) = try InputFile.parse(Array(text.utf8), intake: intake)
        #expect(warnings.isEmpty)
        #expect(tasks.first?.requestOptions.split == 8)
        #expect(tasks.first?.requestOptions.rateLimit == 1 << 20)
        #expect(tasks.first?.requestOptions.allowOverwrite == true)
        #expect(throws: InputFileError.self) { try InputFile.parse(Array("http://127.0.0.1/a\n  split=many\n".utf8), intake: intake) }
    }
}

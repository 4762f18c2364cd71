import HaulCore
import Testing
@testable import HaulSettings

/// The one precedence rule: the command line over the file, the file over the built-in defaults.
@Suite struct SettingsResolutionTests {
    static let keys = OptionRegistry.all

    @Test func eachSettingSaysItsValueAndOrigin() {
        let resolution = SettingsResolution(
            keys: Self.keys,
            file: [.split: .init(.int(8), line: 3), .retries: .init(.int(1), line: 4), .dir: .init(.string("/d"), line: 1)],
            path: "/c.toml", commandLine: [.retries: .int(9), .timeout: .int(12)])
        #expect(resolution.value(.split) == .int(8) && resolution.origin(.split) == .file(path: "/c.toml", line: 3))
        #expect(resolution.value(.retries) == .int(9) && resolution.origin(.retries) == .commandLine, "the command line wins over the file")
        #expect(resolution.value(.timeout) == .int(12) && resolution.origin(.timeout) == .commandLine)
        #expect(resolution.value(.maxHostConnections) == .int(8) && resolution.origin(.maxHostConnections) == .builtIn)
        #expect(resolution.value(.limitRate) == nil && resolution.origin(.limitRate) == .builtIn)
        #expect(resolution.origin(.split).description == "/c.toml:3")
        #expect(resolution.origin(.retries).description == "command line")
        #expect(resolution.origin(.timeout).description != resolution.origin(.theme).description)
        #expect(resolution.origin(.theme).description == "default")
        #expect(resolution.entries.map(\.key.name) == Self.keys.map(\.name), "every key, in the table's order")
    }

    @Test func credentialsAreMaskedInTheValuesAsShown() {
        let resolution = SettingsResolution(
            keys: Self.keys,
            file: [.allProxy: .init(.string("http://puser:CfgPW9@127.0.0.1:3128"), line: 1),
                   .header: .init(.strings(["Authorization: Bearer T0ken", "X-A: 1"]), line: 2),
                   .referer: .init(.string("https://ruser:RefPW@example.org/page"), line: 3)],
            path: "/c.toml", commandLine: [.split: .int(3)])
        #expect(resolution[.allProxy].shownValue == .string("http://127.0.0.1:3128"))
        #expect(resolution[.header].shownValue == .strings(["Authorization: \(SecretText.mask)", "X-A: 1"]))
        #expect(resolution[.referer].shownValue == .string("https://example.org/page"))
        #expect(resolution[.split].shownValue == .int(3), "other values are shown as they are")
        #expect(resolution[.theme].shownValue == nil)
        #expect(resolution.value(.allProxy) == .string("http://puser:CfgPW9@127.0.0.1:3128"), "the value used keeps them")
    }

    @Test func changedKeysCompareValuesOnly() {
        let before = SettingsResolution(keys: Self.keys, file: [.split: .init(.int(8), line: 3)], path: "/c.toml")
        let after = SettingsResolution(
            keys: Self.keys, file: [.split: .init(.int(8), line: 5), .limitRate: .init(.string("1M"), line: 6)], path: "/c.toml")
        #expect(after.changedKeys(from: before) == [.limitRate])
    }

    @Test func theNearestKeyIsFoundByEditDistance() {
        let names = Self.keys.map(\.name)
        #expect(KeySuggestion.nearest(to: "max-concurent", among: names) == "max-concurrent")
        #expect(KeySuggestion.nearest(to: "limitrate", among: names) == "limit-rate")
        #expect(KeySuggestion.nearest(to: "User-Agent", among: names) == "user-agent")
        #expect(KeySuggestion.nearest(to: "spilt", among: names) == "split")
        #expect(KeySuggestion.nearest(to: "frobnicate", among: names) == nil)
        #expect(KeySuggestion.editDistance("kitten", "sitting") == 3)
    }

    @Test func everyDefaultPassesItsOwnCheck() {
        for key in Self.keys {
            if let value = key.defaultValue {
                #expect(key.kind.accepts(value), "\(key.name)")
                #expect(key.check(value) == nil, "\(key.name)")
            }
        }
    }
}

import HaulCore
import Testing

/// Every option has one section of the man page: settings by their key, the command line's own by name.
struct OptionSectionTests {
    @Test func theCommandLinesOwnOptionsAreNoSettings() {
        for name in OptionSection.commandLineOnly.keys {
            #expect(OptionKey(name: name) == nil, "\(name) is a setting: its key decides its section")
        }
    }

    @Test func optionsAreFoundByTheirLongName() {
        #expect(OptionSection.of("max-concurrent") == .transfers)
        #expect(OptionSection.of("ca-cert") == .requests)
        #expect(OptionSection.of("state-dir") == .state)
        #expect(OptionSection.of("no-such-option") == nil)
    }
}

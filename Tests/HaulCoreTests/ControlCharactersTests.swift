import Testing
import HaulCore

/// The one control-character rule: C0, DEL and C1, nothing else.
@Suite struct ControlCharactersTests {
    @Test func c0DelAndC1AreControlCharactersAndNothingElse() {
        let controls = (0x00...0x1F).map { $0 } + (0x7F...0x9F).map { $0 }
        for value in 0...0x2FF {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(scalar.isControlCharacter == controls.contains(value), "U+\(String(value, radix: 16))")
        }
    }

    @Test func escapeStripAndDetect() {
        let text = "a\u{1B}[2Jb\nc\u{9B}d\té"
        #expect(text.containsControlCharacters)
        #expect(!"plain é 電影".containsControlCharacters)
        #expect(text.escapingControlCharacters == "a\\u{1B}[2Jb\nc\\u{9B}d\\u{9}é")
        #expect(text.escapingAllControlCharacters == "a\\u{1B}[2Jb\\u{A}c\\u{9B}d\\u{9}é")
        #expect(text.strippingControlCharacters == "a[2Jbcdé")
        #expect("Not Found".escapingAllControlCharacters == "Not Found")
    }

    @Test func oneConcurrencyRange() {
        #expect(ConcurrencyLimit.range == 1...64)
        #expect(ConcurrencyLimit.clamped(0) == 1)
        #expect(ConcurrencyLimit.clamped(65) == 64)
        #expect(ConcurrencyLimit.clamped(7) == 7)
    }
}

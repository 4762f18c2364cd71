import FuzzSupport
import HaulCore

/// What a user pastes into the prompt or gives on the command line: URLs checked, normalised and named.
func fuzzURLIntake(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? TaskIntake(defaultDirectory: "/nonexistent-haul-fuzz").promptTasks(text)
    let redacted = URLValidation.redacted(text)
    _ = URLValidation.host(of: text)
    FuzzInput.require(!redacted.contains("@") || !text.contains("://") || redacted.count <= text.count, "redaction grew the text")
    guard let url = try? URLValidation.validate(text) else { return }
    // Normalising is idempotent: a checked URL checks as itself (a second pass must not encode % again).
    FuzzInput.require((try? URLValidation.validate(url)) == url, "validate is not idempotent: \(url)")
    FuzzInput.require(url.unicodeScalars.allSatisfy(\.isASCII), "a checked URL is not ASCII: \(url)")
    for name in [SafeFileName.fromURL(url), SafeFileName.fromURL(text)].compactMap({ $0 }) {
        FuzzInput.require(!name.isEmpty && !name.contains("/") && name != "." && name != "..", "unsafe name \(name)")
        FuzzInput.require(SafeFileName.sanitize(name) == name, "a URL's name is not already sanitised: \(name)")
    }
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzURLIntake) }
}

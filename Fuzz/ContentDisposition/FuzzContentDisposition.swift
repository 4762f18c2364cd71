import FuzzSupport
import HaulCore

/// A server's `Content-Disposition`: whatever it says, the name haul takes is a plain file name.
func fuzzContentDisposition(_ bytes: [UInt8]) {
    let value = String(decoding: bytes, as: UTF8.self)
    guard let suggested = ContentDisposition.fileName(from: value), let name = SafeFileName.sanitize(suggested) else { return }
    FuzzInput.require(!name.isEmpty && !name.contains("/") && name != "." && name != "..", "unsafe name \(name)")
    FuzzInput.require(!name.unicodeScalars.contains(where: \.isControlCharacter), "control character in \(name.debugDescription)")
    FuzzInput.require(name.utf8.count <= 255, "name longer than a file name may be")
    FuzzInput.require(SafeFileName.sanitize(name) == name, "sanitising is not idempotent: \(name.debugDescription)")
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzContentDisposition) }
}

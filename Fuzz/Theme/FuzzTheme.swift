import FuzzSupport
import HaulTUI

/// A theme file's TOML: any text gives a theme or an error, never a crash (bad entries only warn).
func fuzzTheme(_ bytes: [UInt8]) {
    _ = try? ThemeFile.parse(String(decoding: bytes, as: UTF8.self), source: "fuzz.toml")
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzTheme) }
}

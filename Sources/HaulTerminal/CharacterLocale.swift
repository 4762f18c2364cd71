import Glibc

/// The character set text is written in, from the environment: UTF-8, or else ASCII glyphs (`—` becomes `-`).
/// The live list and `haul list` ask here alike. Sets the process's LC_CTYPE; call it on the main thread before
/// other threads format text.
public enum CharacterLocale {
    /// Takes the character type from the environment (only LC_CTYPE: number formatting and the rest stay
    /// "C" for the whole process) and says whether it is UTF-8. When the environment asks for UTF-8 in a locale
    /// this system lacks (`LANG=en_US.UTF-8` without that locale installed), falls back to C.UTF-8 rather than ASCII.
    @discardableResult
    public static func adopt() -> Bool {
        setlocale(LC_CTYPE, "")
        if isUTF8 { return true }
        let names: [String] = ["LC_ALL", "LC_CTYPE", "LANG"]
        let asked = names.lazy.compactMap { name in getenv(name).map { String(cString: $0) } }.first { !$0.isEmpty }
        if let asked, asked.lowercased().filter({ $0 != "-" }).contains("utf8") {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        return isUTF8
    }

    /// Whether the character set now in force is UTF-8.
    public static var isUTF8: Bool {
        String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
    }
}

import Foundation

// haul-manual HAUL SECTIONS_DIR [DATE]: writes haul(1) in mdoc on stdout, from the built haul's description of its
// commands (the argument parser's dump), haul's registries, and the hand-written sections in SECTIONS_DIR (man/).
// DATE is `.Dd`'s, like "November 27, 2026" (default: today, UTC). Not installed: `make install` runs it.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: haul-manual HAUL SECTIONS_DIR [DATE]\n".utf8))
    exit(2)
}
let haul = arguments[arguments.startIndex], folder = arguments[arguments.startIndex + 1]
let date: String = arguments.count > 2 ? arguments[arguments.startIndex + 2] : {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "MMMM d, yyyy"
    return formatter.string(from: Date())
}()
do {
    var sections: [String: String] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".mdoc") {
        sections[String(file.dropLast(".mdoc".count))] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
    }
    let page = ManualPage(root: try CommandDump.load(haul: haul), sections: sections, date: date)
    FileHandle.standardOutput.write(Data(page.render().utf8))
} catch {
    FileHandle.standardError.write(Data("haul-manual: \(error)\n".utf8))
    exit(1)
}

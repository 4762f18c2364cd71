import Foundation

/// The part of the argument parser's `--experimental-dump-help` JSON (ToolInfoV0) the manual reads: each command's
/// name, texts, arguments and subcommands. Decoded once from the built haul; a value.
struct CommandDump: Decodable {
    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    var subcommands: [CommandDump]?
    var arguments: [ArgumentDump]?

    /// The argument parser's own and internal arguments left out (`--help`, `--version`, hidden ones).
    var documentedArguments: [ArgumentDump] {
        (arguments ?? []).filter { $0.shouldDisplay && !["help", "version"].contains($0.longName ?? "") }
    }

    /// Runs `haul --experimental-dump-help` and decodes its answer.
    static func load(haul: String) throws -> CommandDump {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: haul)
        process.arguments = ["--experimental-dump-help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Tool: Decodable { var command: CommandDump }
        return try JSONDecoder().decode(Tool.self, from: data).command
    }
}

/// One option, flag or positional argument of a command, as the argument parser describes it.
struct ArgumentDump: Decodable, Equatable {
    struct Name: Decodable, Equatable {
        var kind: String
        var name: String
    }

    var kind: String
    var shouldDisplay: Bool
    var isOptional: Bool
    var isRepeating: Bool
    var names: [Name]?
    var valueName: String?
    var defaultValue: String?
    var abstract: String?
    var discussion: String?

    var isPositional: Bool { kind == "positional" }
    var isFlag: Bool { kind == "flag" }
    /// The first long name (`limit-rate`), without dashes.
    var longName: String? { names?.first { $0.kind == "long" }?.name }
    /// Every spelling: `-d`, `--dir`.
    var spellings: [String] { (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name } }
}

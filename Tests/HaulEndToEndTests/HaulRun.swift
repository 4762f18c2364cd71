import Foundation
import HaulTestSupport

/// A scratch state dir and download dir, and shortcuts to run the built `haul` in them.
struct HaulRun {
    let root: TemporaryDirectory
    var state: String { root.path + "/state" }
    var downloads: String { root.path + "/downloads" }

    init() throws { root = try TemporaryDirectory() }

    /// Starts `haul ARGS --state-dir S -d D`.
    func start(_ arguments: [String], directory: Bool = true) throws -> HaulProcess {
        var full = arguments + ["--state-dir", state]
        if directory { full += ["-d", downloads] }
        return try HaulProcess(binary: "haul", arguments: full)
    }

    /// Runs a command to its end and returns (status, stdout, stderr).
    func run(_ arguments: [String], directory: Bool = false, timeout: Duration = .seconds(60)) async throws -> (Int32, String, String) {
        let process = try start(arguments, directory: directory)
        let status = try await process.waitForExit(timeout: timeout)
        return (status, process.stdoutText(), process.stderrText())
    }

    /// `haul list --json`, decoded.
    func list() async throws -> [[String: Any]] {
        let (status, out, _) = try await run(["list", "--json"])
        guard status == 0 else { return [] }
        return out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func file(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: downloads + "/" + name).map { [UInt8]($0) }
    }
}

/// JSON Lines events a run printed on stdout.
func jsonEvents(_ process: HaulProcess) -> [[String: Any]] {
    process.stdoutLines().compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

func events(_ process: HaulProcess, named name: String, id: Int? = nil) -> [[String: Any]] {
    jsonEvents(process).filter { $0["event"] as? String == name && (id == nil || $0["id"] as? Int == id) }
}

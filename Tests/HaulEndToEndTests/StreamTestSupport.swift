import Foundation
import HaulTestSupport
import Testing

/// Helpers shared by the HLS stream tests (Stream*Tests), written against DESIGN §9 and issue 15's contract:
/// a playlist link becomes a stream task; `haul list --json` rows carry a `stream` object
/// (`segments`, `segmentsDone`, `durationSeconds`, `variant`, `encryption`, `container`, `estimated`), and
/// `--json` runs print a `stream` event with the same fields and `fileName` once the playlist is resolved.
enum StreamRun {
    /// The last lines of a run's output, for failure messages.
    static func transcript(_ process: HaulProcess) -> String {
        let lines = (process.stdoutLines() + process.stderrLines()).suffix(30)
        return "haul said:\n" + lines.joined(separator: "\n")
    }

    /// The `stream` event of a `--json` run (the first one), or nil.
    static func streamEvent(_ process: HaulProcess, id: Int? = nil) -> [String: Any]? {
        events(process, named: "stream", id: id).first
    }

    /// The `error` of the last `failed` event, or "".
    static func failure(_ process: HaulProcess) -> String {
        events(process, named: "failed").last?["error"] as? String ?? ""
    }

    /// The `stream` object of a `haul list --json` row.
    static func stream(_ row: [String: Any]?) -> [String: Any]? {
        row?["stream"] as? [String: Any]
    }

    /// `segmentsDone` of task `id` as `haul list --json` has it on record (0 before the playlist is resolved).
    static func segmentsDone(_ run: HaulRun, id: Int = 1) async throws -> Int {
        let row = try await run.list().first { $0["id"] as? Int == id }
        return stream(row)?["segmentsDone"] as? Int ?? 0
    }

    /// The size of a file in the run's download directory, nil when absent.
    static func size(_ run: HaulRun, _ name: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: run.downloads + "/" + name))?[.size] as? Int
    }

    /// The names in the run's download directory, sorted (none when it does not exist).
    static func names(_ run: HaulRun) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: run.downloads)) ?? []).sorted()
    }

    /// A number field that JSON may give as an integer or a double.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Int: Double(value)
        case let value as Double: value
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }
}

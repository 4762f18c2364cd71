import Foundation
import HaulTestSupport
import Testing

/// Helpers shared by the HLS stream tests (Stream*Tests), written against DESIGN §9 and issue 15's contract:
/// a playlist link becomes a stream task; `haul list --json` rows carry a `stream` object
/// (`segments`, `segmentsDone`, `durationSeconds`, `variant`, `encryption`, `container`, `estimated`), and
/// `--json` runs print a `stream` event with `fileName` and the same object once the playlist is resolved.
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

    /// The stream's figures in a `stream` event: under its `stream` key (as haul prints them), else at the top.
    static func fields(_ event: [String: Any]) -> [String: Any] {
        event["stream"] as? [String: Any] ?? event
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

    /// Waits (bounded) until task `id` has `count` segments on record while `process` still runs; throws when the
    /// run ended first (the stream is throttled so that it cannot finish in time on a loaded machine).
    static func waitForSegments(
        _ count: Int, of run: HaulRun, while process: HaulProcess, id: Int = 1, timeout: Duration = .seconds(40)
    ) async throws {
        try await eventually("\(count) segments of task \(id) on record", timeout: timeout, poll: .milliseconds(100)) {
            guard process.isRunning else {
                throw StreamTestFailure(description: "haul ended before \(count) segments were on record. \(transcript(process))")
            }
            return try await segmentsDone(run, id: id) >= count
        }
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

/// A stream test's precondition did not hold.
struct StreamTestFailure: Error, CustomStringConvertible {
    var description: String
}

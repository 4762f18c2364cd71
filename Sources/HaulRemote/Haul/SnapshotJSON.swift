import Foundation
import HaulCore

/// A `QueueSnapshot` as JSON with its rows encoded one at a time, so the encoder's working tree holds one row,
/// not ten thousand: the answer to `haul list` then costs the daemon its text, and what the whole tree took does
/// not stay behind in the allocator once it is sent. The same JSON `JSONEncoder` gives for the whole snapshot.
enum SnapshotJSON {
    static func encode(_ snapshot: QueueSnapshot) throws -> [UInt8] {
        let encoder = JSONEncoder()
        let shell = Array(try encoder.encode(snapshot.shell))
        // The shell's own key: inside a string a quote is escaped, so the bare marker is found only there.
        let marker = Array(#""rows":[]"#.utf8)
        guard let at = shell.firstRange(of: marker) else { return Array(try encoder.encode(snapshot)) }
        var json: [UInt8] = []
        json.append(contentsOf: shell[..<at.lowerBound])
        json.append(contentsOf: #""rows":["#.utf8)
        for (index, row) in snapshot.rows.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: try encoder.encode(row))
        }
        json.append(UInt8(ascii: "]"))
        json.append(contentsOf: shell[at.upperBound...])
        return json
    }
}

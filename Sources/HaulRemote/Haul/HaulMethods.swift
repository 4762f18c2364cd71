import Foundation
import HaulCore
import HaulReport

/// The `haul.*` methods: what the attached list and the CLI need beyond aria2 (full snapshots with
/// speed and ETA, waiting for the next one, typed command results). Served on the owner's Unix socket only.
struct HaulMethods: Sendable {
    let access: any QueueAccess
    let processID: Int32
    let history = SnapshotHistory()
    let listing = ListingPin()
    /// Reads the settings file again and applies it (nil: this owner has none to read).
    let reload: (@Sendable () async -> SettingsReloadAnswer)?

    /// `haul.snapshot([{"after": N, "timeout": MS, "delta": true, "owner": PID}])`: the first snapshot newer
    /// than N (at once without `after`), or the latest after the timeout (default 10 s, at most 60 s).
    ///
    /// With `delta` the answer is a `SnapshotAnswer`: what changed since snapshot N when this process (pid
    /// `owner`) served N lately, else the whole snapshot. With `"pages": P` too, a caller that reads a whole snapshot
    /// P rows at a time (`haul.rows` with `follow`) gets no whole one, nor a delta of more than P rows: the answer then
    /// holds only the latest snapshot's sequence.
    func encodedSnapshot(_ params: [JSONValue]) async throws(RPCError) -> [UInt8] {
        let options = params.first?.objectValue ?? [:]
        let snapshot: QueueSnapshot
        let after = options["after"]?.integerValue.flatMap { $0 >= 0 ? UInt64($0) : nil }
        if let after {
            let milliseconds = min(max(options["timeout"]?.integerValue ?? 10_000, 0), 60_000)
            snapshot = await access.snapshot(after: after, timeout: .milliseconds(milliseconds))
        } else {
            snapshot = access.snapshot()
        }
        do {
            guard options["delta"] == .bool(true) else { return try SnapshotJSON.encode(snapshot) }
            // Kept for the attached list's next call; a plain listing keeps nothing after its answer.
            history.record(snapshot)
            let pageRows = options["pages"]?.integerValue
            if let after, options["owner"]?.integerValue == Int64(processID), let base = history.snapshot(sequence: after) {
                let delta = QueueSnapshotDelta(from: base, to: snapshot)
                if Int64(delta.rows.count) <= pageRows ?? .max {
                    return Array(try JSONEncoder().encode(SnapshotAnswer(delta: delta)))
                }
            }
            if pageRows != nil { return Array(try JSONEncoder().encode(SnapshotAnswer(sequence: snapshot.sequence))) }
            return Array(#"{"full":"#.utf8) + (try SnapshotJSON.encode(snapshot)) + Array("}".utf8)
        } catch {
            throw .failed("could not encode the snapshot: \(error)")
        }
    }

    /// `haul.rows([{"from": N, "limit": L, "sequence": S, "follow": true, "packed": true}])`: rows N..<N+L (at most
    /// `RowsPage.maxRows`) of snapshot S while a listing holds it, else of the latest, as a `RowsPage` (its rows
    /// `PackedRows` with `packed`); a limit of 0 gives no row, only the figures. The first page (N = 0) carries the
    /// snapshot's other figures (`RowsPage.shell`). With `follow` (an attached list reading its first snapshot) the
    /// snapshot is kept for that list's next `haul.snapshot`, which is then a delta from it.
    func encodedRows(_ params: [JSONValue]) throws(RPCError) -> [UInt8] {
        let (snapshot, range) = page(params)
        var page = RowsPage(
            sequence: snapshot.sequence, total: snapshot.rows.count, from: range.lowerBound, schedule: snapshot.schedule,
            rows: Array(snapshot.rows[range]))
        page.packsRows = params.first?.objectValue?["packed"] == .bool(true)
        if range.lowerBound == 0 {
            page.shell = snapshot.shell
            if params.first?.objectValue?["follow"] == .bool(true) { history.record(snapshot) }
        }
        return try encodedPage(page)
    }

    /// `haul.lines([{"from": N, "limit": L, "sequence": S, "format": F}])`: what `haul list` prints (`QueueListing`
    /// in format F) for rows N..<N+L of snapshot S, as `haul.rows` pages them; a `LinesPage`.
    func encodedLines(_ params: [JSONValue]) throws(RPCError) -> [UInt8] {
        guard let asked = params.first?.objectValue?["format"] else { throw .invalidParams }
        let format: QueueListing.Format
        do {
            format = try asked.decoded(as: QueueListing.Format.self)
        } catch {
            throw .failed("not a listing format: \(error)")
        }
        let (snapshot, range) = page(params)
        return try encodedPage(LinesPage(snapshot, rows: range, format: format))
    }

    /// The snapshot a page is read from (the listing's while the owner holds it, else the latest) and the page's rows
    /// in it; a listing's snapshot is held until its last page is out.
    private func page(_ params: [JSONValue]) -> (QueueSnapshot, Range<Int>) {
        let options = params.first?.objectValue ?? [:]
        let from = max(options["from"]?.integerValue ?? 0, 0)
        let limit = min(max(options["limit"]?.integerValue ?? 1_000, 0), Int64(RowsPage.maxRows))
        let pinned = options["sequence"]?.integerValue.flatMap { $0 >= 0 ? listing.snapshot(sequence: UInt64($0)) : nil }
        let snapshot = pinned ?? access.snapshot()
        let start = Int(min(from, Int64(snapshot.rows.count)))
        let end = min(start + Int(limit), snapshot.rows.count)
        if limit > 0 { listing.update(snapshot, more: end < snapshot.rows.count) }
        return (snapshot, start..<end)
    }

    private func encodedPage<T: Encodable>(_ page: T) throws(RPCError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(page))
        } catch {
            throw .failed("could not encode the page: \(error)")
        }
    }

    /// `haul.perform([[command, …]])`: carries the commands out as one batch; one result each.
    func perform(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        guard let list = params.first else { throw .invalidParams }
        let commands: [QueueCommand]
        do {
            commands = try list.decoded(as: [QueueCommand].self)
        } catch {
            throw .failed("not a list of haul commands: \(error)")
        }
        return try encoded(await access.perform(commands))
    }

    /// `haul.reload()`: the settings file read again and applied; a `SettingsReloadAnswer`.
    func reloadSettings() async throws(RPCError) -> JSONValue {
        guard let reload else { throw .failed("this haul does not read a settings file") }
        return try encoded(await reload())
    }

    /// `haul.info()`: who owns the engine.
    func info() -> JSONValue {
        ["pid": .int(Int64(processID))]
    }

    /// `haul.shutdown()`: the owner saves its state and exits.
    func shutdown() async -> JSONValue {
        await access.shutdown()
        return "OK"
    }

    private func encoded<T: Encodable>(_ value: T) throws(RPCError) -> JSONValue {
        do {
            return try JSONValue.encoding(value)
        } catch {
            throw .failed("could not encode the answer: \(error)")
        }
    }
}

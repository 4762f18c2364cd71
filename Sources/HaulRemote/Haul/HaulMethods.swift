import Foundation
import HaulCore

/// The `haul.*` methods: what the attached list and the CLI need beyond aria2 (full snapshots with
/// speed and ETA, waiting for the next one, typed command results). Served on the owner's Unix socket only.
struct HaulMethods: Sendable {
    let access: any QueueAccess
    let processID: Int32

    /// `haul.snapshot([{"after": N, "timeout": MS}])`: the first snapshot newer than N (at once without
    /// `after`), or the latest after the timeout (default 10 s, at most 60 s).
    func encodedSnapshot(_ params: [JSONValue]) async throws(RPCError) -> [UInt8] {
        let options = params.first?.objectValue ?? [:]
        let snapshot: QueueSnapshot
        if let after = options["after"]?.integerValue, after >= 0 {
            let milliseconds = min(max(options["timeout"]?.integerValue ?? 10_000, 0), 60_000)
            snapshot = await access.snapshot(after: UInt64(after), timeout: .milliseconds(milliseconds))
        } else {
            snapshot = access.snapshot()
        }
        do {
            return Array(try JSONEncoder().encode(snapshot))
        } catch {
            throw .failed("could not encode the snapshot: \(error)")
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

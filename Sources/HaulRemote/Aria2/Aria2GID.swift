import HaulCore

/// Reads aria2's GID (16 hexadecimal digits; a task's is `TaskID.gid`, its id zero-padded, so it stays the
/// same across restarts and between the CLI and RPC clients).
enum Aria2GID {
    /// The task id of a GID, or an aria2-style error for anything that is not 16 hex digits.
    static func taskID(_ value: JSONValue?) throws(RPCError) -> TaskID {
        guard let text = value?.stringValue else { throw .failed("GID is not provided.") }
        guard text.utf8.count == 16, let raw = UInt64(text, radix: 16), raw <= UInt64(Int64.max) else {
            throw .failed("Invalid GID \(text)")
        }
        return TaskID(Int64(raw))
    }
}

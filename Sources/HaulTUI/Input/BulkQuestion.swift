import HaulCore

/// A question asked once before acting on several tasks: removing the marked ones, or clearing the finished
/// rows (`C`). It holds the tasks as they were when it was asked, so the answer acts on what the user saw.
public struct BulkQuestion: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Remove the marked tasks; the answer says whether their partial files go too.
        case removeMarked
        /// Remove the finished rows from the list; their files stay.
        case clearFinished
        /// Remove every task of a group (`x` on its row); the name as shown (escaped).
        case removeGroup(String)
    }

    public var kind: Kind
    public var tasks: [TaskID]
    /// True when some task has a partial file the answer could delete.
    public var hasPartialFiles: Bool

    public init(kind: Kind, tasks: [TaskID], hasPartialFiles: Bool = false) {
        self.kind = kind
        self.tasks = tasks
        self.hasPartialFiles = hasPartialFiles
    }

    /// `3 marked tasks`, `1 finished row`.
    public var subject: String {
        let count = tasks.count
        switch kind {
        case .removeMarked: return "\(count) marked task\(count == 1 ? "" : "s")"
        case .clearFinished: return "\(count) finished row\(count == 1 ? "" : "s")"
        case let .removeGroup(name): return "the \(count) tasks of \(name)"
        }
    }
}

/// The keys of the remove questions, each meaning one thing wherever it is asked (`d` detaches on the list, so it
/// deletes nothing here).
public enum RemoveKeys {
    /// Remove, keep the partial file.
    public static let keep: Character = "y"
    /// Remove and delete the partial file.
    public static let deleteFile: Character = "f"
    /// Cancel (Esc too).
    public static let cancel: Character = "n"
}

import HaulCore

/// When a removed task's part file may be deleted: never while a transfer writes it or its closing work
/// (sync, verify, rename) runs, and then the file that transfer really wrote. Pure bookkeeping: the
/// engine deletes what it is told to.
struct PartFileJanitor {
    /// What to do about a removed task's part file now.
    enum Removal: Equatable {
        /// A transfer holds it: stop the transfer; the file goes when its closing work is done.
        case stopTransferFirst
        /// Its closing work runs: the file goes when it is done.
        case afterClosing
        /// The file the task's last transfer wrote.
        case delete(path: String)
        /// The file at the task's recorded name, if it is a regular file no transfer holds.
        case deleteIfUnheld(path: String)
        case nothing
    }

    /// Transfers whose closing work runs, with their part files.
    private var closing: [TaskID: String?] = [:]
    /// Tasks whose part file goes once their closing work is done.
    private var deleteAfterClosing: Set<TaskID> = []
    /// The part file each task's last transfer used: a removal that arrives after it ended still deletes
    /// the file it wrote (the controller may not have heard its name yet).
    private var lastPart: [TaskID: String] = [:]

    var isClosingAny: Bool { !closing.isEmpty }

    func isClosing(_ id: TaskID) -> Bool { closing[id] != nil }

    mutating func removal(of id: TaskID, transferRuns: Bool, directory: String, fileName: String?) -> Removal {
        if transferRuns {
            deleteAfterClosing.insert(id)
            return .stopTransferFirst
        }
        if closing[id] != nil {
            deleteAfterClosing.insert(id)
            return .afterClosing
        }
        if let path = lastPart.removeValue(forKey: id) { return .delete(path: path) }
        guard let fileName else { return .nothing }
        return .deleteIfUnheld(path: PartialFilePath.path(directory: directory, fileName: fileName))
    }

    /// A transfer's closing work began on `part` (nil: it had no part file).
    mutating func closingBegan(_ id: TaskID, part: String?) {
        closing[id] = .some(part)
    }

    /// Its closing work is done: the part file no transfer holds any more, and the one to delete now.
    mutating func closingEnded(_ id: TaskID, completed: Bool) -> (released: String?, delete: String?) {
        let remove = deleteAfterClosing.remove(id) != nil
        guard let part = closing.removeValue(forKey: id) ?? nil else { return (nil, nil) }
        let delete = remove && !completed
        lastPart[id] = completed || delete ? nil : part
        return (part, delete ? part : nil)
    }
}

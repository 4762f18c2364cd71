/// The waiting tasks in queue order (position, then id), so the slot policy reads the first few after every event
/// without sorting or visiting the whole queue. A task added at the end and one taken from the front cost O(1);
/// one elsewhere (moved, paused from the middle) a binary search and a move of the entries after it.
struct WaitingLine: Sendable {
    /// In queue order from `head`; the entries before `head` were taken from the front.
    private var line: [SlotPolicy.Entry] = []
    private var head = 0
    /// Each waiting task as the slot policy sees it.
    private(set) var byID: [TaskID: SlotPolicy.Waiting] = [:]

    var isEmpty: Bool { byID.isEmpty }
    var ids: Dictionary<TaskID, SlotPolicy.Waiting>.Keys { byID.keys }

    /// The waiting tasks, first in line first.
    var inOrder: some Sequence<(id: TaskID, waiting: SlotPolicy.Waiting)> {
        line[head...].lazy.compactMap { [byID] entry in byID[entry.id].map { (entry.id, $0) } }
    }

    mutating func insert(_ id: TaskID, _ waiting: SlotPolicy.Waiting) {
        if byID[id] != nil { remove(id) }
        byID[id] = waiting
        let entry = SlotPolicy.Entry(id: id, position: waiting.position)
        if let last = line.last, head < line.count, !(last < entry) {
            line.insert(entry, at: insertionIndex(of: entry))
        } else {
            line.append(entry)
        }
    }

    mutating func remove(_ id: TaskID) {
        guard let waiting = byID.removeValue(forKey: id) else { return }
        let entry = SlotPolicy.Entry(id: id, position: waiting.position)
        let index = insertionIndex(of: entry)
        guard index < line.count, line[index] == entry else { return }
        if index == head {
            head += 1
            // Entries taken from the front are let go once they are half the storage.
            if head >= 1024, head * 2 >= line.count {
                line.removeFirst(head)
                head = 0
            }
        } else {
            line.remove(at: index)
        }
        if byID.isEmpty { (line, head) = ([], 0) }
    }

    /// The first index from `head` whose entry is not before `entry`.
    private func insertionIndex(of entry: SlotPolicy.Entry) -> Int {
        var (low, high) = (head, line.count)
        while low < high {
            let middle = (low + high) / 2
            if line[middle] < entry { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The waiting tasks in queue order (position, then id), so the slot policy reads the first few after every event
/// without sorting or visiting the whole queue.
///
/// A task that leaves leaves its entry behind, skipped when read and dropped once it reaches the front or once such
/// entries outnumber the live ones; tasks that come are put in order when the line is next read: one by one when
/// they are few, by sorting the whole line once when many came together (100,000 resumed by one command). Every
/// change is O(1) or O(log n) amortized, and so is reading the front.
struct WaitingLine: Sendable {
    /// In queue order from `head`, with entries left by tasks that went (or moved: their position differs).
    private var line: [SlotPolicy.Entry] = []
    private var head = 0
    /// Entries of tasks that came since the line was last put in order.
    private var arrived: [SlotPolicy.Entry] = []
    /// About how many entries in `line` were left by tasks that went.
    private var left = 0
    /// Each waiting task as the slot policy sees it.
    private(set) var byID: [TaskID: SlotPolicy.Waiting] = [:]

    /// Above this many arrivals the whole line is sorted once instead of each put in its place.
    static let placedOneByOne = 64

    var isEmpty: Bool { byID.isEmpty }
    var count: Int { byID.count }
    /// The tasks it has room for without growing.
    var capacity: Int { max(byID.capacity, line.capacity) }
    var ids: Dictionary<TaskID, SlotPolicy.Waiting>.Keys { byID.keys }

    mutating func insert(_ id: TaskID, _ waiting: SlotPolicy.Waiting) {
        if byID[id] != nil { remove(id) }
        byID[id] = waiting
        arrived.append(SlotPolicy.Entry(id: id, position: waiting.position))
    }

    mutating func remove(_ id: TaskID) {
        guard byID.removeValue(forKey: id) != nil else { return }
        if byID.isEmpty {
            (line, head, arrived, left) = ([], 0, [], 0)
        } else {
            left += 1
        }
    }

    /// The waiting tasks, first in line first.
    mutating func inOrder() -> some Sequence<(id: TaskID, waiting: SlotPolicy.Waiting)> {
        putInOrder()
        return line[head...].lazy.compactMap { [byID] entry in
            byID[entry.id].flatMap { $0.position == entry.position ? (entry.id, $0) : nil }
        }
    }

    /// Gives back the room of a line a command for every task mostly emptied.
    mutating func giveBackRoom() {
        byID.giveBackRoom()
        rebuild()
    }

    private func isLive(_ entry: SlotPolicy.Entry) -> Bool { byID[entry.id]?.position == entry.position }

    private mutating func putInOrder() {
        if arrived.count > Self.placedOneByOne || left > max(1_024, byID.count) {
            rebuild()
        } else {
            for entry in arrived {
                let index = insertionIndex(of: entry)
                // An entry a task left here and came back to is live again: never two of one task.
                if index < line.count, line[index] == entry { continue }
                line.insert(entry, at: index)
            }
            arrived.removeAll(keepingCapacity: true)
        }
        while head < line.count, !isLive(line[head]) {
            head += 1
            left = max(0, left - 1)
        }
        if head >= 1_024, head * 2 >= line.count {
            line.removeFirst(head)
            head = 0
        }
    }

    /// The live entries only, sorted once, each task once.
    private mutating func rebuild() {
        var live = (line[head...] + arrived).filter(isLive)
        live.sort()
        var unique: [SlotPolicy.Entry] = []
        unique.reserveCapacity(live.count)
        for entry in live where unique.last != entry { unique.append(entry) }
        (line, head, arrived, left) = (unique, 0, [], 0)
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

import Foundation
import HaulCore

extension SortOrder {
    /// Orders a list's top-level lines: two tasks as `precedes` orders them; a group's row by its figures
    /// (`ShownGroup.summary`: its name, summed size, progress and speed, its first task's place and age).
    struct LineOrder {
        let order: SortOrder
        let rows: [QueueSnapshot.Row]
        let names: [String]
        let groups: [ShownGroup]

        init(_ order: SortOrder, rows: [QueueSnapshot.Row], names: [String], groups: [ShownGroup]) {
            self.order = order
            self.rows = rows
            self.names = names
            self.groups = groups
        }

        func precedes(_ a: ShownLine, _ b: ShownLine) -> Bool {
            if case let .task(x) = a, case let .task(y) = b { return order.precedes(x, y, rows: rows, names: names) }
            let left = facts(a), right = facts(b)
            let (x, y) = (left.position, right.position)
            switch order {
            case .queue: return x < y
            case .name: return SortOrder.ordered(left.name, right.name, x, y)
            case .size: return SortOrder.descending(left.size, right.size, x, y)
            case .progress: return SortOrder.descending(left.fraction, right.fraction, x, y)
            case .speed: return SortOrder.descending(left.speed, right.speed, x, y)
            case .timeLeft:
                switch (left.eta, right.eta) {
                case let (p?, q?): return p != q ? p < q : x < y
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return x < y
                }
            case .added: return SortOrder.descending(left.added, right.added, x, y)
            }
        }

        /// What the order reads of a line.
        struct Facts {
            var name: String
            var size: Int64?
            var fraction: Double?
            var speed: Double?
            var eta: Double?
            var added: Date
            /// Its (first) task's place in the queue.
            var position: Int
        }

        func facts(_ line: ShownLine) -> Facts {
            switch line {
            case let .task(index), let .member(index, _):
                let row = rows[index]
                let running = row.task.state == .running
                return Facts(
                    name: names.indices.contains(index) ? names[index] : row.task.displayName.lowercased(),
                    size: row.task.totalBytes, fraction: SortOrder.fraction(row), speed: running ? row.speed : nil,
                    eta: running ? row.eta : nil, added: row.task.createdAt, position: index)
            case let .group(number):
                let group = groups[number], summary = group.summary
                let leader = group.members[0]
                return Facts(
                    name: group.name.lowercased(), size: summary.total, fraction: summary.fraction, speed: summary.speed,
                    eta: summary.eta, added: rows[leader].task.createdAt, position: leader)
            }
        }
    }
}

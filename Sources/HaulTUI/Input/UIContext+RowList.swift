import HaulCore

extension UIContext {
    /// One list's rows as the reducer reads them: each `RowRef` is made from the snapshot's row when it is read.
    ///
    /// A context over 100,000 tasks holds the shown lines and the snapshot's rows it points into, not 100,000
    /// references; nor does a group's row hold its tasks' references again (issue 29: a key in the filter made every
    /// member of a 100,000-task group again). A list the reducer changes (`PendingCommands`) holds its references
    /// from then on. A value, owned by the `UIContext` that holds it.
    public struct RowList: RandomAccessCollection, MutableCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
        private enum Storage: Sendable {
            case made([RowRef])
            case lines(Source, [ShownLine])
            case members(Source, [Int])
        }

        /// What lines and members point into: a snapshot's rows, the references kept of them (`ShownRowsCache.rowRefs`)
        /// when there are, and the groups of the shown rows. Shared by a context's lists and its group rows' members
        /// (a reference, so a `RowRef` holding its members stays small); immutable.
        final class Source: Sendable {
            let rows: [QueueSnapshot.Row]
            let refs: [RowRef]?
            let groups: [ShownGroup]

            init(rows: [QueueSnapshot.Row], refs: [RowRef]?, groups: [ShownGroup]) {
                self.rows = rows
                self.refs = refs
                self.groups = groups
            }

            func ref(_ index: Int) -> RowRef { refs?[index] ?? RowRef(rows[index]) }

            func ref(_ line: ShownLine) -> RowRef {
                switch line {
                case let .task(index):
                    return ref(index)
                case let .member(index, number):
                    var member = ref(index)
                    member.group = groups[number].name
                    return member
                case let .group(number):
                    return RowRef(group: groups[number], members: RowList(storage: .members(self, groups[number].members)))
                }
            }
        }

        private var storage: Storage

        private init(storage: Storage) { self.storage = storage }

        public init(_ refs: [RowRef]) { storage = .made(refs) }

        public init(arrayLiteral elements: RowRef...) { storage = .made(elements) }

        /// The rows `lines` stand for.
        init(lines: [ShownLine], source: Source) { storage = .lines(source, lines) }

        /// How many references the list holds made (the rest are made when read): what a context costs, counted.
        public var referencesHeld: Int {
            if case let .made(refs) = storage { return refs.count }
            return 0
        }

        public var startIndex: Int { 0 }

        public var endIndex: Int {
            switch storage {
            case let .made(refs): refs.count
            case let .lines(_, lines): lines.count
            case let .members(_, members): members.count
            }
        }

        public subscript(position: Int) -> RowRef {
            get {
                switch storage {
                case let .made(refs): refs[position]
                case let .lines(source, lines): source.ref(lines[position])
                case let .members(source, members): source.ref(members[position])
                }
            }
            set {
                var refs = made
                refs[position] = newValue
                storage = .made(refs)
            }
        }

        /// Every reference, made.
        private var made: [RowRef] {
            if case let .made(refs) = storage { return refs }
            return Array(self)
        }

        /// Removes the rows `remove` picks; the list then holds its references.
        public mutating func removeAll(where remove: (RowRef) throws -> Bool) rethrows {
            var refs = made
            try refs.removeAll(where: remove)
            storage = .made(refs)
        }

        /// The row with `id`, looked for first at `guess` (where a selection usually still is).
        public func row(_ id: TaskID, near guess: Int) -> RowRef? {
            if indices.contains(guess) {
                let row = self[guess]
                if row.id == id { return row }
            }
            return first { $0.id == id }
        }

        public static func == (lhs: RowList, rhs: RowList) -> Bool { lhs.elementsEqual(rhs) }
    }
}

/// One cell of the segment map the details pane draws across its width.
public enum SegmentCell: Sendable, Hashable {
    /// Every byte of the cell has arrived.
    case done
    /// Some byte of the cell is being fetched by a running connection.
    case inFlight
    /// The rest: bytes nobody fetches yet (and a cell of done and waiting bytes).
    case waiting
}

extension SegmentLedger {
    /// The file drawn as `width` cells, each covering about `total / width` bytes.
    ///
    /// A cell is done when all its bytes arrived (received counts: the map shows progress, not durability),
    /// in flight when a running connection still has to fetch one of its bytes, waiting otherwise.
    public func map(width: Int) -> [SegmentCell] {
        guard width > 0 else { return [] }
        guard total > 0 else { return Array(repeating: .done, count: width) }
        // Byte ranges by what they show, in file order.
        var spans: [(range: Range<Int64>, cell: SegmentCell)] = []
        for segment in segments {
            switch segment.holder {
            case .free:
                spans.append((segment.start..<segment.end, .waiting))
            case .done:
                spans.append((segment.start..<segment.end, .done))
            case .leased(let lease):
                let cursor = segment.start + lease.received
                spans.append((segment.start..<cursor, .done))
                spans.append((cursor..<segment.end, lease.isConnected ? .inFlight : .waiting))
            }
        }
        spans.removeAll { $0.range.isEmpty }
        var cells: [SegmentCell] = []
        cells.reserveCapacity(width)
        var next = 0
        for column in 0..<width {
            let low = Int64(column) * total / Int64(width)
            let high = max(low + 1, Int64(column + 1) * total / Int64(width))
            while next < spans.count, spans[next].range.upperBound <= low { next += 1 }
            var cell = SegmentCell.done
            var index = next
            while index < spans.count, spans[index].range.lowerBound < high {
                switch spans[index].cell {
                case .inFlight: cell = .inFlight
                case .waiting where cell == .done: cell = .waiting
                default: break
                }
                index += 1
            }
            cells.append(cell)
        }
        return cells
    }
}

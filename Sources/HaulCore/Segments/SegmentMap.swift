/// One cell of the segment map the details pane draws across its width.
public enum SegmentCell: String, Sendable, Hashable, Codable {
    /// Every byte of the cell has arrived.
    case done
    /// Some byte of the cell is being fetched by a running connection.
    case inFlight
    /// The rest: bytes nobody fetches yet (and a cell of done and waiting bytes).
    case waiting
}

/// A file's bytes by what the details pane shows of them (done, in flight, waiting), as a few spans in
/// file order: small enough to travel in every snapshot of a running download.
public struct SegmentMap: Sendable, Equatable, Codable {
    /// One run of bytes that show the same.
    public struct Span: Sendable, Equatable, Codable {
        public var range: Range<Int64>
        public var cell: SegmentCell

        public init(range: Range<Int64>, cell: SegmentCell) {
            self.range = range
            self.cell = cell
        }
    }

    /// Size of the file in bytes.
    public let total: Int64
    /// Non-empty, in file order, neighbours never alike.
    public private(set) var spans: [Span] = []

    /// A map from spans in file order; empty ones are dropped and alike neighbours merged.
    public init(total: Int64, spans: [Span]) {
        self.total = total
        for span in spans where !span.range.isEmpty {
            if let last = self.spans.last, last.cell == span.cell, last.range.upperBound == span.range.lowerBound {
                self.spans[self.spans.count - 1].range = last.range.lowerBound..<span.range.upperBound
            } else {
                self.spans.append(span)
            }
        }
    }

    /// The file drawn as `width` cells, each covering about `total / width` bytes: a cell holding a byte
    /// in flight is in flight (every running range shows), else it is done when at least half its bytes
    /// arrived (so the map shows about as much done as the progress bar), else waiting.
    public func cells(width: Int) -> [SegmentCell] {
        guard width > 0 else { return [] }
        guard total > 0 else { return Array(repeating: .done, count: width) }
        var cells: [SegmentCell] = []
        cells.reserveCapacity(width)
        var next = 0
        for column in 0..<width {
            let low = Self.boundary(column, of: width, total: total)
            let high = max(low + 1, Self.boundary(column + 1, of: width, total: total))
            while next < spans.count, spans[next].range.upperBound <= low { next += 1 }
            var inFlight = false
            var done: Int64 = 0
            var index = next
            while index < spans.count, spans[index].range.lowerBound < high {
                let span = spans[index]
                switch span.cell {
                case .inFlight: inFlight = true
                case .done: done += min(span.range.upperBound, high) - max(span.range.lowerBound, low)
                case .waiting: break
                }
                index += 1
            }
            cells.append(inFlight ? .inFlight : done * 2 >= high - low ? .done : .waiting)
        }
        return cells
    }

    /// ⌊column × total / width⌋ without overflow, for any file size.
    static func boundary(_ column: Int, of width: Int, total: Int64) -> Int64 {
        let (column, width) = (Int64(column), Int64(width))
        return column * (total / width) + (total % width) * column / width
    }
}

extension SegmentLedger {
    /// The ledger as the details pane shows it. Received bytes count as done (the map shows progress, not
    /// durability); the rest of a running lease is in flight; free ranges and released leftovers wait.
    public var map: SegmentMap {
        var spans: [SegmentMap.Span] = []
        for segment in segments {
            switch segment.holder {
            case .free:
                spans.append(.init(range: segment.start..<segment.end, cell: .waiting))
            case .done:
                spans.append(.init(range: segment.start..<segment.end, cell: .done))
            case .leased(let lease):
                let cursor = segment.start + lease.received
                spans.append(.init(range: segment.start..<cursor, cell: .done))
                spans.append(.init(range: cursor..<segment.end, cell: lease.isConnected ? .inFlight : .waiting))
            }
        }
        return SegmentMap(total: total, spans: spans)
    }
}

/// The column headings, placed by the same budget as the rows, so a heading sits over its figures at every width.
extension RowLayout {
    /// One heading: its text, the cells it spans, the order a click on it sorts by, and whether it is right-aligned.
    public struct Column: Sendable, Equatable {
        public var title: String
        public var cells: Range<Int>
        public var sort: SortOrder
        public var alignRight: Bool
    }

    /// The headings shown at this width, left to right.
    public var columns: [Column] {
        var result = [Column(title: "Name", cells: Self.leadColumns..<afterName, sort: .name, alignRight: false)]
        var x = afterName
        if barWidth > 0 {
            result.append(Column(title: "Progress", cells: (x + 1)..<(x + 1 + barWidth), sort: .progress, alignRight: false))
            x += 1 + barWidth
        }
        if showsPercent {
            // Over the percent when the bar is gone; the bar's heading covers both otherwise.
            let cells = x..<(x + Self.percentColumns)
            if barWidth > 0 {
                result[result.count - 1].cells = result[result.count - 1].cells.lowerBound..<cells.upperBound
            } else {
                result.append(Column(title: "Done", cells: cells, sort: .progress, alignRight: true))
            }
            x += Self.percentColumns
        }
        if showsSize {
            result.append(Column(title: "Size", cells: x..<(x + Self.sizeColumns), sort: .size, alignRight: true))
            x += Self.sizeColumns
        }
        if showsSpeed {
            result.append(Column(title: "Speed/State", cells: x..<(x + Self.speedColumns), sort: .speed, alignRight: true))
            x += Self.speedColumns
        }
        if showsEta {
            result.append(Column(title: "ETA", cells: x..<(x + Self.etaColumns), sort: .timeLeft, alignRight: true))
        }
        return result
    }

    /// The order a click at `column` on the heading line sorts by; nil between headings.
    public func sortOrder(at column: Int) -> SortOrder? {
        columns.first { $0.cells.contains(column) }?.sort
    }
}

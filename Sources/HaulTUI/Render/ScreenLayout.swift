/// Which screen line holds what, for a terminal of a given size.
///
/// Full layout (7 lines or more): header, rule with the list names, the column headings, the rows, rule,
/// status line (message, prompt or position), footer. Shorter screens give up the column headings, then the
/// bottom rule, then the top rule, then the footer, then the header, keeping at least one row and the status line.
public struct ScreenLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var header: Int?
    public var topRule: Int?
    /// The column headings (Name, Progress, Size, Speed, ETA), laid out by the rows' `RowLayout`.
    public var columnHeader: Int?
    /// Lines of task rows.
    public var list: Range<Int>
    public var bottomRule: Int?
    public var status: Int?
    public var footer: Int?

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        var parts: [Part] = [.header, .topRule, .columnHeader, .list, .bottomRule, .status, .footer]
        for dropped in [Part.columnHeader, .bottomRule, .topRule, .footer, .header] where parts.count > self.height {
            parts.removeAll { $0 == dropped }
        }
        if self.height < 2 { parts = self.height == 1 ? [.status] : [] }
        let listHeight = max(0, self.height - (parts.count - 1))
        var line = 0
        list = 0..<0
        for part in parts {
            switch part {
            case .header: header = line
            case .topRule: topRule = line
            case .columnHeader: columnHeader = line
            case .list:
                list = line..<(line + listHeight)
                line += listHeight
                continue
            case .bottomRule: bottomRule = line
            case .status: status = line
            case .footer: footer = line
            }
            line += 1
        }
    }

    /// Task rows that fit: the page size for PgUp/PgDn.
    public var visibleRows: Int { list.count }

    private enum Part { case header, topRule, columnHeader, list, bottomRule, status, footer }
}

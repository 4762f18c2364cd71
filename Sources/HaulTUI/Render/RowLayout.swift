/// The width budget of a task row: fixed columns first, then the name and the bar share the rest.
///
/// Columns: marker, state glyph, space, name, [space, bar], percent, done/total, speed, ETA. When the
/// name would get fewer than `nameMinimum` cells, the bar goes first, then the ETA, then done/total,
/// then the speed, then the percent. A row never wraps.
public struct RowLayout: Sendable, Equatable {
    public static let leadColumns = 3
    public static let percentColumns = 7
    public static let sizeColumns = 14
    public static let speedColumns = 13
    public static let etaColumns = 7
    public static let nameMinimum = 12
    public static let barMinimum = 8
    public static let barMaximum = 40

    public var width: Int
    public var nameWidth: Int
    /// 0 when the bar is dropped.
    public var barWidth: Int
    public var showsPercent = true
    public var showsSize = true
    public var showsSpeed = true
    public var showsEta = true

    public init(width: Int) {
        self.width = width
        nameWidth = 0
        barWidth = 0
        let rest = width - fixedColumns
        if rest - 1 - Self.barMinimum >= Self.nameMinimum {
            barWidth = min(Self.barMaximum, max(Self.barMinimum, (rest - 1) * 2 / 5))
            nameWidth = rest - 1 - barWidth
            return
        }
        for drop in [\RowLayout.showsEta, \.showsSize, \.showsSpeed, \.showsPercent] where width - fixedColumns < Self.nameMinimum {
            self[keyPath: drop] = false
        }
        nameWidth = max(1, width - fixedColumns)
    }

    /// Cells taken by everything but the name and the bar.
    var fixedColumns: Int {
        Self.leadColumns + (showsPercent ? Self.percentColumns : 0) + (showsSize ? Self.sizeColumns : 0)
            + (showsSpeed ? Self.speedColumns : 0) + (showsEta ? Self.etaColumns : 0)
    }

    /// This layout with the bar's cells given to the name; the figures stay where they were.
    var withoutBar: RowLayout {
        var layout = self
        layout.nameWidth += 1 + barWidth
        layout.barWidth = 0
        return layout
    }

    /// The first column after the name.
    var afterName: Int { Self.leadColumns + nameWidth }
}

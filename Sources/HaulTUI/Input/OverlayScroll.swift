/// How far an open help or details box can scroll: the lines it shows at once and the last offset
/// that still fills it. The renderer computes it (`ListRenderer.overlayScroll`) and clamps with it;
/// given to the reducer in `UIContext.overlayScroll`, it also keeps the stored offset inside the content.
public struct OverlayScroll: Sendable, Equatable {
    /// Content lines inside the box.
    public var page: Int
    /// The largest offset: the last content line sits on the box's last line.
    public var maxOffset: Int

    public init(page: Int, maxOffset: Int) {
        self.page = max(1, page)
        self.maxOffset = max(0, maxOffset)
    }

    /// The first content line to show for a requested `offset`.
    public func clamped(_ offset: Int) -> Int { min(max(0, offset), maxOffset) }

    /// The offset after a scroll action. A page keeps one line of the previous page in view, as the list does.
    public func offset(after action: Action, from offset: Int) -> Int {
        let base = clamped(offset)
        let step = max(1, page - 1)
        switch action {
        case .scrollUp: return clamped(base - 1)
        case .scrollDown: return base < maxOffset ? base + 1 : maxOffset
        case .scrollPageUp: return clamped(base - step)
        case .scrollPageDown: return maxOffset - base > step ? base + step : maxOffset
        case .scrollTop: return 0
        case .scrollBottom: return maxOffset
        default: return base
        }
    }

    /// Used when the reducer is not told the box's size: a box as tall as the screen above the footer
    /// in the full layout (list rows + 2), and content of unknown length, so the renderer clamps alone.
    static func unknown(visibleRows: Int) -> OverlayScroll {
        OverlayScroll(page: visibleRows + 2, maxOffset: Int.max)
    }
}

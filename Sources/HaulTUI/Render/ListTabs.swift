/// Where the list names sit on the top rule: the renderer draws them there and a click there switches lists.
public enum ListTabs {
    /// ` Downloading 12 `, or the short form ` Down 12 ` when the full titles do not fit.
    public static func titles(_ tabs: [ListViewModel.Tab], width: Int) -> [String] {
        let full = tabs.map { " \($0.title) \($0.count) " }
        let short = tabs.map { " \($0.title.prefix(4)) \($0.count) " }
        return DisplayWidth.of(full.joined()) + 2 + tabs.count <= width ? full : short
    }

    /// The cells each title takes, from column 1 with a cell between titles.
    public static func ranges(_ titles: [String]) -> [Range<Int>] {
        var x = 1
        return titles.map { title in
            let end = x + DisplayWidth.of(title)
            defer { x = end + 1 }
            return x..<end
        }
    }

    /// The cells of the two lists' titles on a screen `width` wide.
    public static func ranges(downloading: Int, completed: Int, width: Int) -> [Range<Int>] {
        let tabs: [ListViewModel.Tab] = [
            .init(title: "Downloading", count: downloading, isActive: false), .init(title: "Completed", count: completed, isActive: false),
        ]
        return ranges(titles(tabs, width: width))
    }
}

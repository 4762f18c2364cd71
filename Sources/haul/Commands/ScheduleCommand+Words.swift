extension ScheduleCommand {
    /// The windows as the shell split them, put back together: days given as a word of their own go with the hours
    /// after them (`mon-fri 01:00-07:00`, as the README writes it), and days after `--limit` go with the next cap
    /// window (`--limit mon-fri 08:00-18:00=1M`, whose hours the argument parser takes for a run window). Pure.
    static func joined(windows: [String], limits: [String]) -> (run: [String], cap: [String]) {
        var run: [String] = []
        var caps: [String] = []
        var pendingDays: String?
        var unclaimedCaps: [String] = []
        for word in windows {
            if isDaysOnly(word) {
                pendingDays = pendingDays.map { $0 + " " + word } ?? word
                continue
            }
            let window = pendingDays.map { $0 + " " + word } ?? word
            pendingDays = nil
            if word.contains("=") { unclaimedCaps.append(window) } else { run.append(window) }
        }
        if let pendingDays { run.append(pendingDays) }
        for limit in limits {
            if isDaysOnly(limit), !unclaimedCaps.isEmpty {
                caps.append(limit + " " + unclaimedCaps.removeFirst())
            } else {
                caps.append(limit)
            }
        }
        // A cap window no --limit claimed stays a run window, which the parser refuses with its reason.
        return (run + unclaimedCaps, caps)
    }

    /// A word that names days and no hours: `mon-fri`, `sat,sun`, `fri-mon`.
    static func isDaysOnly(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isLetter || $0 == "-" || $0 == "," }
    }
}

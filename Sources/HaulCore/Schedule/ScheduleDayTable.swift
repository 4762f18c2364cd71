import Foundation

/// What a schedule says through each day of the week, built once from its windows: per weekday, the seconds after
/// local midnight where the answer changes, in order, and the answer from each on. A search for the next change reads
/// it by binary search instead of testing every window at every window's start and end.
///
/// It answers as `Schedule.runs(at:)` and `Schedule.cap(at:)` do, for the weekday and the local time of day. A value,
/// owned by the search that builds it.
struct ScheduleDayTable {
    /// What the schedule says at one moment.
    struct Answer: Equatable {
        var runs: Bool
        var cap: Int64?
    }

    /// Per weekday (index 0 = Sunday): the seconds where a stretch starts, the first 0, each answering unlike the one before.
    private var starts: [[Int]] = []
    /// Per weekday: the answer from each start in `starts` on.
    private var answers: [[Answer]] = []

    init(_ schedule: Schedule) {
        for weekday in 1...7 {
            let (starts, answers) = Self.stretches(of: schedule, on: weekday)
            self.starts.append(starts)
            self.answers.append(answers)
        }
    }

    /// The answer at `second` after local midnight on `weekday` (1 = Sunday … 7 = Saturday).
    func answer(weekday: Int, second: Int) -> Answer {
        // The last start at or before `second`: starts[0] is 0, so there is one for every second of the day.
        let last = max(0, starts[weekday - 1].partitioningIndex { $0 > second } - 1)
        return answers[weekday - 1][last]
    }

    /// The answer at `date`, read in `calendar`'s time zone.
    func answer(at date: Date, calendar: Calendar) -> Answer {
        let parts = calendar.dateComponents([.weekday, .hour, .minute, .second], from: date)
        let second = (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
        return answer(weekday: parts.weekday ?? 1, second: second)
    }

    /// The seconds after midnight on `weekday` where the answer may change, in order: midnight, then where it does.
    func changes(on weekday: Int) -> [Int] { starts[weekday - 1] }

    /// One sweep over the windows' edges on `weekday`: each window that starts that day (up to midnight when it
    /// runs over it) and each that ran over midnight from the day before (up to its end).
    private static func stretches(of schedule: Schedule, on weekday: Int) -> (starts: [Int], answers: [Answer]) {
        let yesterday = weekday == 1 ? 7 : weekday - 1
        /// An edge: at `second`, a run window or a cap window opens or closes.
        struct Edge {
            var second: Int
            var opens: Bool
            var isRun: Bool
            var cap: Int64?
        }
        var edges: [Edge] = []
        func add(_ window: ScheduleWindow, isRun: Bool) {
            var spans: [(Int, Int)] = []
            if window.crossesMidnight {
                if window.startsOn(weekday) { spans.append((window.start, 86400)) }
                if window.startsOn(yesterday) { spans.append((0, window.end)) }
            } else if window.startsOn(weekday) {
                spans.append((window.start, window.end))
            }
            for (from, to) in spans {
                let (from, to) = (min(max(from, 0), 86400), min(max(to, 0), 86400))
                guard from < to else { continue }
                edges.append(Edge(second: from, opens: true, isRun: isRun, cap: window.cap))
                edges.append(Edge(second: to, opens: false, isRun: isRun, cap: window.cap))
            }
        }
        for window in schedule.runWindows { add(window, isRun: true) }
        for window in schedule.capWindows { add(window, isRun: false) }
        edges.sort { $0.second < $1.second }

        let alwaysRuns = schedule.runWindows.isEmpty
        var openRuns = 0
        var openCaps: [Int64] = []  // sorted, so the lowest is first
        var starts: [Int] = []
        var answers: [Answer] = []
        var index = 0
        var second = 0
        while second < 86400 {
            while index < edges.count, edges[index].second == second {
                let edge = edges[index]
                if edge.isRun {
                    openRuns += edge.opens ? 1 : -1
                } else if let cap = edge.cap {
                    let position = openCaps.partitioningIndex { $0 >= cap }
                    if edge.opens {
                        openCaps.insert(cap, at: position)
                    } else if position < openCaps.count, openCaps[position] == cap {
                        openCaps.remove(at: position)
                    }
                }
                index += 1
            }
            let answer = Answer(runs: alwaysRuns || openRuns > 0, cap: Schedule.cap(lowest: openCaps.first))
            if answers.last != answer {
                starts.append(second)
                answers.append(answer)
            }
            second = index < edges.count ? edges[index].second : 86400
        }
        return (starts, answers)
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for an array where every element that does comes after every
    /// one that does not (binary search); `count` when none does.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

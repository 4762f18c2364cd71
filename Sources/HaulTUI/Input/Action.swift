/// A user intent from the list screen or a box over it. Actions never draw: `UIState.reduce` turns them into state
/// and, for queue changes, a `QueueCommand`.
public enum Action: Hashable, Sendable, CaseIterable {
    case selectPrevious, selectNext, pageUp, pageDown, selectFirst, selectLast
    /// Pause a running or waiting task, resume a paused one, retry a failed one.
    case toggleSelected
    case pauseAll, startAll
    /// Set the schedule aside until its next change, or take it up again.
    case suspendSchedule
    /// Open the prompt line to add URLs.
    case add
    /// A new link for the selected task.
    case editLink
    /// Ask to remove the selected task (and whether to delete its partial file).
    case remove
    case moveUp, moveDown
    case decreaseConcurrency, increaseConcurrency
    /// Lower or raise the cap on all downloads together, a step at a time.
    case lowerOverallLimit, raiseOverallLimit
    /// One connection more or fewer for the selected download.
    case moreConnections, fewerConnections
    case showDetails
    case switchList
    case toggleHelp
    case quit
    /// Leave the downloads to a background haul and close the list.
    case detach
    /// Scroll the open help or details box: a line, a page, to either end.
    case scrollUp, scrollDown, scrollPageUp, scrollPageDown, scrollTop, scrollBottom
    /// Close the open help or details box.
    case closeOverlay
    /// Type a filter: rows whose name or link contain the text stay.
    case filter
    /// The next order of the list (queue order, name, size, progress, speed, time left, added).
    case cycleSort
    /// Mark or unmark the selected task; clear every mark.
    case toggleMark, clearMarks
    /// Remove the finished rows shown (files stay); retry the failed ones shown.
    case clearFinished, retryFailed
    /// Show a group's tasks beneath its row; hide them again (from the group's row or one of its tasks).
    case expandGroup, collapseGroup
}

import Foundation

/// The schedule (DESIGN §10): outside its run windows running tasks go back in line and nothing starts but what
/// the user starts by hand; its cap windows lower the overall cap. The pure `Schedule` decides; this carries it
/// out, once a second and whenever the schedule or the overall cap changes.
extension DownloadController {
    /// The cap the engine applies: the lower of `--max-overall-download-limit` (or the list's) and the schedule's.
    var effectiveOverallLimit: Int64? {
        switch (configuration.overallLimit?.bytesPerSecond, scheduleGate.cap) {
        case let (own?, cap?): min(own, cap)
        case let (own, cap): own ?? cap
        }
    }

    /// Replaces the schedule, keeps it and applies it at once; one with too many windows is refused.
    func setSchedule(_ new: Schedule) -> CommandResult {
        do {
            try new.checkWindowCount()
        } catch {
            return .rejected("\(error)")
        }
        guard attempt({ try store.saveSchedule(new) }) != nil else { return storeFailure }
        scheduleGate.replace(new)
        applySchedule(force: true)
        return .done
    }

    /// Sets the schedule aside until its next change (the queue runs, uncapped by it, till then), or takes it up again.
    func suspendSchedule(_ suspend: Bool) -> CommandResult {
        scheduleGate.suspend(suspend, now: configuration.wallClock(), calendar: configuration.calendar)
        applySchedule(force: true)
        return .done
    }

    /// Reads the schedule on the wall clock (`ScheduleGate`) and does what changed: holds or releases the queue,
    /// sets the cap, and tells of the note the list and `haul list` show. `force` sends the cap even when it did
    /// not change.
    func applySchedule(force: Bool = false) {
        guard isRunning else { return }
        let change = scheduleGate.read(at: configuration.wallClock(), calendar: configuration.calendar, force: force)
        if change.holds {
            if scheduleGate.holds {
                // Back in line with their bytes synced, to start again when a window opens.
                for id in Array(tasks.runningPositions.keys) where !runtime[id].startedByHand {
                    if let task = tasks[id], let waiting = TaskLifecycle.requeue(task) {
                        save(waiting)
                        driver.send(.pause(id))
                    }
                }
            } else {
                for id in tasks.waiting.ids { runtime[id].startedByHand = false }
                fillSlots()
            }
            pacer.rowsDidChange()
        }
        if change.cap { driver.send(.setOverallLimit(effectiveOverallLimit)) }
        if change.note {
            pacer.rowsDidChange()
            announce(.schedule(scheduleGate.note))
        }
    }

    /// The schedule's windows as they stand.
    public func currentSchedule() -> Schedule { scheduleGate.schedule }
}

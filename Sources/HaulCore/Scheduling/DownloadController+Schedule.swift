import Foundation

/// The schedule (DESIGN §10): outside its run windows running tasks go back in line and nothing starts but what
/// the user starts by hand; its cap windows lower the overall cap. The pure `Schedule` decides; this carries it
/// out, once a second and whenever the schedule or the overall cap changes.
extension DownloadController {
    /// The cap the engine applies: the lower of `--max-overall-download-limit` (or the list's) and the schedule's.
    var effectiveOverallLimit: Int64? {
        switch (configuration.overallLimit?.bytesPerSecond, scheduleCap) {
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
        schedule = new
        applySchedule(force: true)
        return .done
    }

    /// Sets the schedule aside until its next change (the queue runs, uncapped by it, till then), or takes it up again.
    func suspendSchedule(_ suspend: Bool) -> CommandResult {
        let now = configuration.wallClock()
        scheduleSuspendedUntil = suspend ? schedule.nextChange(after: now, calendar: configuration.calendar) : nil
        applySchedule(force: true)
        return .done
    }

    /// Reads the schedule on the wall clock and does what changed: holds or releases the queue, sets the cap,
    /// and words the note the list and `haul list` show. `force` sends the cap even when it did not change.
    func applySchedule(force: Bool = false) {
        guard isRunning else { return }
        let now = configuration.wallClock()
        let calendar = configuration.calendar
        if let until = scheduleSuspendedUntil, now >= until { scheduleSuspendedUntil = nil }
        let suspended = scheduleSuspendedUntil != nil
        let runs = suspended || schedule.runs(at: now, calendar: calendar)
        let holds = !runs
        if holds != scheduleHolds {
            scheduleHolds = holds
            if holds {
                // Back in line with their bytes synced, to start again when a window opens.
                for id in Array(tasks.runningPositions.keys) where !runtime[id].startedByHand {
                    if let task = tasks[id], let waiting = TaskLifecycle.requeue(task) {
                        save(waiting)
                        driver.send(.pause(id))
                    }
                }
            } else {
                for id in tasks.waiting.keys { runtime[id].startedByHand = false }
                fillSlots()
            }
            snapshotDirty = true
        }
        let cap = suspended ? nil : schedule.cap(at: now, calendar: calendar)
        if cap != scheduleCap || force {
            scheduleCap = cap
            driver.send(.setOverallLimit(effectiveOverallLimit))
        }
        let note = scheduleSuspendedUntil.map { "schedule suspended until " + Schedule.clock($0, now: now, calendar: calendar) }
            ?? schedule.note(runs: runs, cap: cap, next: nextScheduleChange(runs: runs, cap: cap, now: now, force: force), at: now, calendar: calendar)
        if note != scheduleNote {
            scheduleNote = note
            snapshotDirty = true
            announce(.schedule(note))
        }
    }

    /// The schedule's next change when it holds or caps the queue (nil otherwise): the one found last while it
    /// still holds and caps alike and has not come, else searched again.
    private func nextScheduleChange(runs: Bool, cap: Int64?, now: Date, force: Bool) -> Date? {
        guard !runs || cap != nil else { return nil }
        if !force, let last = scheduleNext, last.runs == runs, last.cap == cap, now >= last.found,
           last.at.map({ now < $0 }) ?? true { return last.at }
        let next = schedule.nextChange(after: now, calendar: configuration.calendar)
        scheduleNext = (runs, cap, next, now)
        return next
    }

    /// The schedule's windows as they stand.
    public func currentSchedule() -> Schedule { schedule }
}

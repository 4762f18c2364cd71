import HaulCore

extension ViewModelBuilder {
    /// The header: tasks per state, the speed, the cap that holds now and why, what the schedule does to the queue,
    /// the free disk space.
    /// - Parameter figures: the queue's figures, from `snapshot` (`QueueFigures`).
    func header(_ snapshot: QueueSnapshot, figures: QueueFigures, freeDiskBytes: Int64?) -> ListViewModel.Header {
        var counts: [ListViewModel.Count] = [
            .init(number: figures.running, word: "running", glyph: glyphs.running, role: .stateRunning),
            .init(number: figures.waiting, word: "waiting", glyph: glyphs.waiting, role: .stateWaiting),
        ]
        let optional: [ListViewModel.Count] = [
            .init(number: figures.retrying, word: "retrying", glyph: glyphs.retrying, role: .stateRetrying),
            .init(number: figures.paused, word: "paused", glyph: glyphs.paused, role: .statePaused),
            .init(number: figures.failed, word: "failed", glyph: glyphs.failed, role: .stateFailed),
            .init(number: figures.completed, word: "done", glyph: glyphs.completed, role: .stateCompleted),
        ]
        counts += optional.filter { $0.number > 0 }
        var header = ListViewModel.Header(
            counts: counts,
            speed: ByteCountFormat.rate(snapshot.totalSpeed),
            freeDisk: freeDiskBytes.map { ByteCountFormat.size(max(0, $0)) },
            freeDiskCompact: freeDiskBytes.map { ByteCountFormat.compact(max(0, $0)) })
        if let cap = Self.capInForce(global: snapshot.overallLimit, schedule: snapshot.scheduleCap) {
            header.cap = "cap \(cap.limit) \(cap.why)"
            header.capShort = "cap \(cap.limit)"
        }
        if let until = snapshot.scheduleHeldUntil {
            header.schedule = "paused until \(until) by the schedule"
            header.scheduleShort = "paused till \(until)"
        } else if snapshot.scheduleSuspended, let note = snapshot.schedule {
            header.schedule = note
            header.scheduleShort = "schedule set aside"
        }
        return header
    }

    /// The cap the engine applies (the lower of the two) and why: `by the schedule` or `(global)`; nil for none.
    static func capInForce(global: RateLimit?, schedule: RateLimit?) -> (limit: RateLimit, why: String)? {
        switch (global, schedule) {
        case let (global?, schedule?): schedule < global ? (schedule, "by the schedule") : (global, "(global)")
        case let (global?, nil): (global, "(global)")
        case let (nil, schedule?): (schedule, "by the schedule")
        case (nil, nil): nil
        }
    }
}

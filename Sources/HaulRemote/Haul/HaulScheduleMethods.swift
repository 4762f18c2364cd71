import HaulCore

/// `haul.getSchedule`, `haul.changeSchedule` and `haul.suspendSchedule`: the schedule over RPC, with the secret, as
/// `haul schedule` and the list's `z` key change it (DESIGN §10).
extension HaulMethods {
    /// `haul.getSchedule()`: `{"runs": [WINDOW…], "caps": ["WINDOW=RATE"…], "suspended": BOOL, "now": TEXT}`.
    func getSchedule() async -> JSONValue {
        let schedule = await access.schedule()
        let snapshot = access.snapshot()
        var answer: [String: JSONValue] = [
            "runs": .array(schedule.runWindows.map { .string($0.description) }),
            "caps": .array(schedule.capWindows.map { .string($0.description) }),
            "suspended": .bool(snapshot.scheduleSuspended),
        ]
        answer["now"] = .string(snapshot.schedule ?? (schedule.isEmpty ? "no schedule" : "running, no scheduled cap"))
        return .object(answer)
    }

    /// `haul.changeSchedule([{"runs": [WINDOW…], "caps": ["WINDOW=RATE"…]}])`: replaces the whole schedule (an empty
    /// object clears it); a window that does not read is refused naming it, and nothing changes.
    func changeSchedule(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        guard params.count == 1, let object = params[0].objectValue,
              Set(object.keys).isSubset(of: ["runs", "caps"]) else { throw .invalidParams }
        func windows(_ key: String, cap: Bool) throws(RPCError) -> [ScheduleWindow] {
            guard let value = object[key] else { return [] }
            guard case let .array(items) = value else { throw .invalidParams }
            var windows: [ScheduleWindow] = []
            for item in items {
                guard let text = item.stringValue else { throw .invalidParams }
                do {
                    windows.append(try ScheduleWindow(parsing: text, cap: cap))
                } catch {
                    throw .failed("\(key): \(error)")
                }
            }
            return windows
        }
        let schedule = Schedule(runWindows: try windows("runs", cap: false), capWindows: try windows("caps", cap: true))
        do {
            try schedule.checkWindowCount()
        } catch {
            throw .failed("\(error)")
        }
        return try Self.answer(await access.perform([.setSchedule(schedule)]))
    }

    /// `haul.suspendSchedule([BOOL])`: sets the schedule aside until its next change (true), or applies it again.
    func suspendSchedule(_ params: [JSONValue]) async throws(RPCError) -> JSONValue {
        guard params.count == 1, case let .bool(suspend) = params[0] else { throw .invalidParams }
        return try Self.answer(await access.perform([.suspendSchedule(suspend)]))
    }

    /// "OK", or the store's or the controller's refusal.
    private static func answer(_ results: [CommandResult]) throws(RPCError) -> JSONValue {
        switch results.first {
        case let .storeFailed(message)?, let .rejected(message)?: throw .failed(message)
        default: return "OK"
        }
    }
}

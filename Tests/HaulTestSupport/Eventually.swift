/// A bounded wait ran out before its condition held.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was awaited, in words.
    public var what: String
    public var timeout: Duration
    /// `file:line` of the wait.
    public var location: String

    public init(what: String, timeout: Duration, location: String) {
        self.what = what
        self.timeout = timeout
        self.location = location
    }

    public var description: String { "timed out after \(timeout) waiting for \(what) (\(location))" }
}

/// Polls `condition` every `poll` until it returns true; throws `TimedOut` after `timeout`.
///
/// The condition runs on the caller's task and should be cheap: the cooperative pool is only two threads wide here.
public func eventually(
    _ what: String = "condition", timeout: Duration, poll: Duration = .milliseconds(20),
    fileID: String = #fileID, line: Int = #line, _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return }
        guard ContinuousClock.now < deadline else {
            throw TimedOut(what: what, timeout: timeout, location: "\(fileID):\(line)")
        }
        try await Task.sleep(for: poll)
    }
}

/// Polls an asynchronous `condition` every `poll` until it returns true; throws `TimedOut` after `timeout`.
public func eventually(
    _ what: String = "condition", timeout: Duration, poll: Duration = .milliseconds(20),
    fileID: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        guard ContinuousClock.now < deadline else {
            throw TimedOut(what: what, timeout: timeout, location: "\(fileID):\(line)")
        }
        try await Task.sleep(for: poll)
    }
}

/// Polls `produce` every `poll` until it returns a value; throws `TimedOut` after `timeout`.
public func eventuallyValue<Value>(
    _ what: String = "value", timeout: Duration, poll: Duration = .milliseconds(20),
    fileID: String = #fileID, line: Int = #line, _ produce: () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await produce() { return value }
        guard ContinuousClock.now < deadline else {
            throw TimedOut(what: what, timeout: timeout, location: "\(fileID):\(line)")
        }
        try await Task.sleep(for: poll)
    }
}

/// Polls `observe` every `poll` until it has returned the same value at every poll across `quiet`; returns that
/// value. Throws `TimedOut` after `timeout` if the value kept changing.
///
/// For "it has stopped": a counter of bytes, rows or events that no longer moves. `quiet` must span several
/// of the producer's own steps (a throttled FaultServer body goes out in slices every 50 ms), so one step
/// in flight cannot pass for a stop.
public func eventuallySteady<Value: Equatable>(
    _ what: String = "value steady", quiet: Duration, timeout: Duration, poll: Duration = .milliseconds(20),
    fileID: String = #fileID, line: Int = #line, _ observe: () async throws -> Value
) async throws -> Value {
    let deadline = ContinuousClock.now + timeout
    var value = try await observe()
    var since = ContinuousClock.now
    while true {
        let now = ContinuousClock.now
        if now - since >= quiet { return value }
        guard now < deadline else {
            throw TimedOut(what: "\(what) (last seen: \(value))", timeout: timeout, location: "\(fileID):\(line)")
        }
        try await Task.sleep(for: poll)
        let next = try await observe()
        if next != value {
            value = next
            since = ContinuousClock.now
        }
    }
}

/// Which segments of a stream to fetch next (DESIGN §9): in playlist order, over up to `connections` at once,
/// never further ahead of the first segment not yet appended than the window allows, so memory is bounded by
/// the window and never by the stream. Fetched segments wait until every one before them is in; then they are
/// appended in order. A pure value: the engine asks it and tells it what happened.
public struct StreamWindow: Sendable, Equatable {
    /// Segments in the stream (a live one's grow as its playlist does).
    public private(set) var count: Int
    /// Segments appended to the part file: `0..<appended` are done.
    public private(set) var appended: Int
    /// Most segments fetched or in flight beyond `appended`.
    public let span: Int
    /// Segments being fetched.
    public private(set) var inFlight: Set<Int> = []
    /// Segments fetched and held until their turn, with their sizes.
    public private(set) var held: [Int: Int] = [:]
    /// Segments that failed and wait to be fetched again.
    public private(set) var retry: Set<Int> = []
    /// The next segment never asked for.
    private var next: Int
    /// Segments handed out for appending and not yet appended (they follow `appended` in order).
    private var queued: Set<Int> = []

    public init(count: Int, appended: Int, span: Int) {
        self.count = count
        self.appended = min(max(0, appended), count)
        self.span = max(1, span)
        next = self.appended
    }

    public var isComplete: Bool { appended == count }

    /// Segments to start now, given `free` connections: retries first, then the next in order, within the window.
    public mutating func take(free: Int) -> [Int] {
        var started: [Int] = []
        while started.count < free {
            if let again = retry.min() {
                retry.remove(again)
                inFlight.insert(again)
                started.append(again)
                continue
            }
            guard next < count, next < appended + span else { break }
            inFlight.insert(next)
            started.append(next)
            next += 1
        }
        return started
    }

    /// `index` arrived whole (`bytes` of clear media); returns the segments that can be appended now, in order.
    public mutating func fetched(_ index: Int, bytes: Int) -> [Int] {
        guard inFlight.remove(index) != nil else { return [] }
        held[index] = bytes
        var ready: [Int] = []
        var cursor = appended + queued.count
        while held[cursor] != nil, !queued.contains(cursor) {
            ready.append(cursor)
            queued.insert(cursor)
            cursor += 1
        }
        return ready
    }

    /// `index` is in the part file (and synced or about to be): the window moves on.
    public mutating func didAppend(_ index: Int) {
        guard index == appended, queued.remove(index) != nil else { return }
        held[index] = nil
        appended += 1
    }

    /// `index` failed and will be fetched again.
    public mutating func failed(_ index: Int) {
        guard inFlight.remove(index) != nil else { return }
        retry.insert(index)
    }

    /// A live playlist listed `more` segments after the last one.
    public mutating func extend(by more: Int) {
        count += max(0, more)
    }

    /// A live recording stops: nothing after what is appended is fetched or appended (what was held is dropped).
    public mutating func end() {
        count = appended
        next = appended
        inFlight = []
        held = [:]
        retry = []
        queued = []
    }

    /// Bytes held in memory for segments waiting their turn.
    public var heldBytes: Int { held.values.reduce(0, +) }
}

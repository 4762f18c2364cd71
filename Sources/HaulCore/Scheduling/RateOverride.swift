/// A task's bandwidth cap as set while the queue runs, over the run's `--limit-rate`.
public enum RateOverride: Sendable, Equatable {
    /// Nothing set for the task: the run's limit holds.
    case inherit
    /// Set to no limit, whatever the run's limit is.
    case unlimited
    /// Set to this cap.
    case limited(RateLimit)

    /// The override a live "limit this task" sets: a cap, or none at all (nil).
    public init(setting limit: RateLimit?) {
        self = limit.map(RateOverride.limited) ?? .unlimited
    }

    /// The cap the task transfers with, given the run's `inherited` one.
    public func resolved(inheriting inherited: RateLimit?) -> RateLimit? {
        switch self {
        case .inherit: inherited
        case .unlimited: nil
        case let .limited(limit): limit
        }
    }

    /// The cap set for the task itself, if any (what snapshots and RPC clients show).
    public var setLimit: RateLimit? {
        if case let .limited(limit) = self { return limit }
        return nil
    }
}

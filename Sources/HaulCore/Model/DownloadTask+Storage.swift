import Foundation

/// How a task's fields are kept: two values behind references copied on write.
///
/// `Fields` holds what differs from task to task (link, name, counts, validators); `Details` what tasks
/// added together mostly share (request options, headers, mirrors, group, a stream's or page's description).
/// Copies of a task share both; tasks whose details are equal can share one copy of them (`shareDetails(with:)`),
/// so a queue of 100,000 tasks added from one input file holds one set of request options, not 100,000. The state
/// is kept in the task itself, beside them: a command for every task changes 100,000 states without a copy.
extension DownloadTask {
    /// In an order that leaves little padding (the small optionals last): a queue of 100,000 holds one per task.
    struct Fields: Sendable, Equatable {
        var id: TaskID
        var url: String
        var directory: String
        var requestedName: String? = nil
        var fileName: String? = nil
        var position: Int64
        var bytesDone: Int64
        var validators: RemoteValidators
        var lastError: String? = nil
        var createdAt: Date
        var details: CopyOnWrite<Details>
        var totalBytes: Int64? = nil
        var kind: TaskKind? = nil
        /// Four bytes, in the padding after the optional before it: the fields then take 209 bytes, and with the
        /// box's header a 240-byte block, not a 256-byte one (1.6 MB less for 100,000 tasks).
        var attempts: Int32
        var finishedAt: Date? = nil
    }

    struct Details: Sendable, Equatable {
        var checksum: Checksum? = nil
        var headers: [String]
        var segments: [SegmentRecord] = []
        var linkChange: LinkChange? = nil
        var linkHistory: [String] = []
        var requestOptions = RequestOptions()
        var cookies: [String] = []
        var mirrors: [String] = []
        var droppedLinks: [DroppedLink] = []
        var stream: StreamInfo? = nil
        var page: WebPage? = nil
        var group: String? = nil
    }

    /// Takes `other`'s copy of the details (request options, headers, mirrors, stream, page, ...) when they are
    /// equal to this task's: the two then hold one copy between them. Changes nothing a reader of the task can see.
    public mutating func shareDetails(with other: DownloadTask) {
        storage.value.details.share(other.storage.value.details)
    }

    /// Takes `other`'s copy of the details as they are, without comparing them: for a reader that read both tasks'
    /// details from the same stored text (the store's `TaskRowReader`), so they are equal.
    public mutating func adoptDetails(of other: DownloadTask) {
        assert(storage.value.details.value.segments.isEmpty && other.storage.value.details.value.segments.isEmpty)
        storage.value.details = other.storage.value.details
    }

    /// Whether the two tasks hold one copy of their details (for tests of what a long queue keeps).
    public func sharesDetails(with other: DownloadTask) -> Bool {
        storage.value.details.isShared(with: other.storage.value.details)
    }
}

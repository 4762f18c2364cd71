import HaulCore

/// The order in which a transfer's end is carried out, one for every kind of task (DESIGN §5, §11): sync the part
/// files, then for a complete task verify (sizes, then the checksum of what would be published) → publish under a
/// free final name → sync the directory → record. A part file that fails verification is discarded and never
/// appears under the final name; a change of the remote file empties the part files; a file that a run which died
/// had published has the directory synced before it is recorded. Pure: the closing work carries out each step it
/// gives and tells it what the step found.
///
/// A value owned by one closing work, on the disk worker's queue.
struct ClosingPolicy: Sendable, Equatable {
    let ending: TransferEnding
    /// What the transfer wrote into each part file, the main output's first; empty when it has none to publish.
    let partSizes: [Int64]
    /// Whether the part files become one output (a mux or a remux) after their sizes are checked.
    let assembles: Bool
    /// `--checksum`: the digest the published output must have.
    let checksum: Checksum?
    /// The step given last; nil before the first.
    private(set) var current: ClosingStep?

    init(ending: TransferEnding, partSizes: [Int64], assembles: Bool = false, checksum: Checksum?) {
        self.ending = ending
        self.partSizes = partSizes
        self.assembles = assembles
        self.checksum = checksum
    }

    /// The next step, given what the current one found (the first step when there is none yet: `.done`).
    mutating func next(after finding: ClosingFinding) -> ClosingStep {
        let step = decide(after: finding)
        current = step
        return step
    }

    private func decide(after finding: ClosingFinding) -> ClosingStep {
        guard let current else { return first }
        switch current {
        case .syncParts:
            return afterSync(finding)
        case let .emptyParts(reason), let .discard(reason):
            return .record(.failed(reason, keeps: .nothing))
        case let .verifySizes(expected):
            guard case let .sizes(actual) = finding else { return failed(finding) }
            if let (wanted, found) = zip(expected, actual).first(where: { $0.0 != $0.1 }) ?? unmatchedCount(expected, actual) {
                return .discard(.sizeMismatch(expected: wanted, actual: found ?? 0))
            }
            return assembles ? .assemble : checksumOrPublish
        case .assemble:
            return checksumOrPublish
        case let .verifyChecksum(checksum):
            guard case let .digest(actual) = finding else { return failed(finding) }
            return actual == checksum.hex ? .publish : .discard(.checksumMismatch(expected: checksum.hex, actual: actual))
        case .publish:
            if case let .failed(error) = finding { return .record(.failed(error, keeps: .synced)) }
            return .syncDirectory
        case .syncDirectory:
            // The file is published either way: a failed directory sync leaves the rename to the file system's
            // own time, and the task's mark finds the file again after a crash (`PartOwnerTag`).
            return .record(.completed)
        case .record:
            return current
        }
    }

    /// A change of the remote file empties the part files without syncing them; a file a run that died published
    /// has its rename made durable before it is recorded; every other end syncs first.
    private var first: ClosingStep {
        switch ending {
        case let .fileChanged(reason): .emptyParts(.remoteFileChanged(reason))
        case .publishedEarlier: .syncDirectory
        case .paused, .failed, .complete: .syncParts
        }
    }

    private func afterSync(_ finding: ClosingFinding) -> ClosingStep {
        let syncError: DownloadError? = if case let .failed(error) = finding { error } else { nil }
        switch ending {
        case .paused:
            if let syncError { return .record(.failed(syncError, keeps: .durableBefore)) }
            return .record(.paused)
        case let .failed(error):
            return .record(.failed(error, keeps: syncError == nil ? .synced : .durableBefore))
        case let .fileChanged(reason):
            return .emptyParts(.remoteFileChanged(reason))
        case .publishedEarlier:
            return .syncDirectory
        case .complete:
            if let syncError { return .record(.failed(syncError, keeps: .durableBefore)) }
            if partSizes.isEmpty { return .record(.failed(inconsistent, keeps: .nothing)) }
            return .verifySizes(partSizes)
        }
    }

    private var checksumOrPublish: ClosingStep {
        checksum.map { .verifyChecksum($0) } ?? .publish
    }

    /// A verification that found no answer of its kind fails the closing, keeping what was synced.
    private func failed(_ finding: ClosingFinding) -> ClosingStep {
        if case let .failed(error) = finding { return .record(.failed(error, keeps: .synced)) }
        return .record(.failed(.inconsistentTransfer("the closing check found \(finding)"), keeps: .synced))
    }

    /// The first part file that was not measured at all, when fewer sizes came back than were asked for.
    private func unmatchedCount(_ expected: [Int64], _ actual: [Int64?]) -> (Int64, Int64?)? {
        expected.count > actual.count ? (expected[actual.count], nil) : nil
    }

    private var inconsistent: DownloadError { .inconsistentTransfer("completed without a file") }
}

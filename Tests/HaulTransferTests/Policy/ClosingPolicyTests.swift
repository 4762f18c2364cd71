import HaulCore
import Testing
@testable import HaulTransfer

/// The closing policy decided without a disk: one order for a file and a stream, no publish step for a part file that
/// fails verification, and the same rule for a change of the remote file.
struct ClosingPolicyTests {
    static let sum = Checksum(algorithm: .sha256, hex: String(repeating: "a", count: 64))
    static let wrong = String(repeating: "0", count: 64)
    static let full = DownloadError.diskFull(path: "/d/x.part")

    /// A file: one part file, published as it is.
    static func file(_ ending: TransferEnding, checksum: Checksum? = sum) -> ClosingPolicy {
        ClosingPolicy(ending: ending, partSizes: [1_000], checksum: checksum)
    }

    /// A stream with a separate audio rendition, muxed into its video before it is checked.
    static func stream(_ ending: TransferEnding, checksum: Checksum? = sum) -> ClosingPolicy {
        ClosingPolicy(ending: ending, partSizes: [900, 100], assembles: true, checksum: checksum)
    }

    /// Every step the policy gives, each carried out as `disk` says (by default: everything as it should be).
    static func steps(_ policy: ClosingPolicy, disk: (ClosingStep) -> ClosingFinding = Self.sound) -> [ClosingStep] {
        var policy = policy
        var steps = [policy.next(after: .done)]
        while case let last = steps[steps.count - 1], !last.isRecord, steps.count < 20 {
            steps.append(policy.next(after: disk(last)))
        }
        return steps
    }

    /// A disk on which every step does what it should: sizes as written, the digest as wanted.
    static func sound(_ step: ClosingStep) -> ClosingFinding {
        switch step {
        case let .verifySizes(sizes): .sizes(sizes)
        case let .verifyChecksum(checksum): .digest(checksum.hex)
        default: .done
        }
    }

    @Test func aCompleteFileIsVerifiedThenPublishedThenTheDirectorySyncedThenRecorded() {
        #expect(Self.steps(Self.file(.complete)) == [
            .syncParts, .verifySizes([1_000]), .verifyChecksum(Self.sum), .publish, .syncDirectory, .record(.completed),
        ])
    }

    @Test func aCompleteStreamTakesTheSameStepsWithItsMuxBeforeTheChecksum() {
        #expect(Self.steps(Self.stream(.complete)) == [
            .syncParts, .verifySizes([900, 100]), .assemble, .verifyChecksum(Self.sum), .publish, .syncDirectory, .record(.completed),
        ])
    }

    @Test func everyKindPublishesAfterItsChecksAndSyncsTheDirectoryBeforeItRecords() {
        for policy in [Self.file(.complete), Self.stream(.complete), Self.file(.complete, checksum: nil), Self.stream(.complete, checksum: nil)] {
            let steps = Self.steps(policy)
            guard let publish = steps.firstIndex(of: .publish) else {
                Issue.record("no publish step: \(steps)")
                continue
            }
            #expect(steps.indices.filter { steps[$0].isVerification }.allSatisfy { $0 < publish }, "\(steps)")
            #expect(Array(steps.suffix(3)) == [.publish, .syncDirectory, .record(.completed)], "\(steps)")
        }
    }

    @Test func aWrongChecksumIsDiscardedAndNeverPublished() {
        let mismatch = DownloadError.checksumMismatch(expected: Self.sum.hex, actual: Self.wrong)
        for policy in [Self.file(.complete), Self.stream(.complete)] {
            let steps = Self.steps(policy) { step in
                if case .verifyChecksum = step { return .digest(Self.wrong) }
                return Self.sound(step)
            }
            #expect(!steps.contains(.publish) && !steps.contains(.syncDirectory), "\(steps)")
            #expect(Array(steps.suffix(2)) == [.discard(mismatch), .record(.failed(mismatch, keeps: .nothing))])
        }
    }

    @Test func aPartFileOfTheWrongSizeIsDiscardedBeforeAnyOtherCheck() {
        let steps = Self.steps(Self.stream(.complete)) { step in
            if case .verifySizes = step { return .sizes([900, 60]) }
            return Self.sound(step)
        }
        let mismatch = DownloadError.sizeMismatch(expected: 100, actual: 60)
        #expect(steps == [.syncParts, .verifySizes([900, 100]), .discard(mismatch), .record(.failed(mismatch, keeps: .nothing))])
        let missing = Self.steps(Self.file(.complete)) { step in
            if case .verifySizes = step { return .sizes([nil]) }
            return Self.sound(step)
        }
        #expect(missing.last == .record(.failed(.sizeMismatch(expected: 1_000, actual: 0), keeps: .nothing)))
    }

    @Test func aChangeOfTheRemoteFileEmptiesThePartFilesOfEveryKind() {
        let changed = DownloadError.remoteFileChanged("the ETag changed")
        for policy in [Self.file(.fileChanged("the ETag changed")), Self.stream(.fileChanged("the ETag changed"))] {
            #expect(Self.steps(policy) == [.emptyParts(changed), .record(.failed(changed, keeps: .nothing))])
        }
    }

    @Test func aFileARunThatDiedPublishedHasTheDirectorySyncedBeforeItIsRecorded() {
        for policy in [ClosingPolicy(ending: .publishedEarlier, partSizes: [], checksum: Self.sum), Self.stream(.publishedEarlier)] {
            #expect(Self.steps(policy) == [.syncDirectory, .record(.completed)])
        }
    }

    @Test func aPauseOrAFailureOnlySyncsAndKeepsWhatWasSynced() {
        for policy in [Self.file(.paused), Self.stream(.paused)] {
            #expect(Self.steps(policy) == [.syncParts, .record(.paused)])
        }
        let refused = DownloadError.network(code: 7, message: "Couldn't connect", host: "h")
        for policy in [Self.file(.failed(refused)), Self.stream(.failed(refused))] {
            #expect(Self.steps(policy) == [.syncParts, .record(.failed(refused, keeps: .synced))])
        }
    }

    @Test func aFailedSyncKeepsWhatWasDurableBeforeAndPublishesNothing() {
        let failing: (ClosingStep) -> ClosingFinding = { $0 == .syncParts ? .failed(Self.full) : Self.sound($0) }
        #expect(Self.steps(Self.file(.complete), disk: failing) == [.syncParts, .record(.failed(Self.full, keeps: .durableBefore))])
        #expect(Self.steps(Self.stream(.paused), disk: failing) == [.syncParts, .record(.failed(Self.full, keeps: .durableBefore))])
        let refused = DownloadError.network(code: 7, message: "Couldn't connect", host: "h")
        #expect(Self.steps(Self.file(.failed(refused)), disk: failing) == [.syncParts, .record(.failed(refused, keeps: .durableBefore))])
    }

    @Test func aPublishThatFailsKeepsThePartsAndSyncsNothing() {
        let taken = DownloadError.fileSystem(call: "link", path: "/d/x", errno: 17, message: "1000 files of that name exist")
        let steps = Self.steps(Self.file(.complete)) { $0 == .publish ? .failed(taken) : Self.sound($0) }
        #expect(Array(steps.suffix(2)) == [.publish, .record(.failed(taken, keeps: .synced))])
    }

    @Test func aCompleteTransferWithoutAPartFileFails() {
        let steps = Self.steps(ClosingPolicy(ending: .complete, partSizes: [], checksum: nil))
        #expect(steps == [.syncParts, .record(.failed(.inconsistentTransfer("completed without a file"), keeps: .nothing))])
    }

    @Test func aDigestThatCannotBeReadFailsWithoutPublishing() {
        let unreadable = DownloadError.fileSystem(call: "read", path: "/d/x.part", errno: 5, message: "Input/output error")
        let steps = Self.steps(Self.stream(.complete)) { step in
            if case .verifyChecksum = step { return .failed(unreadable) }
            return Self.sound(step)
        }
        #expect(!steps.contains(.publish))
        #expect(steps.last == .record(.failed(unreadable, keeps: .synced)))
    }
}

extension ClosingStep {
    var isRecord: Bool {
        if case .record = self { return true }
        return false
    }

    var isVerification: Bool {
        switch self {
        case .verifySizes, .verifyChecksum: true
        default: false
        }
    }
}

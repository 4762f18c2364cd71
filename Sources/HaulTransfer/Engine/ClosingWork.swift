import Foundation
import HaulCore

/// What the worker queue does when a transfer ends: make its bytes durable, then for a complete file
/// check and publish it. Runs off the transfer thread on its own descriptor; a value, so it carries its
/// ledger copy across.
struct ClosingWork: Sendable {
    let ending: TransferEnding
    let writer: FileWriter?
    let position: Int64
    let durable: Int64
    let fileName: String?
    let checksum: Checksum?
    let directory: DownloadDirectory
    /// A complete file replaces a file at its name.
    let replacing: Bool
    /// The task's mark: a file carrying it at the final name is the task's own and is replaced.
    let tag: PartOwnerTag
    /// The ranges of a segmented download, and what each had received when the transfer stopped.
    let ledger: SegmentLedger?
    let marks: [SegmentLease.ID: Int64]

    /// The outcome, and the layout to record (nil: not segmented; empty: no layout any more).
    func run() -> (TransferOutcome, [SegmentRecord]?) {
        defer { writer?.close() }
        var synced = durable
        var syncError: DownloadError?
        if let writer {
            do {
                try writer.sync()
                synced = position
            } catch {
                syncError = error
            }
        }
        var segments: [SegmentRecord]?
        if var ledger {
            // What was received before the sync is durable now.
            if syncError == nil { for (lease, offset) in marks { ledger.commit(lease, durableUpTo: offset) } }
            synced = ledger.committedBytes
            segments = ledger.records
        }
        switch ending {
        case .paused:
            if let syncError { return (.failed(syncError, durableBytes: synced), segments) }
            return (.paused(durableBytes: synced), segments)
        case let .failed(error):
            if case .rangesIgnored = error, let records = segments {
                // One stream goes on from the durable start of the file.
                return (.failed(error, durableBytes: ResumePoint.contiguousPrefix(of: records)), [])
            }
            return (.failed(error, durableBytes: synced), segments)
        case let .fileChanged(reason):
            // Two versions are never spliced: the part file is emptied and the download starts over.
            try? writer?.truncate(to: 0)
            return (.failed(.remoteFileChanged(reason), durableBytes: 0),
                    segments == nil ? nil : [])
        case .complete:
            if let syncError { return (.failed(syncError, durableBytes: synced), segments) }
            guard let fileName, let writer else {
                return (.failed(.inconsistentTransfer("completed without a file"), durableBytes: 0), segments)
            }
            if let checksum {
                do {
                    let actual = try FileDigest.sha256Hex(path: writer.path)
                    if actual != checksum.hex {
                        // A corrupt file is of no use under any name: drop it so a retry starts clean.
                        unlinkat(directory.fd, PartialFilePath.partName(for: fileName), 0)
                        return (.failed(.checksumMismatch(expected: checksum.hex, actual: actual), durableBytes: 0),
                                segments == nil ? nil : [])
                    }
                } catch {
                    return (.failed(error, durableBytes: synced), segments)
                }
            }
            do {
                let finalName = try directory.publish(partOf: fileName, replacing: replacing, tag: tag)
                // Make the rename itself durable.
                _ = fsync(directory.fd)
                return (.completed(fileName: finalName, bytes: position), segments == nil ? nil : [])
            } catch {
                return (.failed(error, durableBytes: synced), segments)
            }
        }
    }
}

extension ClosingWork {
    /// The work for `transfer` as it stands now (on the transfer thread). The worker gets its own descriptor:
    /// the transfer, and its own, are released on the transfer thread.
    init(ending: TransferEnding, transfer: ActiveTransfer) {
        self.ending = ending
        writer = transfer.writer?.duplicate()
        position = transfer.position
        durable = transfer.durable
        fileName = transfer.fileName
        checksum = transfer.request.checksum
        directory = transfer.directory
        // With --allow-overwrite. A partial file -c continued was moved, not copied: nothing of it is left at the name.
        replacing = transfer.request.requestOptions.allowOverwrite == true
        ledger = transfer.ledger
        marks = transfer.receivedMarks()
        tag = PartOwnerTag(transfer.request)
    }
}

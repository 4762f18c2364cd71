import Glibc
import HaulCore

/// Part files the engine deletes itself: a removed task's, never through a link.
extension TransferThread {
    /// Deletes a task's part file — never through a link, and with `unlessHeld` only one no transfer holds —
    /// and the part file of its separate audio rendition beside it (`NAME.audio.part`).
    func unlinkPart(_ path: String, unlessHeld: Bool = false) {
        let audio = Self.audioPart(besidePart: path)
        for (file, always) in [(path, !unlessHeld), (audio, false)]
        where always || (!partsInUse.paths.contains(file) && DownloadDirectory.isRegularFile(file)) {
            unlink(file)
        }
    }

    /// The part file of a stream's separate audio rendition beside the part file at `path` (`NAME.audio.part`).
    static func audioPart(besidePart path: String) -> String {
        PartialFilePath.partName(for: StreamFileName.audioPart(of: String(path.dropLast(PartialFilePath.partName(for: "").count))))
    }
}

import Glibc
import HaulCore

/// A link that answers with an HLS playlist or a DASH manifest becomes a stream (DESIGN §9, §11): found by its
/// content type when the head arrives, else by its first body bytes (`StreamManifest`); its body is gathered in
/// memory and the engine hands it to a `StreamTransfer` when it is complete.
extension ActiveTransfer {
    /// Whether this answer may turn the task into a stream: the task's kind is not decided yet, the answer is a
    /// fresh download of the task's own link, not `--stream off`.
    func mayBecomeStream(_ link: TransferLink) -> Bool {
        request.kind == nil && link.isMain && request.requestOptions.streamOff != true && requestedOffset == 0 && ledger == nil
    }

    /// Whether this answer may be a web page whose video is fetched instead (DESIGN §11): as for a stream, a fresh
    /// download of the task's own link whose kind is not decided yet (`--stream off` keeps playlists only).
    func mayBePage(_ link: TransferLink) -> Bool {
        request.kind == nil && link.isMain && requestedOffset == 0 && ledger == nil
    }

    /// Takes body bytes of a playlist into memory; nil when the body is not a playlist (it goes to the file).
    func takePlaylist(_ bytes: UnsafeRawBufferPointer, from connection: Connection) -> Int? {
        if playlistCapture == nil {
            guard let held = heldReport else { return nil }
            // Another connection's bytes of the file arrive first (a slow machine): it is a file, reported now, so
            // the bytes it writes are never on record without the answer that names them.
            guard connection.role == .first else {
                reportHeldResponse()
                return nil
            }
            heldReport = nil
            guard StreamManifest.kind(prefix: bytes, contentType: nil) != nil else {
                // A file after all: its answer is reported now, before its first bytes.
                reportResponse(status: held.status, restartReason: held.restartReason)
                return nil
            }
            releasePart()
            playlistCapture = []
        }
        guard case .receiving = phase, connection.state == .receiving else { return 0 }
        guard (playlistCapture?.count ?? 0) + bytes.count <= PlaylistParser.maxBytes else {
            let error = DownloadError.playlist(PlaylistError(line: nil, .tooLarge(limit: PlaylistParser.maxBytes)))
            connection.state = .failed(error)
            phase = .failed(error)
            return 0
        }
        playlistCapture?.append(contentsOf: bytes)
        connection.cursor += Int64(bytes.count)
        connection.bytesSinceTick += Int64(bytes.count)
        return bytes.count
    }

    /// An answer to a fresh download whose first body bytes were not read yet: a file, unless they show a playlist.
    /// Its report waits for them (or for its end, when the body is empty).
    struct HeldReport {
        var status: Int
        var restartReason: String?
    }

    /// Reports an answer held for its first bytes when the body ended before any came: an empty file.
    func reportHeldResponse() {
        guard let held = heldReport else { return }
        heldReport = nil
        reportResponse(status: held.status, restartReason: held.restartReason)
    }

    /// The part file reserved for the answer before its first bytes showed a playlist: empty, and no longer needed.
    private func releasePart() {
        guard let writer, let fileName else { return }
        unlinkat(directory.fd, PartialFilePath.partName(for: fileName), 0)
        partsInUse.paths.remove(writer.path)
        writer.close()
        self.writer = nil
        self.fileName = nil
    }
}

import Glibc
import HaulCore

/// Each closing step on disk, the same for every kind of task. Runs on the disk worker's queue.
extension ClosingWork {
    func carryOut(_ step: ClosingStep, on files: inout ClosingFiles) -> ClosingFinding {
        switch step {
        case .syncParts:
            var failure: DownloadError?
            for part in parts {
                do throws(DownloadError) { try part.writer.sync() } catch { failure = error }
            }
            return failure.map { .failed($0) } ?? .done
        case .emptyParts:
            // Emptied as far as it goes: the record says nothing is kept, and a resume trusts only what it records.
            for part in parts { try? part.writer.truncate(to: 0) }
            return .done
        case .verifySizes:
            return .sizes(parts.map { directory.regularFileSize($0.name) })
        case .assemble:
            guard let assembly else { return .done }
            // Subtitles go in when the output's container takes them: written beside the parts first.
            if StreamOutput.subtitleCodec(for: assembly.format) != nil, assembly.remuxes || assembly.muxesAudio {
                for sidecar in sidecars {
                    if let part = try? directory.writePart(sidecar.bytes, for: StreamFileName.subtitleName(of: assembly.target, language: sidecar.language), tag: tag) {
                        files.sidecarParts[sidecar.language] = part
                    }
                }
            }
            let made = assembly.run(
                parts: parts.map(\.name), subtitles: sidecars.compactMap { sidecar in
                    files.sidecarParts[sidecar.language].map { ($0, Self.subtitleLanguageTag(sidecar.language)) }
                }, in: directory, tag: tag)
            if let output = made.output {
                files.output = output
                files.assembled = true
            }
            if let note = made.note { files.add(note: note) }
            return .done
        case .verifyChecksum:
            guard let output = files.output else { return .failed(.inconsistentTransfer("completed without a file")) }
            do throws(DownloadError) {
                return .digest(try FileDigest.sha256Hex(path: directory.fullPath(output)))
            } catch {
                return .failed(error)
            }
        case .discard:
            for part in files.sidecarParts.values { unlinkat(directory.fd, part, 0) }
            if files.assembled, let output = files.output { unlinkat(directory.fd, output, 0) }
            for part in parts { unlinkat(directory.fd, part.name, 0) }
            return .done
        case .publish:
            do throws(DownloadError) {
                try publish(&files)
                return .done
            } catch {
                if files.assembled, let output = files.output { unlinkat(directory.fd, output, 0) }
                return .failed(error)
            }
        case .syncDirectory:
            return fsync(directory.fd) == 0 ? .done : .failed(FileWriter.error(call: "fsync", path: directory.path, errno: errno))
        case .record:
            return .done
        }
    }

    /// Moves the output to a free final name (never overwriting), then any audio saved beside it; an assembled
    /// output stands for the part files, which go once it is in place.
    private func publish(_ files: inout ClosingFiles) throws(DownloadError) {
        guard let output = files.output, let fileName else { throw .inconsistentTransfer("completed without a file") }
        let target = files.assembled ? (assembly?.target ?? fileName) : fileName
        let final = try directory.publish(output, as: target, replacing: replacing, tag: tag)
        files.published = [final]
        publishSidecars(beside: final, &files)
        if files.assembled {
            for part in parts { unlinkat(directory.fd, part.name, 0) }
            return
        }
        for part in parts.dropFirst() {
            guard let container = part.audioContainer else { continue }
            let audio = try directory.publish(
                part.name, as: StreamFileName.audioName(of: final, container: container), replacing: replacing, tag: tag)
            files.published.append(audio)
            files.add(note: "the audio is saved beside the video as \(audio)")
        }
    }

    /// Writes each sidecar beside `final` under a free name (never overwriting another file); one that cannot be
    /// written is said in the notes, and the output stands.
    private func publishSidecars(beside final: String, _ files: inout ClosingFiles) {
        for sidecar in sidecars {
            let name = StreamFileName.subtitleName(of: final, language: sidecar.language)
            do throws(DownloadError) {
                let published: String
                if let part = files.sidecarParts[sidecar.language] {
                    published = try directory.publish(part, as: name, replacing: replacing, tag: tag)
                } else {
                    published = try directory.writeBeside(sidecar.bytes, as: name, replacing: replacing, tag: tag)
                }
                files.published.append(published)
                files.add(note: "subtitles '\(sidecar.language)' are saved beside the video as \(published)")
            } catch {
                files.add(note: "subtitles '\(sidecar.language)' could not be saved: \(error)")
            }
        }
    }

    /// A language as a container's tag wants it: the rendition's language kept to letters (`eng`), else `und`.
    static func subtitleLanguageTag(_ language: String) -> String {
        let letters = String(language.filter { $0.isASCII && $0.isLetter }.prefix(8))
        return letters.isEmpty ? "und" : letters
    }
}

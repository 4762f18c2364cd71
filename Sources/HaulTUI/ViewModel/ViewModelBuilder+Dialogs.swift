import Foundation
import HaulCore

/// The boxes drawn over the list: help from the key table, a task's details, the remove question.
extension ViewModelBuilder {
    func overlay(_ state: UIState, selected: QueueSnapshot.Row?, in rows: [QueueSnapshot.Row], now: Date) -> ListViewModel.Overlay? {
        switch state.mode {
        case .list, .prompt, .filter: return nil
        case let .confirmBulk(question):
            return .confirm(confirmBulk(question))
        case .help:
            var help = help()
            help.scroll = state.helpScroll
            return .help(help)
        case .details:
            return selected.map {
                var details = details($0, now: now)
                details.scroll = state.detailsScroll
                return .details(details)
            }
        case let .confirmRemove(id):
            let row = selected?.id == id ? selected : rows.first { $0.id == id }
            return row.map { .confirm(confirm($0)) }
        case let .confirmLink(id):
            let row = selected?.id == id ? selected : rows.first { $0.id == id }
            return row.map { .confirm(confirmLink($0)) }
        }
    }

    func help() -> HelpViewModel {
        let sections = KeyBinding.helpSections.map { section in
            HelpViewModel.Section(title: section.title, entries: section.entries.map { HelpViewModel.Entry(keys: $0.keys, text: $0.text) })
        }
        return HelpViewModel(title: "haul — keys", sections: sections, closingHint: "any key closes this help")
    }

    /// The proxy (credentials removed), cookies and login files a task was added with.
    static func accessFields(_ task: DownloadTask) -> [DetailsViewModel.Field] {
        var fields: [DetailsViewModel.Field] = []
        let options = task.requestOptions
        if let proxies = options.proxies?.redacted {
            let proxy = proxies.proxy(for: task.url).map { "via \($0)" } ?? "none (direct)"
            let bypass = proxies.noProxy.map { ", except \($0)" } ?? ""
            fields.append(.init(label: "Proxy", value: proxy + bypass))
        }
        var files: [String] = []
        if let cookies = options.cookiesFile { files.append("cookies from \(cookies)") }
        if !task.cookies.isEmpty { files.append("\(task.cookies.count) set by the server") }
        if let netrc = options.netrcFile { files.append("login from \(netrc)") }
        if !files.isEmpty { fields.append(.init(label: "Cookies, login", value: files.joined(separator: " · "))) }
        // What the settings file decided when the task was added (DESIGN §10).
        if let rule = options.rule { fields.append(.init(label: "Rule", value: rule)) }
        if let category = options.category { fields.append(.init(label: "Category", value: category)) }
        return fields
    }

    func details(_ row: QueueSnapshot.Row, now: Date) -> DetailsViewModel {
        let task = row.task
        typealias Field = DetailsViewModel.Field
        var fields = [Field(label: "URL", value: URLValidation.redacted(task.url))]
        if let change = task.linkChange {
            let text = switch change {
            case .sameFile: "new, unconfirmed: its first answer must serve the same file as the kept bytes"
            case .keepBytes: "new, the kept bytes vouched for (--keep-bytes): the same length is checked"
            case .restart: "new: the download starts over from it"
            }
            fields.append(Field(label: "Link", value: text))
        }
        // Mirrors, and why a transfer stopped using a link (DESIGN §8).
        if let reason = task.dropReason(of: task.url) { fields.append(Field(label: "URL dropped", value: reason)) }
        for mirror in task.mirrors {
            let shown = URLValidation.redacted(mirror)
            fields.append(Field(label: "Mirror", value: task.dropReason(of: mirror).map { "\(shown) — dropped: \($0)" } ?? shown))
        }
        if !task.linkHistory.isEmpty {
            fields.append(Field(label: "Earlier links", value: task.linkHistory.map(URLValidation.redacted).joined(separator: " · ")))
        }
        fields += Self.accessFields(task)
        let path: String
        if let name = task.fileName {
            path = task.state == .completed
                ? PathJoin.join(task.directory, name)
                : PartialFilePath.path(directory: task.directory, fileName: name)
        } else if let requested = task.requestedName {
            path = PartialFilePath.path(directory: task.directory, fileName: requested) + " (the name asked for)"
        } else {
            path = task.directory + " (name decided at the first response)"
        }
        fields.append(Field(label: "Path", value: path))
        var stateText = task.state.rawValue
        if let retryAt = row.retryAt { stateText += ", retry in " + DurationFormat.eta(retryAt.timeIntervalSince(now)) }
        fields.append(Field(label: "State", value: stateText))
        var size = Self.sizeDetail(done: max(0, row.bytesReceived), total: task.totalBytes, state: task.state)
        if task.stream?.isRecording == true, task.state != .completed {
            size = ByteCountFormat.size(max(0, row.bytesReceived)) + " recorded so far (a live stream has no total)"
        } else if task.stream?.isEstimate == true, task.totalBytes != nil, task.state != .completed { size += ", the total estimated" }
        fields.append(Field(label: "Size", value: size))
        if let stream = task.stream {
            fields.append(Field(label: "Stream", value: StreamSummary.text(stream)))
            for (label, kind) in [("Audio", "audio"), ("Subtitles", "subtitles")] {
                if let text = StreamRenditionInfo.text(stream.renditions ?? [], kind: kind) { fields.append(Field(label: label, value: text)) }
            }
            if let note = stream.note { fields.append(Field(label: "Stream note", value: note)) }
        }
        if let page = task.page {
            // The page's link without credentials; a page kept as a file says why.
            fields.append(Field(label: "Page", value: URLValidation.redacted(page.url)))
            if let note = page.note { fields.append(Field(label: "Page note", value: note)) }
        }
        if let group = task.group { fields.append(Field(label: "Group", value: group)) }
        if task.state == .running {
            fields.append(Field(label: "Speed", value: "\(ByteCountFormat.rate(row.speed)), \(DurationFormat.eta(row.eta)) left"))
            fields.append(Field(label: "Connections", value: String(row.connections)))
        }
        if let segments = Self.segmentsField(task: task, live: task.state == .running ? row.segmentMap : nil) {
            fields.append(segments)
        }
        var validators: [String] = []
        if let etag = task.validators.etag { validators.append("ETag \(etag)") }
        if let modified = task.validators.lastModified { validators.append("Last-Modified \(modified)") }
        // A stream is matched by its playlist's segments, not by validators.
        if task.stream == nil {
            fields.append(Field(label: "Validators", value: validators.isEmpty ? "none yet" : validators.joined(separator: " · ")))
        }
        fields.append(Field(label: "Attempts", value: Self.attemptsDetail(failedInARow: task.attempts, state: task.state)))
        if let checksum = task.checksum { fields.append(Field(label: "Checksum", value: checksum.description)) }
        if !task.headers.isEmpty {
            // Header names only: values often carry tokens.
            let names = task.headers.map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? $0 }
            fields.append(Field(label: "Headers", value: names.joined(separator: ", ")))
        }
        fields.append(Field(label: "Last error", value: task.lastError ?? "none"))
        fields.append(Field(label: "Added", value: Self.timestamp(task.createdAt)))
        if let finished = task.finishedAt { fields.append(Field(label: "Finished", value: Self.timestamp(finished))) }
        fields.append(Field(label: "Task id", value: task.id.description))
        return DetailsViewModel(title: task.displayName, fields: fields, closingHint: "Esc closes")
    }

    func confirm(_ row: QueueSnapshot.Row) -> ConfirmViewModel {
        let task = row.task
        if task.state == .completed {
            return ConfirmViewModel(
                title: "Remove from the list?",
                lines: [task.displayName, "The downloaded file stays where it is."], warning: nil,
                choices: [FooterItem(keys: "y", label: "remove", essential: true), FooterItem(keys: "n", label: "cancel", essential: true)])
        }
        let partial = row.bytesReceived > 0 ? "Its partial file holds \(ByteCountFormat.size(row.bytesReceived))." : "It has no data yet."
        return ConfirmViewModel(
            title: "Remove this download?",
            lines: [task.displayName, partial],
            warning: "\(RemoveKeys.deleteFile) also deletes the partial file; that cannot be undone.",
            choices: Self.removeChoices(deletes: true))
    }

    /// `y remove, keep partial file  f remove + delete partial file  n cancel`.
    static func removeChoices(deletes: Bool) -> [FooterItem] {
        var choices = [FooterItem(keys: String(RemoveKeys.keep), label: deletes ? "remove, keep partial file" : "remove", essential: true)]
        if deletes { choices.append(FooterItem(keys: String(RemoveKeys.deleteFile), label: "remove + delete partial file")) }
        choices.append(FooterItem(keys: String(RemoveKeys.cancel), label: "cancel", essential: true))
        return choices
    }

    /// The question before removing the marked tasks or clearing the finished rows: it names how many.
    func confirmBulk(_ question: BulkQuestion) -> ConfirmViewModel {
        switch question.kind {
        case .clearFinished:
            return ConfirmViewModel(
                title: "Clear \(question.subject)?", lines: ["They leave the list; the downloaded files stay where they are."],
                warning: nil, choices: Self.removeChoices(deletes: false))
        case .removeMarked, .removeGroup:
            return ConfirmViewModel(
                title: "Remove \(question.subject)?",
                lines: ["Finished files stay where they are."],
                warning: question.hasPartialFiles ? "\(RemoveKeys.deleteFile) also deletes their partial files; that cannot be undone." : nil,
                choices: Self.removeChoices(deletes: question.hasPartialFiles))
        }
    }

    func confirmLink(_ row: QueueSnapshot.Row) -> ConfirmViewModel {
        let task = row.task
        return ConfirmViewModel(
            title: "Keep the bytes with the new link?",
            lines: [task.displayName, task.lastError ?? "The new link has not proved it serves the same file.",
                    "Keep them only if it is the same file: nothing checks the bytes already fetched."],
            warning: "r drops the \(ByteCountFormat.size(task.bytesDone)) already fetched.",
            choices: [
                FooterItem(keys: "k", label: "keep the bytes", essential: true), FooterItem(keys: "r", label: "start over"),
                FooterItem(keys: "n", label: "cancel", essential: true),
            ])
    }

    /// `300.0 MiB of 1.0 GiB (29.2%)`; a finished file by its size alone (`0 B, an empty file` for none).
    static func sizeDetail(done: Int64, total: Int64?, state: TaskState) -> String {
        if state == .completed {
            let size = total ?? done
            return size == 0 ? "0 B, an empty file" : ByteCountFormat.size(size)
        }
        guard let total else { return "\(ByteCountFormat.size(done)) of an unknown size" }
        if total == 0 { return "0 B, an empty file" }
        return "\(ByteCountFormat.size(done)) of \(ByteCountFormat.size(total)) (\(PercentFormat.text(done: done, total: total, isComplete: false)))"
    }

    /// The segment map: live while the download runs (done, in flight, waiting), else the saved layout,
    /// which is what survives a crash. Nil for a file fetched as one stream.
    static func segmentsField(task: DownloadTask, live: SegmentMap?) -> DetailsViewModel.Field? {
        if let stream = task.stream {
            // A stream's map counts media segments, not bytes.
            let count = Int64(stream.segmentCount)
            let map = live ?? SegmentMap(total: count, spans: [
                .init(range: 0..<Int64(stream.segmentsDone), cell: .done), .init(range: Int64(stream.segmentsDone)..<count, cell: .waiting),
            ])
            let inFlight = map.spans.filter { $0.cell == .inFlight }.reduce(0) { $0 + $1.range.count }
            let caption = "\(stream.segmentsDone)/\(stream.segmentCount) media segments" + (inFlight > 0 ? ", \(inFlight) in flight" : "")
            return DetailsViewModel.Field(label: "Segments", value: caption, map: map)
        }
        if let live {
            let inFlight = live.spans.filter { $0.cell == .inFlight }.count
            let waiting = live.spans.filter { $0.cell == .waiting }.reduce(Int64(0)) { $0 + Int64($1.range.count) }
            var caption = "\(inFlight) range\(inFlight == 1 ? "" : "s") in flight"
            if waiting > 0 { caption += ", \(ByteCountFormat.size(waiting)) waiting" }
            return DetailsViewModel.Field(label: "Segments", value: caption, map: live)
        }
        guard let total = task.totalBytes, !task.segments.isEmpty,
              let ledger = SegmentLedger(total: total, segments: task.segments) else { return nil }
        let count = task.segments.count
        return DetailsViewModel.Field(label: "Segments", value: "saved layout, \(count) range\(count == 1 ? "" : "s")", map: ledger.map)
    }

    /// The task counts only the attempts that failed in a row; the one that completed, or the one running
    /// now, is an attempt too.
    static func attemptsDetail(failedInARow failed: Int, state: TaskState) -> String {
        switch state {
        case .completed: return String(failed + 1)
        case .running: return failed == 0 ? "1, running" : "\(failed + 1), running (\(failed) failed before)"
        case .waiting, .paused, .failed: return failed == 0 ? "none failed" : "\(failed) failed"
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}

/// Video pages (DESIGN §11): a link that answered a web page waits while yt-dlp is asked what it holds (off this actor,
/// `PageExtractor`); its chosen video becomes the task's link, headers and name, and a playlist page's other videos are
/// added beside it as one group. A video found on a page whose link expires asks yt-dlp again for the same format, as
/// `--on-link-expired` would give a link (the same wait, the same once-per-link rule).
extension DownloadController {
    /// Whether `error` of `task` has yt-dlp asked about the task's page.
    func asksExtractor(_ task: DownloadTask, _ error: DownloadError) -> Bool {
        guard configuration.pageExtraction.extractor != nil else { return false }
        if case .webPage = error { return task.page == nil }
        guard task.page?.formatID != nil else { return false }
        return LinkRenewal.applies(to: task, error: error, lastGiven: runtime[task.id].linkGiven)
    }

    /// Runs yt-dlp for `task`'s page; the task waits, held out of the slots, until `extracted` has its answer.
    func askExtractor(_ task: DownloadTask, _ error: DownloadError) {
        guard let extractor = configuration.pageExtraction.extractor else { return }
        runtime[task.id].renewing = error
        let page = task.page?.url ?? task.url
        let formatID = task.page?.formatID
        let proxies = task.requestOptions.proxies
        Task { [weak self] in
            let answer = await extractor.extract(page, proxies: proxies)
            await self?.extracted(task.id, page: page, formatID: formatID, answer)
        }
    }

    private func extracted(_ id: TaskID, page: String, formatID: String?, _ answer: Result<PageInfo, PageExtractor.Failure>) {
        guard let asked = runtime[id].renewing else { return }
        runtime[id].renewing = nil
        defer {
            fillSlots()
            publishSoon()
            stopIfIdle()
        }
        // Paused or removed meanwhile: the user's word stands; a resume asks again.
        guard let task = tasks[id], task.state == .waiting else { return }
        // A link that expired says so first: what yt-dlp answered then is why no new one came.
        let expired = formatID == nil ? "" : "\(asked) — asked again: "
        let info: PageInfo
        switch answer {
        case let .success(found): info = found
        case let .failure(failure): return failPage(task, expired + failure.description)
        }
        if let formatID {
            guard let link = PageChoice.refreshed(info, formatID: formatID) else {
                return failPage(task, expired + "the page no longer lists format \(formatID.escapingAllControlCharacters)")
            }
            if case let .rejected(message) = perform(.setURL(id, url: link, change: .sameFile)) { return failPage(task, message) }
            if let renewed = tasks[id] { runtime[id].linkGiven = LinkRenewal.Given(link: renewed.url, bytes: renewed.bytesDone) }
            return
        }
        switch PageChoice.select(info, choice: task.requestOptions.variantChoice) {
        case let .failure(failure): failPage(task, failure.description)
        case let .success(selection): adopt(selection, from: page, into: task)
        }
    }

    /// The task takes the page's first video; the page's other videos are added after it, in the same group.
    private func adopt(_ selection: PageSelection, from page: String, into task: DownloadTask) {
        guard let first = selection.media.first else { return }
        var updated = task
        updated.linkHistory.append(URLValidation.redacted(task.url))
        updated.url = first.url
        updated.headers = PageHeaders.merged(task.headers, page: first.headers)
        updated.page = WebPage(url: page, formatID: first.formatID, stem: first.stem)
        updated.requestedName = task.requestedName ?? first.fileName
        updated.group = selection.group
        updated.kind = nil
        updated.attempts = 0
        updated.lastError = nil
        save(updated)
        let others = selection.media.dropFirst().map { media in
            var new = NewTask(
                url: media.url, directory: task.directory, requestedName: media.fileName,
                headers: PageHeaders.merged(task.headers, page: media.headers))
            new.requestOptions = task.requestOptions
            new.page = WebPage(url: page, formatID: media.formatID, stem: media.stem)
            new.group = selection.group
            return new
        }
        if !others.isEmpty { perform(.add(Array(others))) }
    }

    /// yt-dlp gave no video for `task`'s page: it fails with why, touching no other task.
    private func failPage(_ task: DownloadTask, _ reason: String) {
        let error = DownloadError.pageExtraction(reason)
        guard let failed = TaskLifecycle.linkNotRenewed(task, error: error) else { return }
        save(failed)
        summary.outcomes[task.id] = .failed
        announce(.failed(failed, error: error))
    }
}

/// `--on-link-expired` (DESIGN §8): a task whose link expired asks the command for a new link, which is applied as
/// `set-url` applies one. Meanwhile the task waits, held out of the slots, and is not failed: hooks, events and
/// notifications hear of a failure only when no usable link came. A headless run waits for it before it ends.
extension DownloadController {
    /// Whether the failure `error` of `task` asks the command for a new link (`LinkRenewal.applies`).
    /// A web page's answer, or a video found on a page whose link expired, asks yt-dlp instead (`asksExtractor`).
    func renewsLink(_ task: DownloadTask, _ error: DownloadError) -> Bool {
        if asksExtractor(task, error) { return true }
        return configuration.linkRenewal != nil && LinkRenewal.applies(to: task, error: error, lastGiven: runtime[task.id].linkGiven)
    }

    /// Runs the command for `task`, which waits for its answer (`TaskLifecycle.Effect.awaitingLink`).
    func renewLink(_ task: DownloadTask, _ error: DownloadError) {
        if asksExtractor(task, error) { return askExtractor(task, error) }
        guard let renewal = configuration.linkRenewal else { return }
        runtime[task.id].renewing = error
        Task { [weak self] in
            let result = await renewal.newLink(for: task)
            await self?.renewed(task.id, result)
        }
    }

    private func renewed(_ id: TaskID, _ result: Result<String, LinkRenewal.RenewalFailure>) {
        guard let error = runtime[id].renewing else { return }
        // Still held while the link is set: the slots must not start it with the expired one.
        var problem: String?
        switch result {
        case let .success(url):
            let expired = tasks[id]?.url
            if case let .rejected(message) = perform(.setURL(id, url: url, change: .sameFile)) {
                problem = "--on-link-expired gave #\(id) no usable link: \(message)"
            } else if let task = tasks[id] {
                if task.url == expired { problem = "--on-link-expired gave #\(id) the link that expired" }
                runtime[id].linkGiven = LinkRenewal.Given(link: task.url, bytes: task.bytesDone)
            }
        case let .failure(failure):
            problem = "--on-link-expired for #\(id): \(failure)"
        }
        runtime[id].renewing = nil
        if let problem {
            announce(.warning(problem))
            if let task = tasks[id], let failed = TaskLifecycle.linkNotRenewed(task, error: error) {
                save(failed)
                summary.outcomes[id] = .failed
                announce(.failed(failed, error: error))
            }
        }
        fillSlots()
        publishSoon()
        stopIfIdle()
    }
}

/// `--on-link-expired` (DESIGN §8): a task whose link expired with bytes kept asks the command for a new link,
/// which is applied as `set-url` applies one. A headless run waits for it before it ends.
extension DownloadController {
    func renewLinkIfExpired(_ task: DownloadTask, _ error: DownloadError) {
        guard let renewal = configuration.linkRenewal, LinkRenewal.applies(to: task, error: error) else { return }
        // Once per failed attempt; again only after the last link it gave fetched more bytes.
        if let last = runtime[task.id].renewedAtBytes, task.bytesDone <= last { return }
        runtime[task.id].renewedAtBytes = task.bytesDone
        runtime[task.id].renewing = true
        Task { [weak self] in
            let result = await renewal.newLink(for: task)
            await self?.renewed(task.id, result)
        }
    }

    private func renewed(_ id: TaskID, _ result: Result<String, LinkRenewal.RenewalFailure>) {
        runtime[id].renewing = false
        switch result {
        case let .success(url):
            if case let .rejected(message) = perform(.setURL(id, url: url, change: .sameFile)) {
                announce(.warning("--on-link-expired gave #\(id) no usable link: \(message)"))
                publishSoon()
            }
        case let .failure(failure):
            announce(.warning("--on-link-expired for #\(id): \(failure)"))
            publishSoon()
        }
        stopIfIdle()
    }
}

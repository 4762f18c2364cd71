import HaulCore

extension ActiveTransfer {
    /// The settings file's `[[category]]` by content type (DESIGN §10): for a task whose directory nothing else
    /// chose, the first answer's `Content-Type` may send the file to a category's directory. Called once,
    /// before the name is decided and the part file reserved, so nothing was written in the old directory.
    func chooseDirectory(contentType: String?) throws(DownloadError) {
        guard category == nil, let contentType, let choices = request.requestOptions.contentTypeDirectories,
              let choice = choices.first(where: { DownloadCategory.contentType(contentType, matches: $0.contentType) })
        else { return }
        directory = try DownloadDirectory(path: choice.directory, roots: request.options.confinementRoots)
        category = choice
    }
}

/// The live list's `a` prompt: URLs separated by spaces or line breaks (a paste of several lines).
extension TaskIntake {
    /// Tasks for the URLs in `text`, into the default directory; empty when `text` holds none.
    public func promptTasks(_ text: String) throws(IntakeError) -> [NewTask] {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).map(String.init)
        return try newTasks(words.map { TaskRequest(url: $0) })
    }
}

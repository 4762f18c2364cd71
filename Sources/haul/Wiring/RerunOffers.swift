import HaulCore
import HaulTransfer

/// `haul NEW-LINK` for a file an unfinished task already holds part of (DESIGN §8): the link expired and the user
/// runs haul again with a fresh one, no `-o`. Each link that names such a task's file (`RerunMatch`) is asked for a
/// few bytes, as `set-url` asks; when it serves the same file, the add gives the task that link (`NewTask.continues`)
/// instead of a second download beside it. An answer that cannot confirm it leaves the link a new task, as before.
enum RerunOffers {
    /// New links asked per command, at most (each check is a request, made side by side).
    static let linksAsked = 8

    /// `newTasks`, each marked with the task it continues; `known` is the queue as it stands.
    /// `options`: the timeouts and CA bundle each check asks with (`RunSettings.linkCheckOptions`).
    static func marked(_ newTasks: [NewTask], known: [DownloadTask], options: TransferOptions) async -> [NewTask] {
        // The tasks a link may continue, found once: each new link is matched against them alone.
        let holders = known.filter(RerunMatch.holdsPart)
        guard !holders.isEmpty else { return newTasks }
        let asked = newTasks.indices.lazy
            .map { index in (index, RerunMatch.candidates(for: newTasks[index], among: holders)) }
            .filter { !$0.1.isEmpty }
            .prefix(linksAsked)
        guard !asked.isEmpty else { return newTasks }
        let found = await withTaskGroup(of: (Int, TaskID?).self) { group in
            for (index, candidates) in asked {
                let link = newTasks[index].url
                group.addTask { (index, await firstServed(by: link, among: candidates, options: options)) }
            }
            var found: [Int: TaskID] = [:]
            for await (index, id) in group { if let id { found[index] = id } }
            return found
        }
        var marked = newTasks
        var taken: Set<TaskID> = []
        // Two links found to serve one task's file: the first continues it, the other is a task of its own.
        for index in found.keys.sorted() where taken.insert(found[index]!).inserted { marked[index].continues = found[index] }
        return marked
    }

    /// The first of `candidates` whose file `link` serves; a link that gives no usable answer is not asked again.
    private static func firstServed(
        by link: String, among candidates: [RerunMatch.Candidate], options: TransferOptions
    ) async -> TaskID? {
        for candidate in candidates {
            let answer = await LinkProbe.answer(candidate.task, newLink: link, change: .sameFile, options: options)
            if case .unconfirmed = answer.verdict { return nil }
            if answer.verdict == .sameFile, RerunMatch.names(candidate, serverName: answer.serverName) { return candidate.task.id }
        }
        return nil
    }
}

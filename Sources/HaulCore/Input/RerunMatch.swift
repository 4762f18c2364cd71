/// Which unfinished task a link added again without `-o` may belong to (DESIGN §8): signed links expire and the
/// user runs `haul NEW-LINK`, as aria2c users rerun with a fresh link and the control file continues. A task is a
/// candidate when it holds bytes of a file of known length in the same directory under the name the new link would
/// get: from its URL, or (for a task its server named) from the server's `Content-Disposition`, which only an
/// answer tells. Whether the new link serves that file is asked of the link itself (`NewLinkProbe`), never assumed.
public enum RerunMatch {
    /// Why a task is a candidate.
    public enum Basis: Sendable, Equatable {
        /// The new link's URL names the task's file.
        case urlName
        /// The task's name came from its server, not its URL: the new link's answer must name the same file.
        case serverName
    }

    public struct Candidate: Sendable, Equatable {
        public var task: DownloadTask
        public var basis: Basis

        public init(task: DownloadTask, basis: Basis) {
            self.task = task
            self.basis = basis
        }
    }

    /// Candidates asked per new link, at most: each costs a request.
    public static let perLink = 3

    /// Whether `new` may continue a task at all: it names no file itself (`-o`, `-c`), which its own rules decide.
    public static func mayContinue(_ new: NewTask) -> Bool { new.requestedName == nil && new.adoptedPart == nil }

    /// Whether a new link may continue `task`: an unfinished file with a name, a size and bytes a new link can keep.
    /// A queue with none needs no link looked at (`RerunOffers`).
    public static func holdsPart(_ task: DownloadTask) -> Bool {
        task.state.isUnfinished && task.kind?.keepsBytesAcrossLinks == true && (task.totalBytes ?? 0) > 0
            && (task.bytesDone > 0 || !task.segments.isEmpty) && task.fileName != nil
    }

    /// The tasks `new` may continue, those its URL names first, in queue order.
    public static func candidates(for new: NewTask, among tasks: [DownloadTask]) -> [Candidate] {
        guard mayContinue(new) else { return [] }
        let urlName = SafeFileName.fromURL(new.url)
        let held = tasks.filter { task in
            holdsPart(task) && task.directory == new.directory && task.url != new.url
        }.sorted { $0.position < $1.position }
        let named = held.filter { $0.fileName == urlName }.map { Candidate(task: $0, basis: .urlName) }
        if !named.isEmpty { return Array(named.prefix(perLink)) }
        let serverNamed = held.filter { $0.requestedName == nil && $0.fileName != SafeFileName.fromURL($0.url) }
        return serverNamed.prefix(perLink).map { Candidate(task: $0, basis: .serverName) }
    }

    /// Whether `candidate`, whose file the new link was found to serve, is the one it names: a task its server
    /// named must get the same name from the new link's answer (`serverName`, sanitised as a download's name is).
    public static func names(_ candidate: Candidate, serverName: String?) -> Bool {
        switch candidate.basis {
        case .urlName: return true
        case .serverName: return serverName != nil && serverName == candidate.task.fileName
        }
    }
}

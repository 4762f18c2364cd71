/// What asking a task's new link at once found (DESIGN §8), for a front end that gives tasks new links but cannot
/// ask a server itself (the RPC server): the check is made where libcurl is, the answer is all it needs.
public enum NewLinkAnswer: Sendable, Equatable {
    /// Nothing kept to check, the link serves the file the kept bytes belong to, or it cannot say now (the resume
    /// checks it then).
    case taken
    /// It serves another file; why, naming the validator or the lengths.
    case refused(String)
}

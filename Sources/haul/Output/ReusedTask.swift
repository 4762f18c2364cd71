import HaulCore

extension DownloadTask {
    /// What an add that named this task again says of it: a completed file that is still there is not fetched
    /// again; an unfinished task carries on.
    var reusedNote: String {
        guard state == .completed, let fileName else {
            return "#\(id) \(displayName) is already in the queue (\(state.rawValue)): continuing it"
        }
        return "#\(id) already downloaded: \(PathJoin.join(directory, fileName)) (haul remove \(id), then add it again, "
            + "to fetch it anew)"
    }
}

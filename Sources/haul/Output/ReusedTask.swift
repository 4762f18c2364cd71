import HaulCore

extension DownloadTask {
    /// What an add that named this task again says of it: a completed file that is still there is not fetched
    /// again; an unfinished task carries on, with the new link when the add gave it one (`continued`).
    /// `again`: the options the hint repeats so `haul remove` finds the same queue (`StateOptions.repeated`).
    func reusedNote(continued: Bool = false, again: String = "") -> String {
        if continued {
            return "#\(id) \(displayName) holds \(ByteCountFormat.size(bytesDone)) of the file the new link serves: "
                + "continuing it with that link"
        }
        guard state == .completed, let fileName else {
            return "#\(id) \(displayName) is already in the queue (\(state.rawValue)): continuing it"
        }
        return "#\(id) already downloaded: \(PathJoin.join(directory, fileName)) (`haul remove \(id)\(again)`, then add it again, "
            + "to fetch it anew)"
    }
}

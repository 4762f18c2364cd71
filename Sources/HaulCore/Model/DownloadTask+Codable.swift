import Foundation

/// The task's JSON: one key per field, as the compiler writes it for a struct of these fields (an optional field
/// left out when nil, every other one required).
extension DownloadTask {
    enum CodingKeys: String, CodingKey {
        case id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, validators, attempts
        case lastError, checksum, headers, createdAt, finishedAt, segments, linkChange, linkHistory, requestOptions
        case cookies, mirrors, droppedLinks, kind, stream, page, group
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(TaskID.self, forKey: .id), url: try container.decode(String.self, forKey: .url),
            directory: try container.decode(String.self, forKey: .directory),
            position: try container.decode(Int64.self, forKey: .position))
        requestedName = try container.decodeIfPresent(String.self, forKey: .requestedName)
        fileName = try container.decodeIfPresent(String.self, forKey: .fileName)
        state = try container.decode(TaskState.self, forKey: .state)
        bytesDone = try container.decode(Int64.self, forKey: .bytesDone)
        totalBytes = try container.decodeIfPresent(Int64.self, forKey: .totalBytes)
        validators = try container.decode(RemoteValidators.self, forKey: .validators)
        attempts = try container.decode(Int.self, forKey: .attempts)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        checksum = try container.decodeIfPresent(Checksum.self, forKey: .checksum)
        headers = try container.decode([String].self, forKey: .headers)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        finishedAt = try container.decodeIfPresent(Date.self, forKey: .finishedAt)
        segments = try container.decode([SegmentRecord].self, forKey: .segments)
        linkChange = try container.decodeIfPresent(LinkChange.self, forKey: .linkChange)
        linkHistory = try container.decode([String].self, forKey: .linkHistory)
        requestOptions = try container.decode(RequestOptions.self, forKey: .requestOptions)
        cookies = try container.decode([String].self, forKey: .cookies)
        mirrors = try container.decode([String].self, forKey: .mirrors)
        droppedLinks = try container.decode([DroppedLink].self, forKey: .droppedLinks)
        kind = try container.decodeIfPresent(TaskKind.self, forKey: .kind)
        stream = try container.decodeIfPresent(StreamInfo.self, forKey: .stream)
        page = try container.decodeIfPresent(WebPage.self, forKey: .page)
        group = try container.decodeIfPresent(String.self, forKey: .group)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(url, forKey: .url)
        try container.encode(directory, forKey: .directory)
        try container.encodeIfPresent(requestedName, forKey: .requestedName)
        try container.encodeIfPresent(fileName, forKey: .fileName)
        try container.encode(state, forKey: .state)
        try container.encode(position, forKey: .position)
        try container.encode(bytesDone, forKey: .bytesDone)
        try container.encodeIfPresent(totalBytes, forKey: .totalBytes)
        try container.encode(validators, forKey: .validators)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(checksum, forKey: .checksum)
        try container.encode(headers, forKey: .headers)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(finishedAt, forKey: .finishedAt)
        try container.encode(segments, forKey: .segments)
        try container.encodeIfPresent(linkChange, forKey: .linkChange)
        try container.encode(linkHistory, forKey: .linkHistory)
        try container.encode(requestOptions, forKey: .requestOptions)
        try container.encode(cookies, forKey: .cookies)
        try container.encode(mirrors, forKey: .mirrors)
        try container.encode(droppedLinks, forKey: .droppedLinks)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(stream, forKey: .stream)
        try container.encodeIfPresent(page, forKey: .page)
        try container.encodeIfPresent(group, forKey: .group)
    }
}

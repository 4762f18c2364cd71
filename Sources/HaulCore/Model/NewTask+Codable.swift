import Foundation

/// A new task's JSON (a `QueueCommand.add` sent to a running haul): one key per field, as the compiler writes it
/// for a struct of these fields (an optional field left out when nil, every other one required).
extension NewTask {
    enum CodingKeys: String, CodingKey {
        case url, directory, requestedName, checksum, headers, startsPaused, requestOptions, adoptedPart, mirrors, continues
        case position, page, group
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url),
            directory: try container.decode(String.self, forKey: .directory),
            requestedName: try container.decodeIfPresent(String.self, forKey: .requestedName),
            checksum: try container.decodeIfPresent(Checksum.self, forKey: .checksum),
            headers: try container.decode([String].self, forKey: .headers))
        startsPaused = try container.decodeIfPresent(Bool.self, forKey: .startsPaused)
        requestOptions = try container.decode(RequestOptions.self, forKey: .requestOptions)
        adoptedPart = try container.decodeIfPresent(AdoptedPart.self, forKey: .adoptedPart)
        mirrors = try container.decode([String].self, forKey: .mirrors)
        continues = try container.decodeIfPresent(TaskID.self, forKey: .continues)
        position = try container.decodeIfPresent(Int.self, forKey: .position)
        page = try container.decodeIfPresent(WebPage.self, forKey: .page)
        group = try container.decodeIfPresent(String.self, forKey: .group)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(directory, forKey: .directory)
        try container.encodeIfPresent(requestedName, forKey: .requestedName)
        try container.encodeIfPresent(checksum, forKey: .checksum)
        try container.encode(headers, forKey: .headers)
        try container.encodeIfPresent(startsPaused, forKey: .startsPaused)
        try container.encode(requestOptions, forKey: .requestOptions)
        try container.encodeIfPresent(adoptedPart, forKey: .adoptedPart)
        try container.encode(mirrors, forKey: .mirrors)
        try container.encodeIfPresent(continues, forKey: .continues)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encodeIfPresent(page, forKey: .page)
        try container.encodeIfPresent(group, forKey: .group)
    }
}

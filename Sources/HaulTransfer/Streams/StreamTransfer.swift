import Glibc
import HaulCore

/// One running HLS download on the transfer thread (DESIGN §9): it fetches the playlist (and the chosen
/// variant's, and its separate audio rendition's), then segments over up to `-s` connections within a window
/// ahead of the first missing one of each track, decrypts them and appends them in order to the track's part
/// file. Durable per segment: a checkpoint records the segments appended and the part files' lengths after them
/// once a sync covers them.
///
/// Confined to the transfer thread. libcurl calls back into it for each of its fetches' handles
/// (`StreamTransfer+Engine`); the engine keeps it alive in its table until those handles have left the multi handle.
final class StreamTransfer {
    static let keyLimit = 1 << 10
    static let initLimit = 16 << 20
    static let segmentLimit = 128 << 20

    let request: TransferRequest
    let attempt: Int
    let directory: DownloadDirectory
    let budget: BandwidthBudget
    let hosts: HostConnections
    let cookies: CookieJar
    let netrc: NetrcFile?
    let partsInUse: PartRegistry
    let emit: (TransferEvent) -> Void
    var bookkeeping = TransferBookkeeping()

    var phase = TransferPhase.awaitingResponse
    /// The most bytes a segment of unknown length had when it was stopped to keep the memory bound: at least its size.
    var shedSize = 0
    /// The task's playlist came from a public address: its links may not lead to this machine or a private network
    /// (`AddressReach`), so a hostile playlist cannot make haul fetch its own RPC or a router's page into the video.
    var publicOrigin = false

    /// The video file's name (the audio part's follows from it).
    var fileName: String?
    /// The variant's track, then its audio rendition's; empty until the media playlists are known.
    var tracks: [StreamTrack] = []
    /// What the task stores, apart from the tracks' figures.
    var info: StreamInfo?
    /// The variant a master playlist resolved to, and its bandwidth for a first estimate of the size.
    var chosen: Variant?
    var bandwidth: Int64?
    /// The variant's separate audio rendition, and the media playlists known so far.
    var audio: Rendition?
    var videoMedia: MediaPlaylist?
    var audioMedia: MediaPlaylist?
    /// The file the stream becomes (its container, a remux), decided once the media playlists are known.
    var output: StreamOutput?
    /// Keys and init sections fetched, by URI.
    var keys: [String: [UInt8]] = [:]
    var inits: [InitSection: [UInt8]] = [:]
    /// Connections allowed (`-s`, changed live).
    var targetConnections: Int
    /// A segment's answer said its size inside a callback: more segments may fit in memory (`advance`).
    var sizeAnnounced = false
    /// What the task's first answer was: an HLS playlist, or a DASH manifest (`StreamTransfer+DASH`).
    var manifestKind = TaskKind.stream
    /// A DASH manifest waiting for the `sidx` boxes it needs, and those fetched so far.
    var dashManifest: (bytes: [UInt8], url: String)?
    /// Where the DASH manifest came from: a live one is fetched again there for the segments added since.
    var dashURL: String?
    var dashIndexes: [DASHIndexRequest: [UInt8]] = [:]

    /// The subtitle renditions asked for (`--stream-subs`), and notes about them made before the stream started.
    var subtitles: [SubtitleTrack] = []
    var pendingNotes: [String] = []
    /// The renditions the master playlist lists for the chosen variant, as the task shows them.
    var renditions: [StreamRenditionInfo]?

    private(set) var fetches: [StreamFetch] = []
    private var pending: [StreamFetch] = []

    /// `playlist`: the body of the task's link, already fetched by the transfer that found it is a playlist.
    init(
        request: TransferRequest, attempt: Int, partsInUse: PartRegistry, budget: BandwidthBudget,
        hosts: HostConnections, playlist: FetchedPlaylist?, emit: @escaping (TransferEvent) -> Void
    ) throws(DownloadError) {
        self.request = request
        self.attempt = attempt
        self.partsInUse = partsInUse
        self.budget = budget
        self.hosts = hosts
        self.emit = emit
        targetConnections = request.options.split
        cookies = try CookieJar(options: request.requestOptions, stored: request.cookies)
        netrc = try request.readNetrc()
        directory = try DownloadDirectory(path: request.directory, roots: request.options.confinementRoots)
        if let published = publishedEarlier {
            // A run that died between publishing the file and recording it: nothing to fetch.
            fileName = published
            phase = .publishedEarlier
            return
        }
        if let playlist {
            publicOrigin = playlist.origin == .publicNetwork
            received(playlist: playlist.bytes, from: playlist.url, purpose: .playlist(depth: 0))
        } else {
            add(StreamFetch(purpose: .playlist(depth: 0), url: request.url, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
        }
    }

    /// Bytes of fetched segments held in memory before no new fetch starts.
    var memoryBound: Int { request.options.streamMemoryBound }

    /// Bytes in the part files (appended, not necessarily synced).
    var position: Int64 { tracks.reduce(0) { $0 + $1.position } }

    /// The finished file of a stream whose every segment was recorded and whose part files are gone: what a run
    /// that died between publishing and recording leaves.
    /// A published file carrying the task's mark settles it even where part files were left (a crash after a mux
    /// was published and before its inputs were removed): they are removed now.
    private var publishedEarlier: String? {
        guard let stored = request.stream, stored.segmentsDone == stored.segmentCount, stored.isRecording == false,
              let name = request.fileName
        else { return nil }
        // Where the closing work publishes: the remuxed or muxed name (the name itself when the container is its own).
        let format = StreamOutput.format(
            requestedName: request.requestedName, remux: request.requestOptions.streamRemux, container: stored.container)
        let candidates = [StreamFileName.remuxed(name, container: format), name]
        let parts = [name, StreamFileName.audioPart(of: name)].map(PartialFilePath.partName(for:))
        if let ours = candidates.first(where: { directory.carries(PartOwnerTag(request), $0) }) {
            for part in parts { unlinkat(directory.fd, part, 0) }
            return ours
        }
        directory.dropPartLinkedToFinal(name)
        guard directory.regularFileSize(parts[0]) == nil else { return nil }
        return candidates.first { directory.regularFileSize($0) != nil }
    }

    // MARK: - Fetches

    func add(_ fetch: StreamFetch) {
        hosts.opened(fetch.host)
        fetches.append(fetch)
        pending.append(fetch)
    }

    /// Fetches made since the last call, for the engine to set up and add to the multi handle.
    func takeNewFetches() -> [StreamFetch] {
        defer { pending = [] }
        return pending
    }


    /// Forgets a fetch that left the network.
    func forget(_ fetch: StreamFetch) {
        fetches.removeAll { $0 === fetch }
        hosts.closed(fetch.host)
        budget.drop(fetch)
    }

    /// Stops every fetch; returns their handles for the engine to remove.
    func closeAll() -> [CurlEasy] {
        for fetch in fetches {
            budget.drop(fetch)
            hosts.closed(fetch.host)
        }
        defer { fetches = [] }
        return fetches.map(\.easy)
    }

    func fail(_ error: DownloadError) {
        if case .failed = phase { return }
        phase = .failed(error)
    }

    // MARK: - Playlists

    /// A playlist arrived: a master resolves to its variant's media playlist (and its audio rendition's); the
    /// media playlists known, the segments start.
    func received(playlist bytes: [UInt8], from url: String, purpose: StreamFetch.Purpose) {
        if purpose == .playlist(depth: 0), StreamManifest.kind(prefix: bytes, contentType: nil) == .dash {
            return received(manifest: bytes, from: url)
        }
        let playlist: Playlist
        do {
            playlist = try PlaylistParser.parse(bytes, url: url)
        } catch {
            return fail(.playlist(error))
        }
        switch (playlist, purpose) {
        case let (.master(master), .playlist(depth: 0)):
            guard let variant = pick(from: master) else { return fail(.playlist(PlaylistError(line: nil, .empty))) }
            chosen = variant
            bandwidth = variant.averageBandwidth ?? variant.bandwidth
            audio = master.audio(for: variant, languages: request.requestOptions.streamAudio ?? [])
            renditions = StreamRenditionInfo.list(master, variant: variant, audio: audio, subtitles: request.requestOptions.subtitleChoice)
            fetchSubtitles(of: variant, in: master)
            add(StreamFetch(purpose: .playlist(depth: 1), url: variant.uri, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
            if let uri = audio?.uri {
                add(StreamFetch(purpose: .audioPlaylist, url: uri, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
            }
        case (.master, _):
            fail(.playlist(PlaylistError(line: nil, .nestedMaster)))
        case let (.media(media), .audioPlaylist):
            audioMedia = media
        case let (.media(media), _):
            videoMedia = media
        }
        if let videoMedia, audio == nil || audioMedia != nil, tracks.isEmpty, phase == .awaitingResponse {
            start(video: videoMedia, audio: audioMedia)
        }
    }

    /// The variant of a resumed stream (same bandwidth and resolution) if the master still lists it, else the
    /// task's choice.
    func pick(from master: MasterPlaylist) -> Variant? {
        if let key = request.stream?.variantKey, let same = master.variants.first(where: { Self.key(of: $0) == key }) {
            return same
        }
        return request.requestOptions.variantChoice.pick(from: master.variants)
    }

    static func key(of variant: Variant) -> String { "\(variant.bandwidth)/\(variant.resolution?.description ?? "-")" }

    static func describe(_ variant: Variant) -> String {
        var parts: [String] = []
        if let resolution = variant.resolution { parts.append(resolution.description) }
        parts.append(ByteCountFormat.bitRate(variant.bandwidth))
        if let codecs = variant.codecs { parts.append(codecs) }
        return parts.joined(separator: ", ")
    }
}

import HaulCore

/// One running HLS download on the transfer thread (DESIGN §9): it fetches the playlist (and the chosen
/// variant's), then segments over up to `-s` connections within a window ahead of the first missing one,
/// decrypts them and appends them in order to the part file. Durable per segment: a checkpoint records the
/// segments appended and the part file's length after them once a sync covers them.
///
/// Confined to the transfer thread. The engine keeps it (and through it every fetch libcurl calls back into)
/// alive in its table until its handles have left the multi handle.
final class StreamTransfer {
    static let keyLimit = 1 << 10
    static let initLimit = 16 << 20
    static let segmentLimit = 128 << 20
    /// Bytes of fetched segments held in memory before no new fetch starts.
    static let memoryBound = 64 << 20

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
    var fileName: String?
    var writer: FileWriter?
    /// The part file's length: every appended segment.
    var position: Int64 = 0
    /// Bytes known to be synced.
    var durable: Int64 = 0
    var epoch = 0
    /// The media playlist, once resolved; `info` is what the task stores of it.
    var media: MediaPlaylist?
    var info: StreamInfo?
    /// The variant a master playlist resolved to, and its bandwidth for a first estimate of the size.
    var chosen: Variant?
    var bandwidth: Int64?
    /// An audio rendition the variant names, which is not fetched (said in the details pane).
    var audioNote: String?
    var window: StreamWindow?
    /// Keys and init sections fetched, by URI.
    var keys: [String: [UInt8]] = [:]
    var inits: [InitSection: [UInt8]] = [:]
    /// Clear bytes of fetched segments waiting for their turn.
    var held: [Int: [UInt8]] = [:]
    /// Failures so far of each segment, and when a failed one may be asked again.
    var failures: [Int: Int] = [:]
    var retryAt: [Int: ContinuousClock.Instant] = [:]
    /// Seconds of media appended.
    var doneSeconds: Double = 0
    /// (segments appended, part length, seconds of media) after each append since the last checkpoint.
    var appendLog: [(segments: Int, bytes: Int64, seconds: Double)] = []
    /// Connections allowed (`-s`, changed live).
    var targetConnections: Int

    private(set) var fetches: [StreamFetch] = []
    private var pending: [StreamFetch] = []

    /// `playlist`: the body of the task's link, already fetched by the transfer that found it is a playlist.
    init(
        request: TransferRequest, attempt: Int, partsInUse: PartRegistry, budget: BandwidthBudget,
        hosts: HostConnections, playlist: (bytes: [UInt8], url: String)?, emit: @escaping (TransferEvent) -> Void
    ) throws(DownloadError) {
        self.request = request
        self.attempt = attempt
        self.partsInUse = partsInUse
        self.budget = budget
        self.hosts = hosts
        self.emit = emit
        targetConnections = request.options.split
        cookies = try CookieJar(options: request.requestOptions, stored: request.cookies)
        do {
            netrc = try request.requestOptions.netrcFile.map { path throws(IntakeError) in try NetrcFile.read(path) }
        } catch {
            throw .unusableOption(error.description)
        }
        directory = try DownloadDirectory(path: request.directory, roots: request.options.confinementRoots)
        if let playlist {
            received(playlist: playlist.bytes, from: playlist.url, depth: 0)
        } else {
            add(StreamFetch(purpose: .playlist(depth: 0), url: request.url, range: nil, limit: PlaylistParser.maxBytes, stream: self))
        }
    }

    deinit {
        // The part file stays registered until the engine's closing work on it is done (`.concluded`).
        writer?.close()
    }

    var host: String { URLValidation.host(of: request.url) }

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

    var hasNewFetches: Bool { !pending.isEmpty }

    /// Forgets a fetch that left the network.
    func forget(_ fetch: StreamFetch) {
        fetches.removeAll { $0 === fetch }
        hosts.closed(fetch.host)
        budget.drop(fetch)
    }

    /// Stops every fetch (the engine removes their handles); returns them.
    func closeAll() -> [StreamFetch] {
        for fetch in fetches {
            budget.drop(fetch)
            hosts.closed(fetch.host)
        }
        defer { fetches = [] }
        return fetches
    }

    func fail(_ error: DownloadError) {
        if case .failed = phase { return }
        phase = .failed(error)
    }

    // MARK: - Playlists

    /// A playlist arrived: a master resolves to its variant's media playlist, a media playlist starts the segments.
    func received(playlist bytes: [UInt8], from url: String, depth: Int) {
        let playlist: Playlist
        do {
            playlist = try PlaylistParser.parse(bytes, url: url)
        } catch {
            return fail(.playlist(error))
        }
        switch playlist {
        case let .master(master):
            guard depth == 0 else { return fail(.playlist(PlaylistError(line: nil, .nestedMaster))) }
            guard let variant = pick(from: master) else { return fail(.playlist(PlaylistError(line: nil, .empty))) }
            chosen = variant
            bandwidth = variant.averageBandwidth ?? variant.bandwidth
            if let audio = master.audio(for: variant) { audioNote = "audio '\(audio.name)' is a separate rendition, not fetched" }
            add(StreamFetch(purpose: .playlist(depth: 1), url: variant.uri, range: nil, limit: PlaylistParser.maxBytes, stream: self))
        case let .media(media):
            start(media)
        }
    }

    /// The variant of a resumed stream (same bandwidth and resolution) if the master still lists it, else the
    /// task's choice.
    private func pick(from master: MasterPlaylist) -> Variant? {
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

/// Every option haul has, defined once (DESIGN §11): the settings file's keys, the long options of a run, the
/// options a download may set for itself, and what aria2's RPC calls them. `haul config` lists them in this order.
public enum OptionRegistry {
    public static let all: [OptionDefinition] = [
        // Where and how tasks are added (live: the next task added gets them).
        OptionDefinition(
            .dir, flag: "-d/--dir", kind: .string, change: .live, scope: .task, aria2: .same, values: .directory,
            check: notEmpty,
            help: OptionHelp("Download directory (default: the current directory).")),
        OptionDefinition(
            .header, flag: "-H/--header", kind: .strings, change: .live, scope: .task, aria2: .same,
            check: headers, shown: maskedHeaders,
            help: OptionHelp("Extra request header \"K: V\" (repeatable).")),
        OptionDefinition(
            .userAgent, kind: .string, change: .live, scope: .task, aria2: .same, check: header("User-Agent"),
            help: OptionHelp("The User-Agent header to send (aria2's name).")),
        OptionDefinition(
            .referer, kind: .string, change: .live, scope: .task, aria2: .same, check: header("Referer"),
            shown: redactedURL,
            help: OptionHelp("The Referer header to send (aria2's name); '*' sends each task's own link.")),
        OptionDefinition(
            .allProxy, kind: .string, change: .live, scope: .task, aria2: .same, check: proxy,
            shown: redactedProxy,
            help: OptionHelp(
        "Proxy for every link: http://, https://, socks5:// or socks5h:// (names resolved at the proxy), user:password@ allowed; \"\" for none.",
        discussion: "Without it the http_proxy, https_proxy, all_proxy and no_proxy environment is used, as curl does.",
        valueName: "url")),
        OptionDefinition(.noProxy, kind: .string, change: .live, scope: .task, aria2: .same, check: noProxy,
            help: OptionHelp("Hosts that go direct: comma-separated names, domains or addresses.", valueName: "list")),
        OptionDefinition(
            .loadCookies, kind: .string, change: .live, scope: .task, aria2: .same, namesFile: true, check: notEmpty,
            help: OptionHelp("Cookies to send, from a Netscape cookies.txt file.", valueName: "file")),
        OptionDefinition(
            .netrcFile, kind: .string, change: .live, scope: .task, aria2: Aria2Form("netrc-path"), namesFile: true,
            check: notEmpty,
            help: OptionHelp("Logins from a .netrc file (curl's rules).", valueName: "file")),
        OptionDefinition(
            .continuePartial, flag: "-c/--continue", kind: .bool, default: .bool(false), change: .live,
            aria2: .same,
            help: OptionHelp(
        "Continue a partial file another program left at the final name (the server must agree, else it stays as it is).")),
        OptionDefinition(
            .allowOverwrite, kind: .bool, default: .bool(false), change: .live, scope: .task,
            aria2: .same,
            help: OptionHelp("Fetch a finished file again and replace it, or any file at the name.")),
        OptionDefinition(
            .stream, kind: .string, default: .string("auto"), change: .live, scope: .task, aria2: .same,
            values: .choices(["auto", "off"]), check: streamOption(.stream),
            help: OptionHelp(
        "What an HLS playlist link becomes: auto (a stream task: its segments in one video file) or off (the playlist saved as a file).",
        valueName: "auto|off")),
        OptionDefinition(
            .streamQuality, kind: .string, default: .string("best"), change: .live, scope: .task,
            aria2: .same, values: .choices(["best", "worst", "2160", "1080", "720", "480", "360"]),
            check: streamOption(.streamQuality),
            help: OptionHelp(
        "The variant of a master playlist: best (default), worst, a height like 720, or a bandwidth in bit/s.", valueName: "choice")),
        OptionDefinition(
            .streamRemux, kind: .string, change: .live, scope: .task, aria2: .same, values: .choices(["mp4"]),
            check: streamOption(.streamRemux),
            help: OptionHelp(
        "Remux a finished MPEG-TS stream into this container with ffmpeg -c copy, when ffmpeg is installed.", valueName: "mp4")),
        OptionDefinition(
            .liveLimit, kind: .string, change: .live, scope: .task, aria2: .same, check: streamOption(.liveLimit),
            help: OptionHelp(
        "Stop recording a live stream after this much media (90s, 12m, 2h, 1:30:00); without it, it records until the stream ends.",
        valueName: "duration")),
        OptionDefinition(
            .streamAudio, kind: .string, change: .live, scope: .task, aria2: .same, check: streamOption(.streamAudio),
            help: OptionHelp(
        "The audio rendition of a stream by language, first found wins (deu,eng); default: the stream's default audio.",
        valueName: "langs")),
        OptionDefinition(
            .streamSubs, kind: .string, change: .live, scope: .task, aria2: .same, check: streamOption(.streamSubs),
            help: OptionHelp(
        "Fetch a stream's WebVTT subtitles in these languages (eng,deu) or all, saved beside the video as NAME.LANG.vtt.",
        valueName: "langs|all")),
        // A run's option, not a task's: a value that names a program to run is not taken from an input file or an RPC add.
        OptionDefinition(
            .extractor, kind: .string, aria2: .same, values: .file, check: notEmpty,
            help: OptionHelp(
        "What asks a web page for its video: yt-dlp's path or name (default: yt-dlp on PATH), or none to keep pages as files.",
        discussion: "A link that answers a web page (text/html) is asked 'yt-dlp -J' what it holds; its best video by --stream-quality is fetched under its title, a page of several videos becomes a group of tasks.",
        valueName: "path|none")),
        // Transfers.
        OptionDefinition(
            .maxConcurrent, flag: "-j/--max-concurrent", kind: .int, default: .int(ConcurrencyLimit.defaultValue),
            change: .live, aria2: Aria2Form("max-concurrent-downloads"), check: within(ConcurrencyLimit.range),
            help: OptionHelp("Tasks running at once (default 3).")),
        OptionDefinition(
            .split, flag: "-s/--split", kind: .int, default: .int(4), change: .live, scope: .task, aria2: .same,
            check: within(SplitLimit.range),
            help: OptionHelp("Connections per download (servers that cap each connection go faster with more; default 4).")),
        OptionDefinition(
            .minSplitSize, kind: .size, default: .string("4M"), change: .live, aria2: .same,
            check: minSplitSize,
            help: OptionHelp("Smallest range one connection is given, e.g. 4M; smaller files use one connection (default 4M).")),
        OptionDefinition(
            .maxHostConnections, kind: .int, default: .int(8), change: .live, aria2: Aria2Form("max-connection-per-server"),
            check: within(1...64),
            help: OptionHelp("Connections open to one host across all downloads (default 8).")),
        OptionDefinition(
            .limitRate, kind: .size, change: .live, scope: .task, aria2: Aria2Form("max-download-limit"), check: rate,
            help: OptionHelp("Receive limit per task, e.g. 500K, 2M, 1.5G (bytes/s).")),
        OptionDefinition(
            .maxOverallDownloadLimit, kind: .size, change: .live, aria2: .same, check: rate,
            help: OptionHelp("Cap on all downloads together, e.g. 10M (bytes/s; 0 for none).")),
        OptionDefinition(
            .retries, kind: .int, default: .int(5), change: .live, aria2: Aria2Form("max-tries"),
            check: atLeast(0, "must be 0 or more"),
            help: OptionHelp("Retries of a transient error before a task fails (default 5).")),
        OptionDefinition(
            .timeout, kind: .int, default: .int(30), change: .live, aria2: .same,
            check: stallSeconds,
            help: OptionHelp("Seconds without data before a transfer counts as stalled and is retried (default 30).")),
        OptionDefinition(.diskReserve, kind: .size, default: .string("64M"), change: .live, check: size,
            help: OptionHelp("Free space to keep on the download filesystem, e.g. 64M (a task pauses below it; default 64M).")),
        OptionDefinition(
            .caCert, kind: .string, change: .live, aria2: Aria2Form("ca-certificate"), namesFile: true, check: notEmpty,
            help: OptionHelp("CA bundle to verify servers with instead of the system one (verification stays on).")),
        // Remote control and hooks.
        OptionDefinition(.rpcListen, kind: .string, check: notEmpty,
            help: OptionHelp("Also serve aria2 JSON-RPC on TCP [HOST:]PORT or [IPV6]:PORT (host 127.0.0.1 unless given); a secret is always required.")),
        OptionDefinition(.rpcSecretFile, kind: .string, values: .file, check: notEmpty,
            help: OptionHelp("File holding the RPC secret (else $HAUL_RPC_SECRET, else one made in the state directory).")),
        OptionDefinition(.rpcAllowOrigin, kind: .string, check: notEmpty,
            help: OptionHelp("Send CORS headers to this web origin only (e.g. an AriaNg page).")),
        OptionDefinition(.rpcAllowedDir, kind: .strings, values: .directory,
            help: OptionHelp("A directory RPC clients may download into besides the default one (repeatable).")),
        OptionDefinition(.onDownloadComplete, kind: .string, aria2: .same, check: hook,
            help: OptionHelp("Command run (no shell) with GID, 1 and the file's path when a download completes.")),
        OptionDefinition(.onDownloadError, kind: .string, aria2: .same, check: hook,
            help: OptionHelp("Command run (no shell) with GID, 1 and the file's path when a download fails.")),
        OptionDefinition(.onLinkExpired, kind: .string, check: hook,
            help: OptionHelp("Command run (no shell) with GID and link when a link answers 401, 403, 404 or 410; a link it prints replaces the task's (as set-url), and the task fails only if none comes.")),
        OptionDefinition(.notify, kind: .bool, default: .bool(false),
            help: OptionHelp("A desktop notification (notify-send) each time a download completes or fails, when a session bus is there.")),
        // The screen.
        OptionDefinition(.headless, kind: .bool, default: .bool(false),
            help: OptionHelp("Run without the live list until nothing is waiting or running.")),
        OptionDefinition(.theme, kind: .string, values: .theme, check: notEmpty,
            help: OptionHelp("Colour theme: a name from themes/ or a path to a .toml file.")),
        OptionDefinition(.noColor, kind: .bool, default: .bool(false),
            help: OptionHelp("Monochrome (also when NO_COLOR is set).")),
        OptionDefinition(.noMouse, kind: .bool, default: .bool(false),
            help: OptionHelp("Leave the mouse to the terminal (no clicks, wheel or text selection by the list).")),
    ]

    private static let index = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The definition of `key`.
    public static subscript(_ key: OptionKey) -> OptionDefinition {
        guard let definition = index[key] else { preconditionFailure("no definition for \(key.rawValue)") }
        return definition
    }

    /// The option named `name`, if any.
    public static func named(_ name: String) -> OptionDefinition? { OptionKey(name: name).map { self[$0] } }

    /// The option aria2's RPC calls `name`, if haul has it.
    public static func aria2Named(_ name: String) -> OptionDefinition? { all.first { $0.aria2?.name == name } }
}

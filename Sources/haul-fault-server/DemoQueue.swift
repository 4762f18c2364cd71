import FaultServer

/// The demo queue `make demo` opens: files that make every part of the live list visible (progress,
/// CJK names, a resumed drop, a server-chosen name, a failure, a video stream). Served by `haul-fault-server --demo`.
enum DemoQueue {
    /// One demo file: where it is served, what it shows, and how the server behaves for it.
    struct Entry {
        let path: String
        let purpose: String
        let plan: FaultPlan
    }

    static let entries: [Entry] = {
        let mib: Int64 = 1 << 20
        var big = FaultPlan.file(size: 200 * mib, seed: 101)
        big.throttle = 4 << 20
        var medium = FaultPlan.file(size: 48 * mib, seed: 102)
        medium.throttle = 6 << 20
        var cjk = FaultPlan.file(size: 30 * mib, seed: 103)
        cjk.throttle = 3 << 20
        cjk.contentType = "video/mp4"
        var dropped = FaultPlan.file(size: 40 * mib, seed: 104)
        dropped.throttle = 4 << 20
        dropped.dropAfter = 20 * mib
        var named = FaultPlan.file(size: 8 * mib, seed: 105)
        named.throttle = 2 << 20
        named.contentType = "application/pdf"
        named.contentDisposition = "attachment; filename*=UTF-8''" + FaultPlan.percentEncoded("報告書 2025.pdf")
        return [
            Entry(path: "/demo/ubuntu-24.04-desktop-amd64.iso", purpose: "large, rate-limited (200 MiB at 4 MiB/s)", plan: big),
            Entry(path: "/demo/dataset.tar.zst", purpose: "medium (48 MiB at 6 MiB/s)", plan: medium),
            Entry(path: "/demo/" + FaultPlan.percentEncoded("電影.第01集.mp4"), purpose: "CJK name in the URL (30 MiB at 3 MiB/s)", plan: cjk),
            Entry(path: "/demo/flaky-40MiB.bin", purpose: "connection drops half-way once; must resume (40 MiB at 4 MiB/s)", plan: dropped),
            Entry(path: "/demo/download.php", purpose: "name from Content-Disposition filename* (8 MiB at 2 MiB/s)", plan: named),
            Entry(path: "/demo/missing.bin", purpose: "404 Not Found", plan: .status(404)),
        ]
    }()

    /// An HLS video of 90 × 4 s segments in three variants, AES-128, each connection at 1 MiB/s: the row shows
    /// `seg N/M` and an estimated total, and it ends as one `lecture.ts` (DESIGN §9).
    static let stream = "/hls/lecture/lecture.m3u8?segments=90&segsize=384k&duration=4&variants=3&key=1&ts=1&conncap=1m"

    /// Installs the demo routes and `/demo/urls.txt` (one URL per line) on `server`; returns the URLs in queue order.
    static func install(on server: FaultServer) -> [String] {
        var urls: [String] = []
        for entry in entries {
            server.route(entry.path, entry.plan)
            urls.append(server.url(entry.path))
        }
        // The stream second, so it runs at once beside the large file.
        urls.insert(server.url(stream), at: 1)
        var list = FaultPlan(body: .bytes(Array(urls.map { $0 + "\n" }.joined().utf8)))
        list.contentType = "text/plain; charset=utf-8"
        server.route("/demo/urls.txt", list)
        return urls
    }
}

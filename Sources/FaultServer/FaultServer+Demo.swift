extension FaultServer {
    /// The demo queue: files that make every part of the list visible (progress, CJK names,
    /// a resumed drop, a server-chosen name, a failure).
    public static let demoEntries: [(path: String, purpose: String, plan: FaultPlan)] = {
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
            ("/demo/ubuntu-24.04-desktop-amd64.iso", "large, rate-limited (200 MiB at 4 MiB/s)", big),
            ("/demo/dataset.tar.zst", "medium (48 MiB at 6 MiB/s)", medium),
            ("/demo/" + FaultPlan.percentEncoded("電影.第01集.mp4"), "CJK name in the URL (30 MiB at 3 MiB/s)", cjk),
            ("/demo/flaky-40MiB.bin", "connection drops half-way once; must resume (40 MiB at 4 MiB/s)", dropped),
            ("/demo/download.php", "name from Content-Disposition filename* (8 MiB at 2 MiB/s)", named),
            ("/demo/missing.bin", "404 Not Found", .status(404)),
        ]
    }()

    /// Installs the demo routes and `/demo/urls.txt` (one URL per line); returns the URLs in queue order.
    @discardableResult
    public func installDemoRoutes() -> [String] {
        var urls: [String] = []
        for entry in Self.demoEntries {
            route(entry.path, entry.plan)
            urls.append(url(entry.path))
        }
        var list = FaultPlan(body: .bytes(Array(urls.map { $0 + "\n" }.joined().utf8)))
        list.contentType = "text/plain; charset=utf-8"
        route("/demo/urls.txt", list)
        return urls
    }
}

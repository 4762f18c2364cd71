import Foundation
import HaulCore
@testable import HaulTUI

/// Builds queue snapshots for tests: tasks with names, states and byte counts in a few words.
enum TestQueue {
    static let directory = "/downloads"
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    static func row(
        _ id: Int64, _ name: String, _ state: TaskState, done: Int64 = 0, total: Int64? = nil,
        speed: Double? = nil, eta: Double? = nil, error: String? = nil, retryIn: Double? = nil,
        url: String? = nil
    ) -> QueueSnapshot.Row {
        let task = DownloadTask(
            id: TaskID(id), url: url ?? "https://example.org/files/\(id)", directory: directory, fileName: name,
            state: state, position: id, bytesDone: done, totalBytes: total, attempts: error == nil ? 0 : 3,
            lastError: error, createdAt: epoch)
        return QueueSnapshot.Row(
            task: task, bytesReceived: done, speed: speed, eta: eta, retryAt: retryIn.map { epoch.addingTimeInterval($0) })
    }

    static let mib: Int64 = 1 << 20
    static let gib: Int64 = 1 << 30

    /// The queue of the design sketch: CJK name, a big ISO, a paused, a waiting and a failed task, one done.
    static var sketch: QueueSnapshot {
        QueueSnapshot(
            rows: [
                row(1, "電影.第01集.mp4", .running, done: 552 * mib, total: 1 * gib, speed: 4.1 * Double(mib), eta: 131),
                row(2, "ubuntu-24.04.iso", .running, done: 1229 * mib, total: 5837 * mib, speed: 12 * Double(mib), eta: 380),
                row(3, "dataset.tar.zst", .paused, done: 301 * mib, total: 1 * gib),
                row(4, "notes.pdf", .waiting),
                row(5, "broken.bin", .failed, error: "HTTP 404 Not Found from example.org"),
                row(6, "done.zip", .completed, done: 10 * mib, total: 10 * mib),
            ],
            maxConcurrent: 3, totalSpeed: 16.1 * Double(mib), sequence: 1)
    }

    /// Renders `snapshot` as the screen shows it at `width` × `height`, as text lines.
    static func screen(
        _ snapshot: QueueSnapshot, width: Int, height: Int = 12, state: UIState = UIState(),
        freeDisk: Int64? = 80 * gib + 200 * mib, frame: Int = 0, glyphs: GlyphSet = .unicode
    ) -> ScreenGrid {
        let layout = ScreenLayout(width: width, height: height)
        let context = UIContext(snapshot: snapshot, visibleRows: layout.visibleRows, downloadDirectory: directory)
        let synced = state.synchronized(with: context)
        let model = ViewModelBuilder(glyphs: glyphs).build(
            snapshot: snapshot, state: synced, layout: layout, freeDiskBytes: freeDisk, now: epoch, frame: frame)
        return ListRenderer().render(model, layout: layout)
    }

    /// How far the open help or details box scrolls on a `width` × `height` screen, as the renderer lays it out.
    static func overlayScroll(_ snapshot: QueueSnapshot, width: Int, height: Int, state: UIState) -> OverlayScroll? {
        let layout = ScreenLayout(width: width, height: height)
        let context = UIContext(snapshot: snapshot, visibleRows: layout.visibleRows, downloadDirectory: directory)
        let model = ViewModelBuilder().build(
            snapshot: snapshot, state: state.synchronized(with: context), layout: layout, freeDiskBytes: nil, now: epoch, frame: 0)
        return ListRenderer().overlayScroll(model, layout: layout)
    }

    static func context(_ snapshot: QueueSnapshot, visibleRows: Int = 8) -> UIContext {
        UIContext(snapshot: snapshot, visibleRows: visibleRows, downloadDirectory: directory)
    }
}

import Foundation
import HaulCore
import HaulTUI

/// The interactive list: one loop on the calling thread that reads keys, watches snapshots, redraws.
public enum InteractiveSession {
    /// How long one key read waits: the loop's tick. At 100 ms, a new snapshot (a pause confirmed,
    /// a task finished) shows within a tenth of a second.
    static let tickMilliseconds: Int32 = 100
    /// The tick while a command sent is not yet in the snapshot: its answer (from this process's
    /// controller or, attached, from the owner over the socket) is drawn within 10 ms of arriving,
    /// so a key shows its effect within 100 ms rather than a round trip plus up to a whole tick.
    static let answerTickMilliseconds: Int32 = 10
    /// Keys read before drawing, so a paste or key repeat is handled in one frame.
    static let keysPerFrame = 256

    /// Takes the terminal (newterm on stdin/stdout), runs the key loop on the CALLING thread until the
    /// user quits or `stopRequested()` returns true (checked every tick), and always restores the
    /// terminal. Throws `TerminalUnavailable` when there is no usable terminal, so the caller can fall
    /// back to headless.
    ///
    /// The screen is redrawn after keys, when the snapshot's sequence changes, on resize, and once a
    /// second (speeds, ETAs, the activity indicator, free disk space). Call it from a dedicated thread,
    /// never from the cooperative pool: it blocks.
    public static func run(
        snapshots: SnapshotBox, send: @escaping @Sendable (QueueCommand) -> Void,
        options: TerminalOptions, stopRequested: @escaping @Sendable () -> Bool
    ) throws -> SessionEnd {
        let session = try TerminalSession.open(mouse: options.mouse)
        defer { session.close() }
        var loop = Loop(session: session, options: options)
        return loop.run(snapshots: snapshots, send: send, stopRequested: stopRequested)
    }

    /// The state of one run; lives on the calling thread.
    struct Loop {
        let session: TerminalSession
        let options: TerminalOptions
        let reader: KeyReader
        let builder: ViewModelBuilder
        let renderer = ListRenderer()
        var painter: CursesPainter
        var state = UIState()
        var frame = 0
        var freeDisk: Int64?
        var lastSecond = ContinuousClock.now
        var lastSequence: UInt64?
        var cachedContext: (version: UInt64, sequence: UInt64, visibleRows: Int, view: ListView, context: UIContext)?
        /// The rows the filter and the order show, kept between keys.
        var shownRows = ShownRowsCache()
        /// Tells a double click from two clicks.
        var clicks = ClickTracker()
        /// Commands sent that the snapshot may not show yet; keys in one burst act on their effect.
        var pending = PendingCommands()
        /// The open help or details box's page size and last offset, from the last frame.
        var overlayScroll: OverlayScroll?
        /// When the message on screen appeared; messages go after `messageSeconds`.
        var messageShownAt: ContinuousClock.Instant?
        /// The terminal title last set.
        var shownTitle: String?
        static let messageSeconds: Duration = .seconds(4)

        init(session: TerminalSession, options: TerminalOptions) {
            self.session = session
            self.options = options
            reader = KeyReader(window: session.window)
            builder = ViewModelBuilder(glyphs: session.isUTF8 ? .unicode : .ascii, attachedTo: options.attachedTo)
            painter = CursesPainter(
                window: session.window, theme: options.theme,
                colors: ColorPairCache(hasColors: session.hasColors, hasDefaultColors: session.hasDefaultColors),
                asciiOnly: !session.isUTF8)
            freeDisk = FreeSpace.bytes(at: options.downloadDirectory)
        }

        mutating func run(
            snapshots: SnapshotBox, send: @Sendable (QueueCommand) -> Void, stopRequested: @Sendable () -> Bool
        ) -> SessionEnd {
            var snapshot = snapshots.read()
            draw(snapshot)
            while true {
                if stopRequested() { return .stopRequested }
                var needsDraw = false
                let burst = readBurst()
                for var event in burst {
                    needsDraw = true
                    if event == .resize { painter.repaintAll() }
                    if case let .mousePress(line, column) = event {
                        event = .key(.mouse(clicks.press(line: line, column: column, at: .now)))
                    }
                    if case let .key(key) = event {
                        snapshot = snapshots.read()
                        let now = ContinuousClock.now
                        var keyContext = pending.context(over: context(snapshot), now: now)
                        // The open box's page size and end, as last drawn, keep its scroll inside the content.
                        keyContext.overlayScroll = overlayScroll
                        let (next, commands) = state.handle(key, context: keyContext)
                        if next.message != state.message { messageShownAt = next.message == nil ? nil : .now }
                        state = next
                        for command in commands {
                            pending.sent(command, at: now)
                            send(command)
                        }
                        if state.quitRequested { return .quit }
                        if state.detachRequested {
                            guard options.attachedTo != nil else { return .detach }
                            state.detachRequested = false
                            state.message = UIState.Message("the downloads already run in the background; q closes this view")
                            messageShownAt = .now
                        }
                    }
                }
                snapshot = snapshots.read()
                let now = ContinuousClock.now
                if snapshot.sequence != lastSequence { needsDraw = true }
                // Forgets the commands the snapshot shows (or that outlived their patience): back to the slow tick.
                if !pending.isEmpty { _ = pending.context(over: context(snapshot), now: now) }
                if now - lastSecond >= .seconds(1) {
                    lastSecond = now
                    frame += 1
                    let disk = FreeSpace.bytes(at: options.downloadDirectory)
                    // An idle queue is not redrawn: only transfers, back-off countdowns and disk space move.
                    let animating = shownRows.figures(snapshot).isAnimating
                    if animating || disk != freeDisk { needsDraw = true }
                    freeDisk = disk
                    if let shown = messageShownAt, now - shown >= Self.messageSeconds {
                        state.message = nil
                        messageShownAt = nil
                        needsDraw = true
                    }
                }
                if needsDraw { draw(snapshot) }
                // A tick with no key: the filter's search text is made now, not on its first key.
                if burst.isEmpty { shownRows.prepareSearch(snapshot) }
            }
        }

        /// The keys of one read: what arrives within the tick, then everything already waiting.
        ///
        /// While the add prompt is open, a burst of several keys is a paste from a terminal without bracketed
        /// paste (`PasteBurst`): it is read to its end, waiting a little for the rest of it, with no cap but the
        /// paste limit, and handed over as one `.paste`: none of its letters acts as a key, and the prompt adds each
        /// line it completes.
        mutating func readBurst() -> [TerminalEvent] {
            var burst: [TerminalEvent] = []
            let tick = pending.isEmpty ? InteractiveSession.tickMilliseconds : InteractiveSession.answerTickMilliseconds
            var event = reader.next(waitingMilliseconds: tick)
            let prompt = state.mode.isPrompt
            while event != .idle, burst.count < (prompt ? KeyReader.pasteLimit : InteractiveSession.keysPerFrame) {
                burst.append(event)
                event = reader.next(waitingMilliseconds: 0)
            }
            let keys = burst.compactMap { event -> KeyPress? in
                if case let .key(key) = event { return key }
                return nil
            }
            guard prompt, PasteBurst.isPaste(keys) else { return burst }
            var pasted = keys
            // The rest of a paste may come in further writes a few milliseconds apart.
            while pasted.count < KeyReader.pasteLimit, case let .key(key) = reader.next(waitingMilliseconds: Self.pasteGapMilliseconds) {
                pasted.append(key)
            }
            let resized = burst.contains(.resize)
            return [.key(.paste(PasteBurst.text(of: pasted)))] + (resized ? [.resize] : [])
        }

        /// How long a paste may pause between two writes of the terminal and still be one paste.
        static let pasteGapMilliseconds: Int32 = 30

        /// The reducer's view of a snapshot, built again (it walks every shown task) only when the lines or the rows'
        /// references changed (`ShownRowsCache.version`), or the screen size, filter, order or marks did; a snapshot
        /// that only moved live figures updates the queue-wide settings it carries.
        mutating func context(_ snapshot: QueueSnapshot) -> UIContext {
            let size = session.size
            let layout = ScreenLayout(width: size.width, height: size.height)
            let shown = shownRows.shown(snapshot, view: state.view)
            if var cached = cachedContext, cached.version == shownRows.version, cached.visibleRows == layout.visibleRows,
               cached.view == state.view, cached.context.screen == layout {
                if cached.sequence != snapshot.sequence {
                    cached.sequence = snapshot.sequence
                    cached.context.takeSettings(of: snapshot)
                    cachedContext = cached
                }
                return cached.context
            }
            var context = UIContext(
                snapshot: snapshot, visibleRows: layout.visibleRows, downloadDirectory: options.downloadDirectory, shown: shown,
                marks: state.view.marks)
            context.proxyDefaults = options.proxyDefaults
            context.intakeRules = options.intakeRules
            context.screen = layout
            cachedContext = (shownRows.version, snapshot.sequence, layout.visibleRows, state.view, context)
            return context
        }

        mutating func draw(_ snapshot: QueueSnapshot) {
            let size = session.size
            let layout = ScreenLayout(width: size.width, height: size.height)
            state = state.synchronized(with: context(snapshot))
            lastSequence = snapshot.sequence
            let figures = shownRows.figures(snapshot)
            let model = builder.build(
                snapshot: snapshot, state: state, layout: layout, freeDiskBytes: freeDisk, now: Date(), frame: frame,
                shown: shownRows.shown(snapshot, view: state.view), figures: figures)
            overlayScroll = renderer.overlayScroll(model, layout: layout)
            painter.paint(renderer.render(model, layout: layout))
            let title = TerminalTitle.text(snapshot, figures: figures)
            if title != shownTitle {
                shownTitle = title
                session.setTitle(title)
            }
        }
    }
}

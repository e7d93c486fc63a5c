import Foundation
import Logging
import NIOConcurrencyHelpers
import SeamWire
import ServiceLifecycle

/// Writes each session's story (`SessionStory`) beside its record, for the debug route
/// (`GET /v1/admin/sessions/{id}`, on when `debug.token` is set), and logs it as JSON lines for a
/// sampled share of sessions (`debug.logSampleRate`).
///
/// ``record(_:_:)`` never waits: it logs (when the session is sampled) and queues the entries for
/// one worker (``run()``), which appends them in the store (`SessionStore.appendStory`), so any
/// replica sharing the store shows the same story. A VOD session's decisions are recorded while
/// it starts, before its record is stored: entries for a session the store does not hold yet are
/// kept aside (at most ``unplacedLimit`` sessions, for ``unplacedSeconds``) until
/// ``sessionStored(_:)`` says it is. When the queue is full, entries are dropped and logged.
///
/// A value type over shared state: copies are the same recorder.
package struct SessionStoryRecorder: Service, Sendable {
    package struct Settings: Sendable, Equatable {
        /// Whether stories are written to the store (the debug route is on).
        package var storing: Bool
        /// Entries kept per session (`debug.storyEntries`).
        package var keep: Int
        /// The share of sessions whose story is logged (`debug.logSampleRate`).
        package var logSampleRate: Double

        package init(storing: Bool, keep: Int, logSampleRate: Double) {
            self.storing = storing
            self.keep = keep
            self.logSampleRate = logSampleRate
        }

        package init(_ configuration: SeamConfiguration.Debug) {
            self.init(
                storing: !configuration.token.isEmpty, keep: configuration.storyEntries,
                logSampleRate: configuration.logSampleRate)
        }
    }

    /// Sessions whose entries wait for their record, at most.
    static let unplacedLimit = 512
    /// How long entries wait for their session's record.
    static let unplacedSeconds = 120.0
    /// Appends waiting for the worker, at most.
    static let queueCapacity = 10_000

    private enum Job: Sendable {
        case append(SessionID, [SessionStoryEntry], at: Date)
        case stored(SessionID)
    }

    private struct State: DrainableState {
        var pendingCount = 0
        var dropped = 0
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    package let settings: Settings
    private let store: any SessionStore
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private let stream: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let state = NIOLockedValueBox(State())

    package init(
        settings: Settings, store: any SessionStore, clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.settings = settings
        self.store = store
        self.clock = clock
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(
            of: Job.self, bufferingPolicy: .bufferingOldest(Self.queueCapacity))
    }

    /// Records nothing.
    package static func off(store: any SessionStore) -> SessionStoryRecorder {
        SessionStoryRecorder(
            settings: Settings(storing: false, keep: 1, logSampleRate: 0), store: store, clock: { Date() },
            logger: Logger(label: "seam.story"))
    }

    /// Whether anything is recorded: stored for the debug route, or logged for some sessions.
    package var isOn: Bool { settings.storing || settings.logSampleRate > 0 }

    /// A trace for one ad decision when stories are recorded; nil (nothing traced) otherwise.
    package func newTrace() -> AdDecisionTrace? { isOn ? AdDecisionTrace() : nil }

    /// Now, on the clock session lifetimes are counted with.
    package var now: Date { clock() }

    /// Whether session `id`'s story is logged: the same sessions on every replica (a hash of the
    /// id, not a draw), so a sampled session's lines are complete wherever it is served.
    package func isLogged(_ id: SessionID) -> Bool {
        guard settings.logSampleRate > 0 else { return false }
        guard settings.logSampleRate < 1 else { return true }
        return id.stableFraction < settings.logSampleRate
    }

    /// Adds `entries` to session `id`'s story; returns at once.
    package func record(_ id: SessionID, _ entries: [SessionStoryEntry]) {
        guard !entries.isEmpty else { return }
        if isLogged(id) { log(id, entries) }
        guard settings.storing else { return }
        enqueue(.append(id, entries, at: clock()))
    }

    /// Session `id`'s record is stored now: entries recorded while it started are written.
    package func sessionStored(_ id: SessionID) {
        guard settings.storing else { return }
        enqueue(.stored(id))
    }

    /// Session `id`'s story as the store has it (nil: none kept, or no such session).
    package func story(of id: SessionID) async throws(SessionStoreError) -> SessionStory? {
        try await store.story(of: id)
    }

    /// Waits until everything recorded so far is written (or dropped). Tests; needs ``run()``.
    package func drain() async { await state.waitUntilDrained() }

    private func enqueue(_ job: Job) {
        state.withLockedValue { $0.pendingCount += 1 }
        switch continuation.yield(job) {
        case .enqueued: return
        case .dropped, .terminated: break
        @unknown default: break
        }
        let dropped = finishOne(dropped: true)
        if dropped == 1 || dropped % 1000 == 0 {
            logger.warning(
                "session story entries dropped: the story writer is behind (or stopped)",
                metadata: ["droppedTotal": "\(dropped)"])
        }
    }

    /// Marks one job done; wakes drain waiters when none is left. Returns the drops so far.
    @discardableResult
    private func finishOne(dropped: Bool = false) -> Int {
        let (count, waiters) = state.withLockedValue { state -> (Int, [CheckedContinuation<Void, Never>]) in
            state.pendingCount -= 1
            if dropped { state.dropped += 1 }
            guard state.pendingCount <= 0 else { return (state.dropped, []) }
            state.pendingCount = 0
            defer { state.drainWaiters = [] }
            return (state.dropped, state.drainWaiters)
        }
        waiters.forEach { $0.resume() }
        return count
    }

    // MARK: The worker

    /// Writes queued entries, one append at a time, until shutdown.
    package func run() async {
        let continuation = self.continuation
        var unplaced: [SessionID: (since: Date, entries: [SessionStoryEntry])] = [:]
        await withGracefulShutdownHandler {
            for await job in stream {
                switch job {
                case .append(let id, let entries, let at):
                    if await !append(entries, to: id) {
                        Self.keepAside(entries, for: id, at: at, in: &unplaced)
                    }
                case .stored(let id):
                    if let waiting = unplaced.removeValue(forKey: id) {
                        _ = await append(waiting.entries, to: id)
                    }
                }
                finishOne()
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
        continuation.finish()
        let left = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.pendingCount = 0
            defer { state.drainWaiters = [] }
            return state.drainWaiters
        }
        left.forEach { $0.resume() }
    }

    /// Appends in the store; false when the store does not hold the session (yet).
    private func append(_ entries: [SessionStoryEntry], to id: SessionID) async -> Bool {
        do {
            return try await store.appendStory(entries, to: id, keep: settings.keep)
        } catch {
            logger.warning(
                "session story not written", metadata: ["session": "\(id)", "error": "\(error)"])
            return true
        }
    }

    /// Keeps entries of a session not stored yet, within the bounds; drops the stale.
    private static func keepAside(
        _ entries: [SessionStoryEntry], for id: SessionID, at date: Date,
        in unplaced: inout [SessionID: (since: Date, entries: [SessionStoryEntry])]
    ) {
        if unplaced.count >= unplacedLimit / 2 {
            unplaced = unplaced.filter { date.timeIntervalSince($0.value.since) < unplacedSeconds }
        }
        if var waiting = unplaced[id] {
            waiting.entries += entries
            unplaced[id] = waiting
        } else if unplaced.count < unplacedLimit {
            unplaced[id] = (date, entries)
        }
    }

    // MARK: Logging

    /// One JSON line per entry (`server.logFormat: json`), its fields as metadata.
    private func log(_ id: SessionID, _ entries: [SessionStoryEntry]) {
        for entry in entries {
            var metadata: Logger.Metadata = [
                "session": "\(id)", "event": "\(entry.event.rawValue)", "at": "\(entry.time)",
            ]
            if let value = entry.breakIndex { metadata["break"] = "\(value)" }
            if let value = entry.adId { metadata["adId"] = "\(value)" }
            if let value = entry.url { metadata["url"] = "\(value)" }
            if let value = entry.outcome { metadata["outcome"] = "\(value)" }
            if let value = entry.status { metadata["status"] = "\(value)" }
            if let value = entry.milliseconds { metadata["milliseconds"] = "\(value)" }
            if let value = entry.bytes { metadata["bytes"] = "\(value)" }
            if let value = entry.vastErrorCode { metadata["vastErrorCode"] = "\(value)" }
            if let value = entry.reason { metadata["reason"] = "\(value)" }
            if let value = entry.seconds { metadata["seconds"] = "\(value)" }
            if let value = entry.count { metadata["count"] = "\(value)" }
            if let value = entry.detail { metadata["detail"] = "\(value)" }
            if let value = entry.trackingEvent { metadata["trackingEvent"] = "\(value)" }
            if let value = entry.pod { metadata["pod"] = "\(value)" }
            if let value = entry.adIndex { metadata["adIndex"] = "\(value)" }
            if let value = entry.renditions {
                metadata["renditions"] = .dictionary(value.mapValues { .string($0) })
            }
            logger.info("session story", metadata: metadata)
        }
    }
}

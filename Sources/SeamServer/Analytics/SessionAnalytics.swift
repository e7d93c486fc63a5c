import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Stitching

/// What the session routes call when something happens to a session: counts it in the ad KPIs
/// at `/metrics` (``AdDeliveryMetrics``), and when analytics is on builds the event, applies the
/// privacy mode and hands it to the ``AnalyticsSender``. Every call returns at once; with neither
/// (``off``, as in tests that need none) it does nothing.
///
/// It remembers when each session it saw start began (a date per session, and for live sessions
/// how far its breaks are reported, dropped at its end), so a `sessionEnd` carries the duration,
/// a session ends once however many ways its end is noticed (deleted, swept, found expired by a
/// request), and each live break is reported once.
///
/// A value type over shared state: copies are the same analytics.
package struct SessionAnalytics: Sendable {
    let sender: AnalyticsSender?
    let privacy: AnalyticsPrivacy?
    let metrics: AdDeliveryMetrics?
    private let started: NIOLockedValueBox<[SessionID: Entry]>

    /// What is remembered of a session until its end.
    private struct Entry {
        var startedAt: Date
        /// Live: the breaks numbered below this are reported (VOD reports all of them at start).
        /// A number, not a set (every live viewer has an entry): a session's breaks are decided
        /// in order, since its timeline stops before a break until that break is decided.
        var reportedBelow: Int32 = 0
        /// Live: the session's `changes` when its breaks were last looked at (none new since).
        var seenChanges: Int32 = 0
        /// Live: the error code of the last failed reload, reported once until a reload succeeds.
        var failing: String?
    }

    /// Neither analytics nor metrics.
    package static var off: SessionAnalytics { SessionAnalytics(sender: nil, privacy: nil, metrics: nil) }

    init(sender: AnalyticsSender?, privacy: AnalyticsPrivacy?, metrics: AdDeliveryMetrics?) {
        self.sender = sender
        self.privacy = privacy
        self.metrics = metrics
        started = NIOLockedValueBox([:])
    }

    /// From configuration: the ad KPIs always, analytics off when `analytics.endpoints` is empty.
    /// - Throws: when `encrypted` has no usable key (loaded configurations are validated, so only
    ///   for one built in code).
    package init(services: SeamServices) throws(AnalyticsKeyError) {
        let configuration = services.configuration.analytics
        let metrics = AdDeliveryMetrics(factory: services.metrics.factory)
        guard !configuration.endpoints.isEmpty else {
            self.init(sender: nil, privacy: nil, metrics: metrics)
            return
        }
        let privacy = try AnalyticsPrivacy(configuration)
        let sender = AnalyticsSender(
            upstream: services.upstream, configuration: configuration, privacy: privacy.mode,
            logger: services.logger, metricsFactory: services.metrics.factory,
            executor: services.background)
        self.init(sender: sender, privacy: privacy, metrics: metrics)
    }

    /// Whether analytics events are sent (`analytics.endpoints`).
    package var isEnabled: Bool { sender != nil }

    /// Whether anything listens: analytics or the metrics.
    private var isObserving: Bool { sender != nil || metrics != nil }

    /// The sender's worker, to run next to the HTTP server (empty when off).
    package var services: [any Service] { sender.map { [$0] } ?? [] }

    /// What the sender has done, for tests (zero when off).
    package var counters: AnalyticsCounters { sender?.counters ?? AnalyticsCounters() }

    /// Waits until every event so far is sent or given up (returns at once when off).
    package func flush() async { await sender?.flush() }

    // MARK: - Hooks

    /// A session was created: `sessionStart`, and `breakDecided` for each break decided already
    /// (every break of a VOD title; those of a live session's first window).
    package func sessionStarted(_ session: SeamSession, inputs: SessionInputs, at date: Date) {
        guard isObserving else { return }
        let avails: [TrackingDocument.Avail]
        var changes = 0
        switch session {
        case .vod(let vod): avails = vod.tracking.avails
        case .live(let live):
            changes = live.changes
            avails = live.tracking().avails
        }
        let reported = Set(avails.compactMap { Int($0.availId) })
        started.withLockedValue {
            $0[session.id] = Entry(
                startedAt: date, reportedBelow: Int32(clamping: (reported.max() ?? -1) + 1),
                seenChanges: Int32(truncatingIfNeeded: changes))
        }
        if let metrics {
            metrics.sessionCreated(kind: session.kindName, mode: session.mode, format: session.format)
            // A pip shows its main's breaks: they are counted once, with the main.
            if session.pipOf == nil { for avail in avails { metrics.availDecided(avail, kind: session.kindName) } }
        }
        guard let sender, let privacy else { return }
        let device = privacy.device(PersonalData(inputs), at: date)
        sender.record(.sessionStart(session, inputs: inputs, device: device, at: date))
        for avail in avails {
            for event in AnalyticsEvent.breakDecided(avail, session: session.id, at: date) { sender.record(event) }
        }
    }

    /// Runs one live playlist answer (`reload`): on success reports the breaks decided since the
    /// last report; on failure (the origin down, a window gone backwards) an `error` event, once
    /// per outage of the session, not once per reload of every viewer.
    func live<Value>(
        _ session: LiveSession, at date: Date,
        _ reload: () async throws(SeamError) -> Value
    ) async throws(SeamError) -> Value {
        guard isObserving else { return try await reload() }
        do {
            let value = try await reload()
            liveBreaksDecided(session, at: date)
            return value
        } catch {
            liveReloadFailed(session.id, error: error, at: date)
            throw error
        }
    }

    private func liveReloadFailed(_ id: SessionID, error: SeamError, at date: Date) {
        guard let sender else { return }
        let first = started.withLockedValue { started -> Bool in
            guard var entry = started[id], entry.failing != error.code.rawValue else { return false }
            entry.failing = error.code.rawValue
            started[id] = entry
            return true
        }
        guard first else { return }
        var event = AnalyticsEvent(type: .error, time: date, sessionId: id.value)
        event.code = error.code.rawValue
        event.message = error.message
        sender.record(event)
    }

    /// A live session served a playlist: `breakDecided` for each break decided since the last
    /// report (filled, or left to content with its reason). Costs a look at the timeline's change
    /// count; the session's breaks are looked at only when it moved, and the avails of the
    /// breaks decided since are built only when there are some.
    func liveBreaksDecided(_ session: LiveSession, at date: Date) {
        guard isObserving else { return }
        let changes = Int32(truncatingIfNeeded: session.changes)
        let moved = started.withLockedValue { started -> Bool in
            guard let entry = started[session.id] else { return false }
            return entry.seenChanges != changes || entry.failing != nil
        }
        guard moved else { return }
        let decided = session.decidedBreaks
        let fresh = started.withLockedValue { started -> Set<Int> in
            guard var entry = started[session.id] else { return [] }
            entry.seenChanges = changes
            let fresh = Set(decided.filter { $0 >= entry.reportedBelow })
            guard !fresh.isEmpty || entry.failing != nil else {
                // The change seen (a break ended, or one appeared still undecided): remembered,
                // so the next reloads do not look again until the timeline moves.
                started[session.id] = entry
                return []
            }
            entry.reportedBelow = Int32(clamping: (fresh.max() ?? -1) + 1)
            entry.failing = nil
            started[session.id] = entry
            return fresh
        }
        guard !fresh.isEmpty else { return }
        for avail in session.avails(of: fresh) {
            if session.pipOf == nil { metrics?.availDecided(avail, kind: "live") }
            guard let sender else { continue }
            for event in AnalyticsEvent.breakDecided(avail, session: session.id, at: date) { sender.record(event) }
        }
    }

    /// A session ended. Only the first report of a session's end sends `sessionEnd`; a session
    /// this process did not see start (another replica's, or one from before a restart) sends
    /// one without a duration when deleted, and none when found expired.
    package func sessionEnded(_ id: SessionID, reason: SessionEndReason, at date: Date) {
        guard isObserving else { return }
        let (known, startedAt) = started.withLockedValue { started -> (Bool, Date?) in
            let value = started.removeValue(forKey: id)
            return (value != nil, value?.startedAt)
        }
        guard known || reason == .deleted else { return }
        metrics?.sessionEnded(reason: reason)
        guard let sender else { return }
        sender.record(.sessionEnd(id, reason: reason, startedAt: startedAt, at: date))
    }

    /// Server-side ad events Seam just claimed (each fires once per session).
    package func adEvents(_ events: [AdProgressEvent], session id: SessionID, breakNumber: Int, ad: Int, at date: Date)
    {
        guard let sender else { return }
        for event in events { sender.record(.adEvent(event, session: id, breakNumber: breakNumber, ad: ad, at: date)) }
    }

    /// A session start that failed for the origin's sake (or any reason the player was told).
    package func startFailed(_ inputs: SessionInputs, error: any Error, at date: Date) {
        guard let sender, let error = error as? SeamError else { return }
        sender.record(.startFailed(inputs, error: error, at: date))
    }
}

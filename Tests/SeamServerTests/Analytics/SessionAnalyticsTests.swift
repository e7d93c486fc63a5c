import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// The hooks the session routes call, driven directly with times passed in (no server): each
/// session ends once, with its duration; a sweep names what it dropped.
@Suite("SessionAnalytics hooks", .timeLimit(.minutes(1)))
struct SessionAnalyticsTests {
    static let collector = "https://collector.test/seam"
    typealias Store = InMemorySessionStoreTests

    func analytics(_ upstream: FakeUpstream, mode: AnalyticsPrivacyMode = .delete) -> SessionAnalytics {
        var configuration = SeamConfiguration.Analytics()
        configuration.endpoints = [Self.collector]
        configuration.privacy = mode
        configuration.flushSeconds = 60
        let sender = AnalyticsSender(
            upstream: upstream, configuration: configuration, privacy: mode, logger: SeamStack.quietLogger)
        return SessionAnalytics(sender: sender, privacy: try? AnalyticsPrivacy(configuration), metrics: nil)
    }

    func sent(
        _ analytics: SessionAnalytics, _ upstream: FakeUpstream, _ body: () -> Void
    ) async throws -> [AnalyticsEvent] {
        body()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in analytics.services { group.addTask { try await service.run() } }
            await analytics.flush()
            group.cancelAll()
        }
        return try await upstream.recorder.requests(purpose: .analytics).flatMap { request in
            try JSONDecoder().decode(AnalyticsBatch.self, from: Data(buffer: try #require(request.body))).events
        }
    }

    @Test("A session ends once, with its duration, however many ways its end is noticed")
    func endsOnce() async throws {
        let upstream = FakeUpstream([Self.collector: .body("")])
        let analytics = analytics(upstream)
        let session = Store.session()
        let t0 = Store.t0
        let events = try await sent(analytics, upstream) {
            analytics.sessionStarted(session, inputs: Store.inputs, at: t0)
            analytics.sessionEnded(session.id, reason: .expired, at: t0.addingTimeInterval(90.5))
            analytics.sessionEnded(session.id, reason: .expired, at: t0.addingTimeInterval(120))
            analytics.sessionEnded(session.id, reason: .deleted, at: t0.addingTimeInterval(130))
        }
        #expect(events.map(\.type) == [.sessionStart, .sessionEnd, .sessionEnd])
        let ends = events.filter { $0.type == .sessionEnd }
        #expect(ends.first?.reason == "expired" && ends.first?.durationSeconds == 90.5)
        // A delete Seam did not see start (another replica's session, say): reported, without a duration.
        #expect(ends.last?.reason == "deleted" && ends.last?.durationSeconds == nil)
        #expect(events.first?.device == nil, "delete mode")
    }

    @Test("Analytics off: the hooks do nothing")
    func off() async throws {
        let analytics = SessionAnalytics.off
        #expect(!analytics.isEnabled && analytics.services.isEmpty)
        analytics.sessionStarted(Store.session(), inputs: Store.inputs, at: Store.t0)
        await analytics.flush()
        #expect(analytics.counters == AnalyticsCounters())
    }

    @Test("A failed start and ad trouble are error events; ad events name break, ad and event")
    func errorsAndAdEvents() async throws {
        let upstream = FakeUpstream([Self.collector: .body("")])
        let analytics = analytics(upstream)
        let id = Store.session().id
        var avail = TrackingDocument.Avail(
            availId: "1", position: "midroll", cuePoint: 30, startTimeSeconds: 30, durationSeconds: 0,
            skipReason: "ADS_TIMEOUT", skipDetail: "the ad server did not answer within 2 s",
            ads: [], skippedAds: [], trackingEvents: [])
        let decided = AnalyticsEvent.breakDecided(avail, session: id, at: Store.t0)
        #expect(decided.map(\.type) == [.breakDecided, .error])
        #expect(decided.first?.filled == false && decided.first?.skipReason == "ADS_TIMEOUT")
        #expect(decided.last?.code == "ADS_TIMEOUT")
        avail.skipReason = "NO_FILL"
        #expect(
            AnalyticsEvent.breakDecided(avail, session: id, at: Store.t0).map(\.type) == [.breakDecided],
            "no fill is an answer, not an error")

        let events = try await sent(analytics, upstream) {
            analytics.startFailed(
                Store.inputs, error: SeamError(.originUnavailable, "origin.test answered HTTP 503"), at: Store.t0)
            analytics.adEvents([.impression, .start], session: id, breakNumber: 1, ad: 2, at: Store.t0)
        }
        #expect(events.map(\.type) == [.error, .adEvent, .adEvent])
        #expect(
            events.first?.code == "ORIGIN_UNAVAILABLE" && events.first?.contentUrl == "https://origin.test/a.m3u8"
                && events.first?.sessionId == nil)
        #expect(events.dropFirst().map(\.event) == ["impression", "start"])
        #expect(events.last?.breakNumber == 1 && events.last?.adNumber == 2)
    }

    @Test("The in-memory store's sweep names the sessions it dropped")
    func sweepNames() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let old = try Store.stored(in: store, at: 0)
        let young = try Store.stored(in: store, at: 50)
        let named = try await store.expire(now: Store.t0.addingTimeInterval(70))
        #expect(named == [old])
        #expect(store.load(young, now: Store.t0.addingTimeInterval(70), readAbove: nil, keptAlive: false).stored != nil)
    }
}

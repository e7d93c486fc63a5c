import Foundation
import HLS
import Testing
import SeamTesting
import Stitching
@testable import SeamServer

/// A live session's owner on the test's clock: a session whose first window already holds a
/// cue waits for the break's decision, up to the budget and no longer. The origin and the ad
/// server are in memory; time moves by hand. No sockets, no sleeps.
@Suite("Live: session start waits for the break's decision", .timeLimit(.minutes(1)))
struct LiveSessionStartTests {
    static let budget = Duration.seconds(2)

    /// A session on the scripted channel (a 24 s break cued at its newest segment), the decider
    /// whose queue runs on `clock`, and the session's first reference window.
    struct Fixture {
        let origin: ScriptedLiveOrigin
        let session: LiveSession
        let decider: LiveBreakDecider
        let window: MediaPlaylist

        init(clock: TestClock) async throws {
            let origin = ScriptedLiveOrigin()
            origin.update { $0.cueOuts[20] = 24 }
            var configuration = SeamConfiguration()
            configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
            let logger = FaultMatrixApp.quietLogger
            let creatives = CreativeLoader(upstream: origin, clock: clock.seamClock)
            let ads = AdDecisionClient(
                upstream: origin, configuration: configuration.ads,
                beacons: BeaconDispatcher(upstream: origin, configuration: .init(), logger: logger), logger: logger)
            // What these tests are about is the session's wait, on the test's clock. The ad
            // client enforces its deadline in real time (the planner's clock is the real one in
            // production): counted from an hour ahead, it never runs out however long a loaded
            // machine takes between the test's steps (counted from the test clock's start, a
            // stall of two seconds made every decision BUDGET_EXHAUSTED in a stress run).
            let planner = AdPlanner(
                configuration: configuration.ads, ads: ads, creatives: creatives,
                now: { ContinuousClock.now + .seconds(3600) })
            let executor = BackgroundExecutor(name: "seam-test-live", maxThreads: 1)
            let live = LiveSessionFactory(
                services: LiveServices(
                    configuration: configuration, upstream: origin, planner: planner,
                    logger: logger, background: executor, clock: clock.seamClock),
                creatives: creatives, configuration: configuration, logger: logger)
            let content = try await ContentLoader(
                origin: OriginClient(upstream: origin), limits: SessionCostLimits(configuration.sessions)
            )
            .load(ScriptedLiveOrigin.liveURL)
            let channel = await live.makeChannel(ScriptedLiveOrigin.liveURL, content: content)
            decider = LiveBreakDecider(
                planner: planner,
                queue: BreakDecisionQueue(maxConcurrent: 4, executor: executor, clock: clock.seamClock),
                logger: logger)
            session = LiveSession(
                id: SessionIDKey.random().issue(), channel: channel,
                inputs: .init(
                    request: SessionRequest(url: ScriptedLiveOrigin.liveURL), deviceIP: nil, userAgent: nil,
                    baseURL: "http://seam.test"),
                trackingMode: .server, defaultBreakSeconds: 30)
            window = content.reference
            self.origin = origin
        }

        /// The session's first playlist started while the ad server holds the break's request:
        /// answered once the request is in and the start is parked on its timer.
        func startHeld(_ clock: TestClock) async -> Task<Void, Never> {
            origin.update { $0.holdingAds = true }
            let (session, decider, window) = (session, decider, window)
            let start = Task {
                await session.advance(
                    with: window, decider: decider, budget: LiveSessionStartTests.budget, waitForDecision: true)
            }
            #expect(await liveEventually { origin.requests("vast.xml") == 1 && clock.sleeping >= 1 })
            return start
        }

        /// The break's skip reason in the session's tracking JSON (nil: it plays ads).
        var skipReason: String? { session.tracking().avails.first?.skipReason }
    }

    @Test("The first playlist waits for a decision that lands within the budget, and lists the break")
    func waitsForTheDecision() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        // The start is parked on its timer while the ad server holds the request.
        let start = await fixture.startHeld(clock)
        #expect(fixture.session.pendingBreaks == [0])
        clock.advance(.milliseconds(1500))
        #expect(fixture.session.pendingBreaks == [0], "gave up before the budget")
        fixture.origin.releaseAds()
        await start.value
        #expect(fixture.session.pendingBreaks.isEmpty)
        #expect(fixture.skipReason == nil)
        let playlist = try fixture.session.render("v0", window: fixture.window)
        #expect(playlist.segments.contains { $0.uri.contains("/ad/0/") }, "\(playlist.segments.map(\.uri))")
    }

    @Test(
        "The first playlist waits up to the budget and no longer: the break plays content (ADS_TIMEOUT); the late decision is dropped"
    )
    func waitsNoLongerThanTheBudget() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        let start = await fixture.startHeld(clock)
        clock.advance(Self.budget)
        await start.value
        #expect(fixture.session.pendingBreaks.isEmpty)
        #expect(fixture.skipReason == "ADS_TIMEOUT")
        // The ad server answers afterwards: the decision is made, and dropped.
        fixture.origin.releaseAds()
        #expect(await liveEventually { fixture.decider.queue.running == 0 })
        #expect(fixture.skipReason == "ADS_TIMEOUT")
        let playlist = try fixture.session.render("v0", window: fixture.window)
        #expect(!playlist.segments.contains { $0.uri.contains("/ad/") })
    }

    @Test(
        "A break the session knows but has not decided, or gave to content, answers an empty asset list (the draft's play-the-primary), an unknown id none"
    )
    func assetListOfAnUndecidedBreakIsEmpty() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        let start = await fixture.startHeld(clock)
        let id = try #require(fixture.session.breakIDs.first)
        #expect(fixture.session.pendingBreaks == [0])
        #expect(fixture.session.assetList(id) == .empty)
        clock.advance(Self.budget)
        await start.value
        #expect(fixture.skipReason == "ADS_TIMEOUT")
        #expect(fixture.session.assetList(id) == .empty)
        #expect(fixture.session.assetList(try #require(InterstitialBreakID("cue-other-1800000000000"))) == nil)
        fixture.origin.releaseAds()
        #expect(await liveEventually { fixture.decider.queue.running == 0 })
    }

    @Test("A reload never waits: the decision is queued and the playlist answered at once")
    func reloadsDoNotWait() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        fixture.origin.update { $0.holdingAds = true }
        await fixture.session.advance(
            with: fixture.window, decider: fixture.decider, budget: Self.budget, waitForDecision: false)
        #expect(fixture.session.pendingBreaks == [0])
        let playlist = try fixture.session.render("v0", window: fixture.window)
        #expect(
            !playlist.segments.contains { $0.uri.hasSuffix("seg_20.ts") }, "the timeline stops before the pending break"
        )
        fixture.origin.releaseAds()
        #expect(await liveEventually { fixture.session.pendingBreaks.isEmpty })
    }

    @Test("A cancelled start stops waiting at once; the decision still lands for the session")
    func cancelledStart() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        let start = await fixture.startHeld(clock)
        start.cancel()
        await start.value
        #expect(fixture.session.pendingBreaks == [0])
        #expect(await liveEventually { clock.sleeping == 0 }, "the cancelled start's timer kept running")
        fixture.origin.releaseAds()
        #expect(await liveEventually { fixture.session.pendingBreaks.isEmpty })
        #expect(fixture.skipReason == nil)
    }

    @Test(
        "Viewers whose break got the same answer share one decision body (ads, layout, beacons), each keeping its own break number"
    )
    func equalDecisionsShareOneBody() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(clock: clock)
        let second = LiveSession(
            id: SessionIDKey.random().issue(), channel: fixture.session.channel,
            inputs: .init(
                request: SessionRequest(url: ScriptedLiveOrigin.liveURL), deviceIP: "198.51.100.23", userAgent: nil,
                baseURL: "http://seam.test"),
            trackingMode: .server, defaultBreakSeconds: 30)
        for session in [fixture.session, second] {
            await session.advance(
                with: fixture.window, decider: fixture.decider, budget: Self.budget, waitForDecision: false)
            #expect(await liveEventually { session.pendingBreaks.isEmpty })
        }
        let decisions = [fixture.session, second].map { $0.snapshot().session.decisions }
        let first = try #require(decisions[0].first)
        let other = try #require(decisions[1].first)
        #expect(first.ads.contains { $0 != nil }, "the break plays ads")
        #expect(first.sharesBody(with: other))
        #expect(first == other)
        // Renumbered for another session's timeline: still the one body, its own number.
        let renumbered = other.renumbered(5)
        #expect(renumbered.breakNumber == 5 && first.breakNumber == 0)
        #expect(renumbered.sharesBody(with: first) && renumbered != first)
        // A change to one session's copy is its own.
        var changed = other
        changed.detail = "changed"
        #expect(!changed.sharesBody(with: first) && first.detail == nil)
        // Written as the fields were when each decision held them inline.
        let object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(first)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["breakNumber", "ads", "layout", "skippedAds", "breakStartURLs"]))
        #expect(try JSONDecoder().decode(LiveBreakDecision.self, from: JSONEncoder().encode(first)) == first)
    }
}

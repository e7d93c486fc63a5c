import DASH
import Foundation
import NIOConcurrencyHelpers
import Testing
import SeamTesting
@testable import SeamServer

/// A live DASH session as a viewer gets it, over real HTTP on loopback: the demo origin's live
/// channel as MPEG-DASH (`/live-dash/manifest.mpd`: the sample looped as 6 s segments, one period
/// per pass, a 24 s SCTE-35 splice out every 42 s) through Seam with the demo's VMAP (its
/// mid-roll, ad3, is a 20 s DASH ad). The origin's clock is held still by the test (and moved by
/// it), so every reload sees the window the test chose, however slowly a loaded machine runs.
/// GStreamer following it in real time is in `DASHPlayerTests`.
@Suite struct LiveDASHEndToEndTests {
    /// The channel's segment 0 started at this instant (2026-01-01T00:00:00Z).
    static let epoch = 1_767_225_600.0
    /// Channel segment 17 opens a break (17 % 7 == 3); it starts 102 s after the epoch.
    static let breakStart = 102.0

    /// A clock the test moves: seconds since 1970.
    final class OriginClock: Sendable {
        private let seconds: NIOLockedValueBox<Double>
        init(_ seconds: Double) { self.seconds = NIOLockedValueBox(seconds) }
        var now: Double { seconds.withLockedValue { $0 } }
        func set(_ value: Double) { seconds.withLockedValue { $0 = value } }
    }

    /// Runs `body` with the origin's live clock at `elapsed` seconds after the epoch.
    /// - Parameters:
    ///   - slate: `live.dashSlateURL` is the demo's slate as an MPD (1 s segments).
    ///   - bumpers: `ads.bumpers.dashStartURL` and `dashEndURL` are the demo's bumper as an MPD (2 s).
    static func withStack(
        at elapsed: Double, slate: Bool = false, bumpers: Bool = false,
        _ adjust: @escaping @Sendable (inout SeamConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SeamStack, OriginClock) async throws -> Void
    ) async throws {
        let clock = OriginClock(epoch + elapsed)
        try await SeamStack.run(
            demo: { demo in
                demo.liveEpoch = epoch
                demo.liveClock = { clock.now }
            },
            configure: { configuration, demo in
                configuration.ads.trackingMode = "server"
                // Each request reads the origin again: the test moves its clock between them.
                configuration.live.originCacheSeconds = 0.001
                if slate { configuration.live.dashSlateURL = demo.origin.baseURL + "/media/slate/dash/manifest.mpd" }
                if bumpers {
                    let bumper = demo.origin.baseURL + "/media/bumper/dash/manifest.mpd"
                    configuration.ads.bumpers.dashStartURL = bumper
                    configuration.ads.bumpers.dashEndURL = bumper
                }
                adjust(&configuration)
            }
        ) { stack in try await body(stack, clock) }
    }

    @Test func aLiveMPDStartsALiveSessionWhoseBreakIsAnAdPeriodAtTheCuesTime() async throws {
        // Segments 13-18 are out: the break opened at 17 and two of its segments are published.
        // (The session joins with 6 s left of the break before, opened at 10: break 0, too
        // short for any ad, plays content.)
        try await Self.withStack(at: 116) { stack, clock in
            let session = try await stack.createSession(url: stack.demo.liveDASHURL)
            #expect(session["format"] as? String == "dash")
            let manifest = try #require(session["manifestUrl"] as? String)
            #expect(manifest.hasSuffix("/manifest.mpd"))
            let answer = try await stack.request(manifest)
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.header("content-type") == "application/dash+xml")
            let mpd = try MPD(parsing: answer.body)
            #expect(mpd.isDynamic)
            #expect(mpd.periods.map(\.id) == ["seam-content-78000", "seam-ad-1-0"])
            #expect(mpd.periods.map(\.start) == [78, Self.breakStart])
            #expect(mpd.periods[0].duration == 24)
            let errors = MPDValidator.check(mpd).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors)")
            // The content keeps the origin's addresses; the ad's media goes through Seam's route,
            // listing as much of it as the origin has published of the break (12 s of 20).
            let content = try #require(mpd.periods[0].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(content.media == stack.demo.origin.baseURL + "/live-dash/v0-$Number%03d$.m4s")
            #expect(content.startNumber == 14)
            let ad = try #require(mpd.periods[1].adaptationSets.first?.representations.first?.segmentTemplate)
            let sessionURL = manifest.replacingOccurrences(of: "/manifest.mpd", with: "")
            #expect(ad.media == sessionURL + "/ad/1/0/v0/$Number$.m4s")
            // The newest period, bounded by its own duration: fixed-length 5 s segments from 0
            // (GStreamer can start inside it).
            #expect(ad.timeline == nil)
            #expect(ad.duration == 64000)
            #expect(ad.startNumber == 0)
            #expect(mpd.periods[1].duration == 20)

            // Three segments later the break is over: the ad whole, content again at the origin's time.
            clock.set(Self.epoch + 134)
            let later = try MPD(parsing: try await stack.request(manifest).body)
            #expect(later.periods.map(\.id) == ["seam-content-78000", "seam-ad-1-0", "seam-content-126000"])
            #expect(later.periods.map(\.start) == [78, Self.breakStart, 126])
            // The ad lasts its 20 s; the break's content cover ended at 126 s, where content resumes.
            #expect(later.periods[1].duration == 20)
            // A gap follows it (no DASH slate here): its segments listed outright, the same numbers.
            let whole = try #require(later.periods[1].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(whole.timeline == [SegmentTimelineEntry(t: 0, d: 64000, r: 3)])
            #expect(whole.startNumber == 0)
            let resumed = try #require(later.periods[2].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(resumed.startNumber == 22)
            #expect(resumed.presentationTimeOffset == 6 * 12800)
            #expect(resumed.duration == 6 * 12800)
            // The newest content period runs a minute past what it lists...
            #expect(later.periods[2].duration == 66.0)
            // ...until the next break's splice out is published, a segment ahead of it: then it
            // ends where that break starts (144 s), and a player at the live edge waits for its ad.
            clock.set(Self.epoch + 145)
            let ahead = try MPD(parsing: try await stack.request(manifest).body)
            #expect(ahead.periods.last?.id == "seam-content-126000")
            #expect(ahead.periods.last?.duration == 18.0)

            // The ad segment route redirects to the creative and fires its beacons.
            let first = try await stack.request(sessionURL + "/ad/1/0/v0/0.m4s")
            #expect(first.status == 302)
            #expect(first.header("location") == stack.demo.adServer.baseURL + "/media/ads/ad3/dash/v0-001.m4s")
            #expect(try await LiveEndToEndTests.beaconCount(stack, path: "/track/ad3/impression", atLeast: 1) == 1)

            // The tracking JSON tells the break, and names the MPD as the session's rendering.
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avails = tracking["avails"] as? [[String: Any]] ?? []
            #expect(
                avails.map { ($0["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } } == [[], ["ad3"]])
            let renderings = tracking["renderings"] as? [[String: Any]] ?? []
            #expect(renderings.map { $0["manifestUrl"] as? String } == [manifest])

            // HLS paths of a DASH session name the URL to use.
            let hls = try await stack.request(sessionURL + "/master.m3u8")
            #expect(hls.status == 404)
            #expect(hls.body.contains("manifest.mpd"))
            let metrics = try await stack.request("/metrics").body
            #expect(
                metrics.split(separator: "\n").contains {
                    $0.hasPrefix("seam_sessions_created_total{") && $0.contains(#"format="dash""#)
                        && $0.contains(#"kind="live""#) && $0.hasSuffix(" 1")
                }, "\(metrics.split(separator: "\n").filter { $0.contains("sessions_created") })")
        }
    }

    /// The demo channel ends 144 s after its epoch (`?end=144`, the DASH-IF way): the session's
    /// MPD ends with it, still dynamic, with no `minimumUpdatePeriod` and its
    /// `mediaPresentationDuration` where its last period ends, and is answered the same from
    /// then on.
    @Test func aChannelThatEndsEndsTheSessionsMPD() async throws {
        try await Self.withStack(at: 130) { stack, clock in
            let session = try await stack.createSession(url: stack.demo.liveDASHURL + "?end=144")
            let manifest = try #require(session["manifestUrl"] as? String)
            let live = try MPD(parsing: try await stack.request(manifest).body)
            #expect(live.root[attribute: "minimumUpdatePeriod"] != nil)
            #expect(live.mediaPresentationDuration == nil)

            clock.set(Self.epoch + 150)
            let answer = try await stack.request(manifest)
            #expect(answer.status == 200, "\(answer.body)")
            let ended = try MPD(parsing: answer.body)
            #expect(ended.isDynamic)
            #expect(ended.root[attribute: "minimumUpdatePeriod"] == nil)
            #expect(ended.mediaPresentationDuration == 144)
            // Content resumed at 126 s after the break's ad, and lasts to the channel's end.
            let last = try #require(ended.periods.last)
            #expect(last.id == "seam-content-126000")
            #expect(last.start == 126)
            #expect(last.duration == 18)
            let errors = MPDValidator.check(ended).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors)")

            // Long after, the session still answers its last MPD.
            clock.set(Self.epoch + 400)
            let later = try await stack.request(manifest)
            #expect(later.status == 200, "\(later.body)")
            #expect(try MPD(parsing: later.body).mediaPresentationDuration == 144)
        }
    }

    /// With `live.dashSlateURL` (the demo's slate as an MPD, 1 s segments), the 4 s ad3 leaves of
    /// the 24 s break is a slate period between the ad and the content: the periods meet.
    @Test func aDASHSlateFillsWhatTheAdsLeaveSoThePeriodsMeet() async throws {
        try await Self.withStack(at: 134, slate: true) { stack, _ in
            let session = try await stack.createSession(url: stack.demo.liveDASHURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            // The session joined with segments 16-21 out: its break (0) opened at 17 (102 s).
            let mpd = try MPD(parsing: try await stack.request(manifest).body)
            #expect(
                mpd.periods.map(\.id) == ["seam-content-96000", "seam-ad-0-0", "seam-slate-0-0", "seam-content-126000"])
            #expect(mpd.periods.map(\.start) == [96, Self.breakStart, 122, 126])
            #expect(mpd.periods.map(\.duration) == [6, 20, 4, 66])
            // The slate plays from its own place (no beacons: it is no ad), its first four seconds.
            let slate = try #require(mpd.periods[2].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(slate.media == stack.demo.origin.baseURL + "/media/slate/dash/v0-$Number%03d$.m4s")
            // Periods that meet are written with fixed-length segments (GStreamer can start
            // inside them): the ad's 5 s, the slate's 1 s.
            #expect(slate.duration == 12800)
            #expect(slate.timeline == nil)
            let ad = try #require(mpd.periods[1].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(ad.duration == 64000)
            #expect(ad.timeline == nil)
            let errors = MPDValidator.check(mpd).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors)")
            // The slate is no ad: the break's ads are ad3 alone.
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = (tracking["avails"] as? [[String: Any]] ?? []).last
            #expect((avail?["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } == ["ad3"])
        }
    }

    /// DASH bumpers (`ads.bumpers.dashStartURL` / `dashEndURL`, 2 s) frame the break's ad as
    /// periods of their own, at the bumper's own addresses: 2 s + ad3's 20 s + 2 s fill the 24 s
    /// break, and the periods meet.
    @Test func dashBumpersFrameTheBreaksAdAsPeriodsOfTheirOwn() async throws {
        try await Self.withStack(at: 134, slate: true, bumpers: true) { stack, _ in
            let session = try await stack.createSession(url: stack.demo.liveDASHURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            let mpd = try MPD(parsing: try await stack.request(manifest).body)
            #expect(
                mpd.periods.map(\.id) == [
                    "seam-content-96000", "seam-bumper-0-start", "seam-ad-0-0", "seam-bumper-0-end",
                    "seam-content-126000",
                ])
            #expect(mpd.periods.map(\.start) == [96, Self.breakStart, 104, 124, 126])
            #expect(mpd.periods.map(\.duration) == [6, 2, 20, 2, 66])
            // A bumper plays from its own place (no beacons: it is no ad); the ad on Seam's route.
            let slate = stack.demo.origin.baseURL + "/media/slate/dash/"
            for bumper in [mpd.periods[1], mpd.periods[3]] {
                let template = try #require(bumper.adaptationSets.first?.representations.first?.segmentTemplate)
                #expect(template.media == slate + "v0-$Number%03d$.m4s")
                #expect(template.duration == 12800)
            }
            let ad = try #require(mpd.periods[2].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(ad.media?.contains("/ad/0/0/v0/$Number$") == true, "\(ad.media ?? "")")
            let errors = MPDValidator.check(mpd).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors)")
            // The tracking JSON lists the bumpers inside the break, and ad3 after the first.
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = try #require((tracking["avails"] as? [[String: Any]] ?? []).last)
            #expect((avail["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } == ["ad3"])
            #expect(
                (avail["bumpers"] as? [[String: Any]])?.compactMap { $0["position"] as? String } == ["start", "end"],
                "\(avail)")
            let metrics = try await stack.request("/metrics").body
            #expect(!metrics.contains("seam_bumpers_missed_total{"), "a DASH bumper was counted as missed")
        }
    }

    @Test func theImplicitRouteStartsTheSameLiveSession() async throws {
        try await Self.withStack(at: 90) { stack, _ in
            let path = stack.demo.liveDASHURL.replacingOccurrences(of: "http://", with: "")
            let redirect = try await stack.request("/v1/dash/\(path)?seam.scheme=http")
            #expect(redirect.status == 302)
            let location = try #require(redirect.header("location"))
            #expect(location.hasSuffix("/manifest.mpd"))
            let mpd = try MPD(parsing: try await stack.request(location).body)
            #expect(mpd.isDynamic)
            // Segments 9-14: the break at 10 (60 s) with its ad, content again at 14 (84 s).
            #expect(mpd.periods.map(\.id) == ["seam-content-54000", "seam-ad-0-0", "seam-content-84000"])
        }
    }

    @Test func aRenditionsFilterAppliesToTheContentAndTheAds() async throws {
        try await Self.withStack(at: 116) { stack, _ in
            let session = try await stack.createSession(
                ["renditions": ["maxBandwidth": 500_000]], url: stack.demo.liveDASHURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            let mpd = try MPD(parsing: try await stack.request(manifest).body)
            for period in mpd.periods {
                let video = period.adaptationSets.filter { $0.contentType == "video" }
                #expect(video.flatMap(\.representations).compactMap(\.bandwidth).allSatisfy { $0 <= 500_000 })
                #expect(video.flatMap(\.representations).count == 1, "\(period.id ?? "")")
            }
            let none = try await stack.request(
                "/v1/sessions", method: .POST,
                json: ["url": stack.demo.liveDASHURL, "renditions": ["maxBandwidth": 1000]])
            #expect(none.status == 400)
            #expect(none.body.contains("renditions"))
        }
    }
}

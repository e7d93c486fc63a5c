import DASH
import Foundation
import HTTPTypes
import Testing
import SeamTesting
@testable import SeamServer

/// A DASH VOD session of the demo title, as a viewer gets it: the MPD of `Samples/media/content/dash`
/// with the demo VMAP's breaks (pre-roll ad1 + ad2, a mid-roll at 30 s behind a wrapper, a
/// post-roll ad4), each ad from its own MPD (`Samples/media/ads/<ad>/dash`), over real HTTP on
/// loopback. The players' runs are in `DASHPlayerTests`.
@Suite struct DASHEndToEndTests {
    /// Content 60 s; ad1 10 s + ad2 15 s; ad3 20 s; ad4 6 s.
    static let expectedDuration = 111.0

    @Test func theStitchedMPDHasEveryAdAsAPeriodOnTheTracking() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession(url: stack.demo.dashContentURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            #expect(manifest.hasSuffix("/manifest.mpd"))
            #expect(session["format"] as? String == "dash")
            #expect(session["stitchedManifestUrl"] as? String == manifest)
            let answer = try await stack.request(manifest)
            #expect(answer.status == 200)
            #expect(answer.header("content-type") == "application/dash+xml")
            let mpd = try MPD(parsing: answer.body)
            #expect(!mpd.isDynamic)
            #expect(abs((mpd.mediaPresentationDuration ?? 0) - Self.expectedDuration) < 0.001)
            #expect(
                mpd.periods.map(\.id) == [
                    "seam-ad-preroll-0-0", "seam-ad-preroll-0-1", "0", "seam-ad-midroll-1-0", "0-30000",
                    "seam-ad-postroll-2-0",
                ])
            #expect(mpd.periods.map(\.start) == [0, 10, 25, 55, 75, 105])
            #expect(MPDValidator.check(mpd).isEmpty, "\(MPDValidator.check(mpd))")
            // The content keeps the origin's addresses: its BaseURL is the origin's folder.
            #expect(mpd.baseURLs == [stack.demo.origin.baseURL + "/media/content/dash/"])
            // An ad period plays in place of the content's sets: the same ids, video and audio.
            let ad = mpd.periods[0]
            #expect(ad.adaptationSets.map(\.id) == ["0", "1"])
            #expect(ad.adaptationSets.map(\.contentType) == ["video", "audio"])
            #expect(ad.adaptationSets[0].representations.map(\.id) == ["v0", "v1", "v2"])

            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avails = try #require(tracking["avails"] as? [[String: Any]])
            #expect(avails.map { $0["startTimeSeconds"] as? Double } == [0, 55, 105])
            #expect(avails.map { $0["durationSeconds"] as? Double } == [25, 20, 6])
            #expect(
                avails.map { ($0["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } ?? [] } == [
                    ["ad1", "ad2"], ["ad3"], ["ad4"],
                ])
            #expect(tracking["durationSeconds"] as? Double == Self.expectedDuration)
            // Operators see it: one DASH session, its three breaks filled.
            let metrics = try await stack.request("/metrics").body
            #expect(
                metrics.contains(#"seam_sessions_created_total{format="dash",kind="vod",mode="stitched"} 1"#)
                    || metrics.contains(#"seam_sessions_created_total{kind="vod",mode="stitched",format="dash"} 1"#),
                "\(metrics.split(separator: "\n").filter { $0.contains("sessions_created") })")
            let renderings = try #require(tracking["renderings"] as? [[String: Any]])
            #expect(renderings.map { $0["manifestUrl"] as? String } == [manifest])
        }
    }

    /// Server-side tracking: each ad segment's URL is Seam's, which redirects to the creative's
    /// segment and fires the events it reaches, once however many representations are fetched.
    @Test func adSegmentFetchesRedirectToTheCreativeAndFireEachBeaconOnce() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession(["trackingMode": "server"], url: stack.demo.dashContentURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            let mpd = try MPD(parsing: try await stack.request(manifest).body)
            let ad1 = mpd.periods[0]
            var redirects: [String] = []
            for set in ad1.adaptationSets {
                for representation in set.representations {
                    let template = try #require(representation.segmentTemplate)
                    #expect(
                        template.initialization?.hasPrefix(stack.demo.adServer.baseURL + "/media/ads/ad1/dash/") == true
                    )
                    let segments = template.segments(
                        representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                        periodDuration: ad1.duration)
                    for segment in segments {
                        #expect(
                            segment.url.hasPrefix(manifest.replacingOccurrences(of: "manifest.mpd", with: "ad/0/0/")))
                        let answer = try await stack.request(segment.url)
                        #expect(answer.status == 302)
                        redirects.append(answer.header("location") ?? "")
                    }
                }
            }
            // ad1 is 10 s of 5 s segments: video (three rungs) and audio, two each.
            #expect(redirects.count == 8)
            #expect(redirects.contains(stack.demo.adServer.baseURL + "/media/ads/ad1/dash/v0-001.m4s"))
            #expect(redirects.contains(stack.demo.adServer.baseURL + "/media/ads/ad1/dash/a-002.m4s"))
            let expected =
                ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                    "/track/ad1/\($0)"
                } + ["/track/preroll/breakStart"]
            await stack.drainBeacons()
            let received = try await VODEndToEndTests.beaconsOnceSent(stack, expected)
            #expect(received.sorted() == expected.sorted())
        }
    }

    /// The implicit form: `/v1/dash/<host>/<path>.mpd` starts a DASH session; the HLS paths of a
    /// DASH session, and `manifest.mpd` of an HLS one, say which URL to use.
    @Test func theImplicitRouteAndTheWrongFormatsPaths() async throws {
        try await SeamStack.run { stack in
            let host = "\(stack.demo.origin.host):\(stack.demo.origin.port)"
            let implicit = try await stack.request(
                "/v1/dash/\(host)/media/content/dash/manifest.mpd?seam.scheme=http")
            #expect(implicit.status == 302)
            let location = try #require(implicit.header("location"))
            #expect(location.hasSuffix("/manifest.mpd"))
            #expect(try await stack.request(location).status == 200)
            let master = try await stack.request(location.replacingOccurrences(of: "manifest.mpd", with: "master.m3u8"))
            #expect(master.status == 404)
            #expect(master.body.contains("manifest.mpd"))

            let wrongRoute = try await stack.request("/v1/hls/\(host)/media/content/dash/manifest.mpd?seam.scheme=http")
            #expect(wrongRoute.status == 400)
            #expect(wrongRoute.body.contains("/v1/dash/"))

            let hls = try #require(try await stack.createSession()["manifestUrl"] as? String)
            let mpd = try await stack.request(hls.replacingOccurrences(of: "master.m3u8", with: "manifest.mpd"))
            #expect(mpd.status == 404)
            #expect(mpd.body.contains("master.m3u8"))
        }
    }

    /// HLS-only options are refused for an MPD, naming the field, before anything is fetched.
    @Test func hlsOnlyOptionsAreRefusedForAnMPD() async throws {
        try await SeamStack.run { stack in
            for (extra, field) in [
                (["mode": "interstitials"], "mode"), (["adIdDecoration": true], "adIdDecoration"),
                (["renditions": ["maxHeight": 200]], "renditions"), (["policy": ["restrict": ["skip"]]], "policy"),
            ] as [([String: Any], String)] {
                var body: [String: Any] = ["url": stack.demo.dashContentURL]
                body.merge(extra) { $1 }
                let answer = try await stack.request("/v1/sessions", method: .POST, json: body)
                #expect(answer.status == 400, "\(field): \(answer.body)")
                #expect(answer.body.contains(field), "\(answer.body)")
            }
        }
    }

    /// An ad without a DASH rendition (only HLS and MP4 media files) is skipped with the reason,
    /// and the break plays the content.
    @Test func anAdWithoutAnMPDIsSkippedWithTheReason() async throws {
        try await SeamStack.run(adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" }) { stack in
            let session = try await stack.createSession(url: stack.demo.dashContentURL)
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = try #require((tracking["avails"] as? [[String: Any]])?.first)
            #expect(avail["skipReason"] as? String == "NO_VARIANT_MATCH", "\(avail)")
            let skipped = try #require(avail["skippedAds"] as? [[String: Any]])
            #expect((skipped.first?["reason"] as? String)?.contains("MPEG-DASH") == true, "\(skipped)")
            let mpd = try MPD(parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            #expect(mpd.periods.count == 1)
            #expect(mpd.mediaPresentationDuration == 60)
        }
    }

    /// A picture-in-picture session of a DASH session plays the main's MPD under its own id, and
    /// the two share one claim set: an ad segment fetched through each fires the ad's beacons once.
    @Test func aPictureInPictureSessionPlaysTheMainsMPDAndSharesItsBeacons() async throws {
        try await SeamStack.run { stack in
            let main = try await stack.createSession(["trackingMode": "server"], url: stack.demo.dashContentURL)
            let mainID = try #require(main["sessionId"] as? String)
            let pip = try await stack.createSession(["pipOf": mainID], url: stack.demo.dashContentURL)
            let pipID = try #require(pip["sessionId"] as? String)
            let manifest = try #require(pip["manifestUrl"] as? String)
            #expect(manifest.hasSuffix("/v1/sessions/\(pipID)/manifest.mpd"))
            let body = try await stack.request(manifest).body
            #expect(body.contains("/v1/sessions/\(pipID)/ad/0/0/v0/$Number$.m4s"))
            #expect(!body.contains(mainID))
            let first = "/v1/sessions/\(mainID)/ad/0/0/v0/0.m4s"
            #expect(try await stack.request(first).status == 302)
            #expect(try await stack.request(first.replacingOccurrences(of: mainID, with: pipID)).status == 302)
            await stack.drainBeacons()
            let expected = [
                "/track/ad1/impression", "/track/ad1/start", "/track/ad1/firstQuartile", "/track/preroll/breakStart",
            ]
            let received = try await VODEndToEndTests.beaconsOnceSent(stack, expected)
            #expect(received.sorted() == expected.sorted())
        }
    }

    /// A rendition filter keeps the content's and the ads' representations within it: every
    /// period of the stitched MPD offers 360p and 540p, none 720p.
    @Test func aRenditionFilterCutsEveryPeriodsLadder() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession(
                ["renditions": ["maxHeight": 540]], url: stack.demo.dashContentURL)
            let mpd = try MPD(parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            #expect(mpd.periods.count == 6)
            for period in mpd.periods {
                let video = period.adaptationSets.first { $0.contentType == "video" }?.representations ?? []
                #expect(video.map(\.height) == [360, 540], "\(period.id ?? "")")
                #expect(period.adaptationSets.contains { $0.contentType == "audio" })
            }
            #expect(MPDValidator.check(mpd).isEmpty)
            // Nothing passes: 400 naming the filter and the ladder.
            let refused = try await stack.request(
                "/v1/sessions", method: .POST,
                json: ["url": stack.demo.dashContentURL, "renditions": ["maxHeight": 200]])
            #expect(refused.status == 400)
            #expect(refused.body.contains("maxHeight 200") && refused.body.contains("720p"), "\(refused.body)")
        }
    }

    /// DASH bumpers (`ads.bumpers.dashStartURL` / `dashEndURL`, MPDs) frame every filled break as
    /// periods of their own, at the bumper's own addresses; the tracking JSON lists them inside the
    /// break, and the ads move on by their length.
    @Test func dashBumpersFrameEveryFilledBreak() async throws {
        try await SeamStack.run(configure: { configuration, demo in
            configuration.ads.bumpers.dashStartURL = demo.origin.baseURL + "/media/bumper/dash/manifest.mpd"
            configuration.ads.bumpers.dashEndURL = demo.origin.baseURL + "/media/bumper/dash/manifest.mpd"
            // What HLS sessions play: not a DASH session's, which plays the MPDs above.
            configuration.ads.bumpers.startURL = demo.origin.baseURL + "/media/bumper/master.m3u8"
        }) { stack in
            let session = try await stack.createSession(["trackingMode": "server"], url: stack.demo.dashContentURL)
            let mpd = try MPD(parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            // Three breaks of 2 s bumpers each side: 111 s and 12 s.
            #expect(abs((mpd.mediaPresentationDuration ?? 0) - 123) < 0.001)
            #expect(
                mpd.periods.map(\.id) == [
                    "seam-bumper-preroll-0-start", "seam-ad-preroll-0-0", "seam-ad-preroll-0-1",
                    "seam-bumper-preroll-0-end", "0",
                    "seam-bumper-midroll-1-start", "seam-ad-midroll-1-0", "seam-bumper-midroll-1-end", "0-30000",
                    "seam-bumper-postroll-2-start", "seam-ad-postroll-2-0", "seam-bumper-postroll-2-end",
                ])
            #expect(mpd.periods.map(\.start) == [0, 2, 12, 27, 29, 59, 61, 81, 83, 113, 115, 121])
            #expect(MPDValidator.check(mpd).isEmpty, "\(MPDValidator.check(mpd))")
            // A bumper fires nothing: its segments load from the slate's folder, not Seam's ad route.
            let bumper = mpd.periods[0]
            #expect(bumper.duration == 2)
            let slate = stack.demo.origin.baseURL + "/media/slate/dash/"
            for set in bumper.adaptationSets {
                for representation in set.representations {
                    let template = try #require(representation.segmentTemplate)
                    let segments = template.segments(
                        representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                        periodDuration: bumper.duration)
                    #expect(segments.count == 2)
                    #expect(segments.allSatisfy { $0.url.hasPrefix(slate) }, "\(segments.map(\.url))")
                    #expect(template.initialization?.hasPrefix(slate) == true)
                }
            }
            // The ads keep their numbers on Seam's ad segment route.
            let ad1 = try #require(mpd.periods[1].adaptationSets.first?.representations.first?.segmentTemplate)
            #expect(ad1.media?.contains("/ad/0/0/v0/$Number$") == true, "\(ad1.media ?? "")")

            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avails = try #require(tracking["avails"] as? [[String: Any]])
            #expect(avails.map { $0["startTimeSeconds"] as? Double } == [0, 59, 113])
            #expect(avails.map { $0["durationSeconds"] as? Double } == [29, 24, 10])
            #expect(
                avails.map { ($0["ads"] as? [[String: Any]])?.compactMap { $0["startTimeSeconds"] as? Double } ?? [] }
                    == [[2, 12], [61], [115]])
            let framed = avails.map { avail in
                ((avail["bumpers"] as? [[String: Any]]) ?? []).map {
                    "\($0["position"] as? String ?? "")@\($0["startTimeSeconds"] as? Double ?? -1)"
                }
            }
            #expect(framed == [["start@0.0", "end@27.0"], ["start@59.0", "end@81.0"], ["start@113.0", "end@121.0"]])
            #expect(tracking["durationSeconds"] as? Double == 123)
            let metrics = try await stack.request("/metrics").body
            #expect(!metrics.contains("dash_session"), "a DASH bumper was counted as missed")
            // Operators see them played: a start and an end bumper in each of the three breaks.
            let played = metrics.split(separator: "\n").filter { $0.hasPrefix("seam_bumpers_played_total{") }
            #expect(played.count == 2 && played.allSatisfy { $0.hasSuffix(" 3") }, "\(played)")
        }
    }

    /// An HLS bumper cannot play in a DASH session: where no DASH bumper is configured for its
    /// position the break goes without it, and each one it goes without is counted.
    @Test func anHLSOnlyBumperIsCountedAsMissedInADASHSession() async throws {
        try await SeamStack.run(configure: { configuration, demo in
            configuration.ads.bumpers.startURL = demo.origin.baseURL + "/media/bumper/master.m3u8"
            configuration.ads.bumpers.dashEndURL = demo.origin.baseURL + "/media/bumper/dash/manifest.mpd"
        }) { stack in
            let session = try await stack.createSession(url: stack.demo.dashContentURL)
            let mpd = try MPD(parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            #expect(
                mpd.periods.compactMap(\.id).filter { $0.hasPrefix("seam-bumper") } == [
                    "seam-bumper-preroll-0-end", "seam-bumper-midroll-1-end", "seam-bumper-postroll-2-end",
                ])
            let metrics = try await stack.request("/metrics").body.split(separator: "\n")
            let missed = metrics.filter { $0.hasPrefix("seam_bumpers_missed_total{") && $0.contains("dash_session") }
            // Three filled breaks (pre-, mid- and post-roll), one start bumper each.
            #expect(missed.count == 1 && missed.first?.hasSuffix(" 3") == true, "\(missed)")
            #expect(missed.first?.contains(#"position="start""#) == true, "\(missed)")
        }
    }
}

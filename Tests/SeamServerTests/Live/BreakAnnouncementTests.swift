import Foundation
import HLS
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SeamTesting
import Testing

@testable import SeamServer
@testable import Stitching

/// The break API: a break announced on a channel plays in every session of it, where its start
/// falls on the stream's clock, stitched and decided as a cued break; cancelled, it does not.
@Suite struct BreakAnnouncementTests {
    static let token = "break-api-token-for-tests-0123456789"
    /// The scripted origin's segment 21 starts here (segment k at 1_800_000_000 + 6k).
    static let segment21 = "2027-01-15T08:02:06Z"

    // MARK: The timeline

    /// A window of the scripted origin's shape: 6 s segments with program date-times.
    static func window(last: Int, size: Int = 6, dates: Bool = true) -> MediaPlaylist {
        let first = max(0, last - size + 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for k in first...last {
            if dates {
                text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_800_000_000 + Double(k) * 6).text)\n"
            }
            text += "#EXTINF:6.0,\nseg_\(k).ts\n"
        }
        return (try? MediaPlaylist(parsing: text)) ?? MediaPlaylist()
    }

    static func timeline() -> LiveTimeline { LiveTimeline(configuration: .init(targetDuration: 6)) }

    @Test(
        "The timeline opens an announced break at the first segment starting at (or just before) its start, whole; a late joiner gets the rest; once only",
        arguments: [
            // (start offset from segment 21, window end, expected break start sequence, elapsed)
            (0.0, 23, 21, 0.0),
            (0.4, 23, 21, 0.0),  // half a second early at most: segment 21 opens it
            (3.0, 23, 22, 0.0),  // mid-segment: the next segment opens it, whole
            (-12.0, 23, 19, 0.0),
        ])
    func opens(offset: Double, last: Int, sequence: Int, elapsed: Double) {
        var timeline = Self.timeline()
        _ = timeline.advance(with: Self.window(last: 18))
        let announced = AnnouncedBreak(id: "b1", start: 1_800_000_000 + 21 * 6 + offset, duration: 30)
        guard case .needsDecision(let item) = timeline.advance(with: Self.window(last: last), announced: [announced])
        else {
            Issue.record("no break opened")
            return
        }
        #expect(item.startSequence == sequence)
        #expect(item.signalID == "announced-b1")
        #expect(abs(item.elapsedAtJoin - elapsed) < 0.001)
        #expect(abs(item.duration - (30 - elapsed)) < 0.001)
        timeline.resolve(
            breakNumber: item.number,
            layout: LiveBreakLayout(slots: [], playedAds: [], trimmedAds: [], slateSeconds: 0, duration: 0))
        #expect(timeline.advance(with: Self.window(last: 40), announced: [announced]) == .upToDate)
        #expect(timeline.breaks.filter { $0.signalID == "announced-b1" }.count == 1)
    }

    @Test(
        "A session joining inside an announced break gets what is left of it; without program date-times nothing opens")
    func joiningAndNoClock() {
        var late = Self.timeline()
        let announced = AnnouncedBreak(id: "b2", start: 1_800_000_000 + 19 * 6, duration: 30)
        guard case .needsDecision(let item) = late.advance(with: Self.window(last: 24), announced: [announced]) else {
            Issue.record("the joiner got no break")
            return
        }
        #expect(item.startSequence == 19)
        var undated = Self.timeline()
        #expect(undated.advance(with: Self.window(last: 24, dates: false), announced: [announced]) == .upToDate)
    }

    // MARK: The API, in process on the test's clock

    func withLive(
        origin: ScriptedLiveOrigin, clock: TestClock, prefetchSeconds: Double = 0, prefetchSpread: Double = 0,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        configuration.live.breaksToken = Self.token
        configuration.live.prefetchSeconds = prefetchSeconds
        configuration.live.prefetchSpreadSeconds = prefetchSpread
        let app = try FaultMatrixApp.make(configuration, upstream: origin, clock: clock)
        try await app.test(.router) { client in try await body(client) }
    }

    func send(
        _ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method, json: String? = nil,
        token: String? = BreakAnnouncementTests.token
    ) async throws -> FaultMatrixApp.Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in FaultMatrixApp.Answer(status: Int(response.status.code), body: String(buffer: response.body)) }
    }

    func session(_ client: any TestClientProtocol) async throws -> (stitched: String, interstitials: String) {
        let created = try await client.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
        #expect(created.status == 201, "\(created.body)")
        let stitched = try #require(created.json["manifestUrl"] as? String)
        let interstitials = try #require(created.json["interstitialsManifestUrl"] as? String)
        let first = try MultivariantPlaylist(parsing: try await client.call(stitched).body).variants[0].uri
        let second = try MultivariantPlaylist(parsing: try await client.call(interstitials).body).variants[0].uri
        return (first, second)
    }

    @Test(
        "Announced through the API: every session of the channel plays it, stitched and as an interstitial, its ad parameters in the ad request; a cancelled break plays nothing"
    )
    func announcedBreakPlays() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        try await withLive(origin: origin, clock: clock) { client in
            let viewer = try await session(client)
            let body = """
                {"channelUrl":"\(ScriptedLiveOrigin.liveURL)","start":"\(Self.segment21)","durationSeconds":20,"adParams":{"campaign":"spring"}}
                """
            #expect(try await send(client, "/v1/admin/breaks", method: .post, json: body, token: nil).status == 401)
            let created = try await send(client, "/v1/admin/breaks", method: .post, json: body)
            #expect(created.status == 201, "\(created.body)")
            #expect(created.json["start"] as? String == "2027-01-15T08:02:06.000Z")
            let listed = try await send(client, "/v1/admin/breaks", method: .get)
            #expect((listed.json["breaks"] as? [[String: Any]])?.count == 1)

            // Another break, announced and cancelled before its time: it never plays.
            let later = """
                {"channelUrl":"\(ScriptedLiveOrigin.liveURL)","start":"2027-01-15T08:02:42Z","durationSeconds":12}
                """
            let cancelled = try await send(client, "/v1/admin/breaks", method: .post, json: later)
            let cancelledID = try #require(cancelled.json["breakId"] as? String)
            #expect(try await send(client, "/v1/admin/breaks/\(cancelledID)", method: .delete).status == 204)
            #expect(try await send(client, "/v1/admin/breaks/\(cancelledID)", method: .delete).status == 404)

            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            _ = try await client.call(viewer.stitched)
            let stitched = await liveEventually {
                guard let playlist = try? MediaPlaylist(parsing: (try? await client.call(viewer.stitched).body) ?? "")
                else { return false }
                return playlist.segments.filter { $0.uri.contains("/ad/0/") }.count == 4
            }
            #expect(stitched, "the announced break's 20 s ad is not stitched")
            let playlist = try MediaPlaylist(parsing: try await client.call(viewer.stitched).body)
            #expect(!playlist.segments.contains { $0.uri.hasSuffix("seg_21.ts") }, "segment 21 is replaced")
            let query = origin.script.withLockedValue { $0.queries["vast.xml"] } ?? ""
            #expect(query.contains("campaign=spring"), "\(query)")

            let interstitials = try await client.call(viewer.interstitials)
            #expect(interstitials.body.contains("com.apple.hls.interstitial"), "\(interstitials.body)")

            // Past the cancelled break's time: no second break.
            origin.update { $0.last = 32 }
            clock.advance(.milliseconds(1100))
            // (A reload may be answered from the last window while the channel refreshes.)
            let moved = await liveEventually {
                let playlist = try? MediaPlaylist(parsing: (try? await client.call(viewer.stitched).body) ?? "")
                return playlist?.segments.contains { $0.uri.hasSuffix("seg_32.ts") } == true
            }
            #expect(moved)
            let after = try MediaPlaylist(parsing: try await client.call(viewer.stitched).body)
            #expect(!after.segments.contains { $0.uri.contains("/ad/1/") }, "\(after.segments.map(\.uri))")
            #expect(after.segments.contains { $0.uri.hasSuffix("seg_28.ts") }, "\(after.segments.map(\.uri))")
            #expect(origin.requests("vast.xml") == 1)
        }
    }

    @Test(
        "With live.prefetchSeconds the announced break is decided before the live edge reaches it, once, and opens with its ads; the tracking JSON says it was prefetched"
    )
    func prefetched() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.last = 14 }
        let clock = TestClock()
        try await withLive(origin: origin, clock: clock, prefetchSeconds: 30) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let tracking = try #require(created.json["trackingUrl"] as? String)
            let media = try MultivariantPlaylist(parsing: try await client.call(manifest).body).variants[0].uri
            let body = """
                {"channelUrl":"\(ScriptedLiveOrigin.liveURL)","start":"\(Self.segment21)","durationSeconds":20}
                """
            #expect(try await send(client, "/v1/admin/breaks", method: .post, json: body).status == 201)
            // The live edge (the end of segment 16) is 24 s before the break: within the lead.
            origin.update { $0.last = 16 }
            clock.advance(.milliseconds(1100))
            let asked = await liveEventually {
                _ = try? await client.call(media)
                return origin.requests("vast.xml") == 1
            }
            #expect(asked, "no ad request before the break")
            // The break opens at segment 21, its decision already there: no second ad request.
            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            let stitched = await liveEventually {
                guard let playlist = try? MediaPlaylist(parsing: (try? await client.call(media).body) ?? "") else {
                    return false
                }
                return playlist.segments.filter { $0.uri.contains("/ad/0/") }.count == 4
            }
            #expect(stitched)
            #expect(origin.requests("vast.xml") == 1)
            let avails = try await client.call(tracking).json["avails"] as? [[String: Any]] ?? []
            #expect(avails.count == 1)
            #expect(avails.first?["prefetched"] as? Bool == true, "\(avails)")
        }
    }

    @Test(
        "A SCTE-35 date range the origin writes ahead of its START-DATE is decided within the prefetch lead, once, and opens at its start with its ads"
    )
    func cueAheadPrefetched() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.last = 14 }
        let clock = TestClock()
        try await withLive(origin: origin, clock: clock, prefetchSeconds: 30) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let tracking = try #require(created.json["trackingUrl"] as? String)
            let media = try MultivariantPlaylist(parsing: try await client.call(manifest).body).variants[0].uri
            // Segment 16 carries a 20 s break starting at segment 21: 24 s past the live edge.
            origin.update {
                $0.dateRangesAhead[16] = (id: "splice-1", start: 21, planned: 20)
                $0.last = 16
            }
            clock.advance(.milliseconds(1100))
            let asked = await liveEventually {
                _ = try? await client.call(media)
                return origin.requests("vast.xml") == 1
            }
            #expect(asked, "no ad request before the break")
            let before = try MediaPlaylist(parsing: try await client.call(media).body)
            #expect(!before.segments.contains { $0.uri.contains("/ad/") }, "the break does not open at its tag")
            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            let stitched = await liveEventually {
                guard let playlist = try? MediaPlaylist(parsing: (try? await client.call(media).body) ?? "") else {
                    return false
                }
                return playlist.segments.filter { $0.uri.contains("/ad/0/") }.count == 4
            }
            #expect(stitched)
            let playlist = try MediaPlaylist(parsing: try await client.call(media).body)
            #expect(playlist.segments.contains { $0.uri.hasSuffix("seg_20.ts") }, "content up to the splice point")
            #expect(!playlist.segments.contains { $0.uri.hasSuffix("seg_21.ts") }, "segment 21 is replaced")
            #expect(origin.requests("vast.xml") == 1)
            let avails = try await client.call(tracking).json["avails"] as? [[String: Any]] ?? []
            #expect(avails.count == 1)
            #expect(avails.first?["prefetched"] as? Bool == true, "\(avails)")
        }
    }

    @Test(
        "With a prefetch spread, a channel's sessions ask for an announced break over the lead, not all when the edge first reaches it; each asks once"
    )
    func prefetchSpread() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.last = 14 }
        let clock = TestClock()
        try await withLive(origin: origin, clock: clock, prefetchSeconds: 30, prefetchSpread: 24) { client in
            var playlists: [String] = []
            var leads: [Double] = []
            for _ in 0..<20 {
                let created = try await client.call(
                    "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
                let manifest = try #require(created.json["manifestUrl"] as? String)
                let text = try #require(created.json["sessionId"] as? String)
                let id = try #require(SessionID(text[...]))
                let lead = try #require(PrefetchLead.lead(for: id, seconds: 30, spread: 24)).components
                leads.append(Double(lead.seconds) + Double(lead.attoseconds) / 1e18)
                playlists.append(
                    try MultivariantPlaylist(parsing: try await client.call(manifest).body).variants[0].uri)
            }
            let body = """
                {"channelUrl":"\(ScriptedLiveOrigin.liveURL)","start":"\(Self.segment21)","durationSeconds":20}
                """
            #expect(try await send(client, "/v1/admin/breaks", method: .post, json: body).status == 201)
            // The edge moves a segment (6 s) at a time toward the break; every session reloads.
            var asked: [Int] = []
            for last in 15...19 {
                origin.update { $0.last = last }
                clock.advance(.milliseconds(1100))
                // (A reload may be answered from the last window while the channel refreshes.)
                let first = playlists[0]
                _ = await liveEventually {
                    let playlist = try? MediaPlaylist(parsing: (try? await client.call(first).body) ?? "")
                    return playlist?.segments.last?.uri.hasSuffix("seg_\(last).ts") == true
                }
                for url in playlists { _ = try await client.call(url) }
                // Exactly the sessions whose lead the edge (120 − 6·last s before the break) has
                // reached have asked: their prefetches run in the background, so wait for them.
                let ahead = 120 - 6 * Double(last)
                let due = leads.filter { $0 >= ahead }.count
                let reached = await liveEventually { origin.requests("vast.xml") >= due }
                #expect(reached, "\(origin.requests("vast.xml")) of \(due) asked at segment \(last)")
                #expect(origin.requests("vast.xml") == due, "segment \(last)")
                asked.append(origin.requests("vast.xml"))
            }
            // Leads from 6 to 30 s: by the edge 6 s before the break every session has asked, once;
            // not all at the first step, and some between (20 sessions all in one 6 s slice of the
            // 24 s spread: about 1 in 10^11).
            #expect(asked.last == 20, "\(asked)")
            #expect((asked.first ?? 0) < 20, "\(asked)")
            #expect(asked.contains { $0 > 0 && $0 < 20 }, "\(asked)")
            #expect(asked == asked.sorted(), "\(asked)")
        }
    }

    @Test("Bad announcements are refused with what to change")
    func refusals() async throws {
        let routes = BreakAnnouncementRoutes(
            announcements: BreakAnnouncements(), token: Self.token, shared: nil,
            clock: { Date(timeIntervalSince1970: 1_800_000_000) })
        let channel = "https://origin.test/live/master.m3u8"
        let cases: [(BreakAnnouncementBody, String)] = [
            (BreakAnnouncementBody(channelUrl: channel, durationSeconds: 30), "start"),
            (
                BreakAnnouncementBody(
                    channelUrl: channel, start: Self.segment21, startInSeconds: 5, durationSeconds: 30), "not both"
            ),
            (BreakAnnouncementBody(channelUrl: channel, start: "tomorrow", durationSeconds: 30), "ISO 8601"),
            (BreakAnnouncementBody(channelUrl: channel, startInSeconds: 5, durationSeconds: 0.5), "durationSeconds"),
            (
                BreakAnnouncementBody(channelUrl: "origin.test/live", startInSeconds: 5, durationSeconds: 30),
                "channelUrl"
            ),
            (BreakAnnouncementBody(channelUrl: channel, start: "2020-01-01T00:00:00Z", durationSeconds: 30), "over"),
        ]
        for (body, words) in cases {
            do {
                _ = try await routes.announce(body)
                Issue.record("accepted: \(words)")
            } catch {
                #expect(error.code == .invalidRequest)
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
        let accepted = try await routes.announce(
            BreakAnnouncementBody(channelUrl: channel, startInSeconds: 10, durationSeconds: 30))
        #expect(accepted.start == Date(timeIntervalSince1970: 1_800_000_010))
        do {
            _ = try BreakAnnouncementRoutes.decode(Data(#"{"channelUrl":"x","durationSecond":30}"#.utf8))
            Issue.record("an unknown field was accepted")
        } catch {
            #expect(error.message.contains("did you mean \"durationSeconds\""), "\(error.message)")
        }
    }

    @Test(
        "Replicas sharing PostgreSQL: a break announced through one reaches the others' channels at their next read; cancelled through another, it is gone everywhere"
    )
    func sharedThroughPostgres() async throws {
        guard PostgresTestDatabase.available else { return }
        try await PostgresTestDatabase.withStores(2) { stores in
            let registries = [BreakAnnouncements(), BreakAnnouncements()]
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let routes = (0..<2).map {
                BreakAnnouncementRoutes(
                    announcements: registries[$0], token: Self.token, shared: stores[$0], clock: { now })
            }
            let syncs = (0..<2).map {
                BreakAnnouncementSync(
                    shared: stores[$0], announcements: registries[$0], interval: .seconds(1), clock: { now },
                    logger: PostgresTestDatabase.logger)
            }
            let channel = "https://origin.test/live/master.m3u8"
            let announced = try await routes[0].announce(
                BreakAnnouncementBody(
                    channelUrl: channel, startInSeconds: 30, durationSeconds: 20, adParams: ["campaign": "spring"]))
            #expect(registries[1].breaks(for: channel).isEmpty, "not read yet")
            try await syncs[1].sync()
            #expect(registries[1].breaks(for: channel) == [announced.announced])
            #expect(registries[1].adParameters(forSignal: announced.announced.signalID) == ["campaign": "spring"])
            #expect(registries[1].breaks(for: "https://origin.test/other/master.m3u8").isEmpty)
            #expect(try await routes[1].cancel(announced.id))
            try await syncs[0].sync()
            #expect(registries[0].breaks(for: channel).isEmpty)
            #expect(try await routes[0].cancel(announced.id) == false)
        }
    }
}

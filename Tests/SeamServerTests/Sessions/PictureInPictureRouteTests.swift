import CompressNIO
import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Testing
import Stitching
@testable import SeamServer

/// Picture-in-picture sessions (`pipOf`) in process over the route harness's fakes: a pip shares
/// its main's decisions (no new ad request), has its own URLs and life, never fires a beacon its
/// main fired, and is refused clearly when it asks for what it cannot have.
@Suite struct PictureInPictureRouteTests {
    static let main = ["url": SessionRouteHarness.vodURL]

    static func create(_ client: any TestClientProtocol, _ json: [String: String]) async throws -> [String: Any] {
        let created = try await client.call("/v1/sessions", method: .post, json: json)
        #expect(created.status == 201, "\(created.body)")
        return created.json
    }

    static func id(_ created: [String: Any]) throws -> String {
        try #require(created["sessionId"] as? String)
    }

    /// The VOD session the harness's store holds under `id`.
    static func stored(_ harness: SessionRouteHarness, _ id: String) throws -> StitchedSession {
        let key = try #require(SessionID(id[...]))
        guard
            case .found(let stored) = harness.store.load(key, now: harness.clock.now, readAbove: nil, keptAlive: true),
            let record = stored.record
        else {
            throw SessionStoreError.unavailable(reason: "session \(id) is not stored")
        }
        return try #require(StitchedSession(record: record))
    }

    static func tracking(_ client: any TestClientProtocol, _ id: String) async throws -> TrackingDocument {
        let answer = try await client.call("/v1/sessions/\(id)/tracking")
        #expect(answer.status == 200, "\(answer.body)")
        return try JSONDecoder().decode(TrackingDocument.self, from: Data(answer.body.utf8))
    }

    /// What a player reads of the breaks: avails (id, position, cue point, times, skip reason,
    /// ads with their beacons, break beacons) and cue points; not the session's own URLs.
    static func breaks(_ document: TrackingDocument) -> String {
        let avails = document.avails.map { avail in
            "\(avail.availId) \(avail.position) \(avail.cuePoint) \(avail.startTimeSeconds) \(avail.durationSeconds) \(avail.skipReason ?? "-") "
                + avail.ads.map {
                    "\($0.adId) \($0.startTimeSeconds) \($0.durationSeconds) \($0.trackingEvents.map { "\($0.event)@\($0.startTimeSeconds)\($0.beaconUrls)" })"
                }.joined(separator: ",")
                + " \(avail.trackingEvents.map(\.event))"
        }
        return avails.joined(separator: "\n") + "\ncues \(document.cuePoints)"
    }

    @Test("A VOD pip shares the main's breaks, ads and cue points without asking the ad server, on its own URLs")
    func sharesDecisions() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let adRequests = harness.ads.requests
            let originRequests = harness.upstream.requests("https://origin.test/")
            let pip = try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID])
            let pipID = try Self.id(pip)
            #expect(pipID != mainID)
            #expect(harness.ads.requests == adRequests, "a pip asks the ad server nothing")
            #expect(harness.upstream.requests("https://origin.test/") == originRequests, "nor the origin")
            #expect((pip["manifestUrl"] as? String)?.hasSuffix("/v1/sessions/\(pipID)/master.m3u8") == true)

            let mainTracking = try await Self.tracking(client, mainID)
            let pipTracking = try await Self.tracking(client, pipID)
            #expect(!mainTracking.avails.isEmpty)
            #expect(Self.breaks(pipTracking) == Self.breaks(mainTracking))
            #expect(pipTracking.sessionId == pipID)
            #expect(pipTracking.trackingMode == mainTracking.trackingMode)
            #expect(pipTracking.renderings?.allSatisfy { $0.manifestUrl.contains("/v1/sessions/\(pipID)/") } == true)
            #expect(pipTracking.avails.allSatisfy { $0.assetListUrl?.contains("/v1/sessions/\(pipID)/") ?? true })

            // The same playlists but for the session's own id in every session URL.
            for path in ["master.m3u8", "media/v0.m3u8", "interstitials/master.m3u8", "interstitials/media/v0.m3u8"] {
                let mainBody = try await client.call("/v1/sessions/\(mainID)/\(path)").body
                let pipBody = try await client.call("/v1/sessions/\(pipID)/\(path)")
                #expect(pipBody.status == 200, "\(path)")
                #expect(!pipBody.body.contains(mainID), "\(path) names the main session")
                #expect(pipBody.body == mainBody.replacingOccurrences(of: mainID, with: pipID), "\(path)")
            }
            let media = try MediaPlaylist(parsing: try await client.call("/v1/sessions/\(pipID)/media/v0.m3u8").body)
            #expect(media.segments.first?.uri.hasSuffix("/v1/sessions/\(pipID)/ad/0/0/v0/0.ts") == true)
        }
    }

    @Test(
        "A pip's playlists are the main's with the pip's id, compressed again where the main's were: the gzip copy inflates to the pip's own bytes"
    )
    func gzippedPlaylists() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try #require(SessionID(try Self.id(try await Self.create(client, Self.main))[...]))
            let stored = try Self.stored(harness, mainID.value)
            // A title long enough for its playlist to be compressed (1 KiB and more).
            let v0 = try #require(RenditionKey("v0"))
            var long = stored.media[v0] ?? ByteBuffer()
            long.writeString(
                String(
                    repeating: "#EXT-X-COMMENT \(stored.id.value)\n"
                        + "\(SessionURLs(baseURL: "http://x", sessionID: mainID.value).media(v0))\n", count: 40))
            let compressedMain = try #require(VODSessionFactory.compressed(long))
            let main = StitchedSession(
                id: stored.id, contentURL: stored.contentURL, trackingMode: stored.trackingMode,
                multivariant: stored.multivariant,
                media: [v0: long], gzipped: [v0: compressedMain], tracking: stored.tracking,
                adSegments: stored.adSegments,
                beacons: stored.beacons, createdAt: stored.createdAt, mode: stored.mode,
                interstitials: stored.interstitials)
            let pipID = SessionIDKey.random().issue()
            let pip = PipSessionFactory().vod(main, id: pipID, mode: .stitched, createdAt: harness.clock.now)
            let body = try #require(pip.media[v0])
            #expect(!String(buffer: body).contains("/v1/sessions/\(mainID.value)/"))
            #expect(
                String(buffer: body)
                    == String(buffer: long).replacingOccurrences(
                        of: "/v1/sessions/\(mainID.value)/", with: "/v1/sessions/\(pipID.value)/"))
            var compressed = try #require(pip.gzipped[v0])
            #expect(try compressed.decompress(with: .gzip()) == body)
            #expect(pip.pipOf == mainID)
            #expect(pip.adSegments == main.adSegments)
        }
    }

    @Test("SessionURLRewrite replaces every session URL of the main, and hands a body without one back as it is")
    func rewrite() {
        let main = SessionIDKey.random().issue()
        let pip = SessionIDKey.random().issue()
        let rewrite = SessionURLRewrite(from: main, to: pip)
        let text =
            "http://a/v1/sessions/\(main.value)/master.m3u8 x /v1/sessions/\(main.value)/ad/0/0/v0/1.ts /v1/sessions/\(main.value)"
        #expect(
            rewrite(text)
                == "http://a/v1/sessions/\(pip.value)/master.m3u8 x /v1/sessions/\(pip.value)/ad/0/0/v0/1.ts /v1/sessions/\(main.value)"
        )
        let plain = ByteBuffer(string: "#EXTM3U\nad_0.ts\n")
        #expect(rewrite(plain) == plain)
        #expect(rewrite("") == "")
        var offset = ByteBuffer(string: "skip/v1/sessions/\(main.value)/tracking")
        offset.moveReaderIndex(forwardBy: 4)
        #expect(String(buffer: rewrite(offset)) == "/v1/sessions/\(pip.value)/tracking")
    }

    @Test("Server-side beacons fire once whether the main, the pip or both fetch an ad's segments")
    func beaconsFireOnce() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let pipID = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID]))
            // The pip plays the ad's first segment first, then the main plays the whole ad, then the pip does.
            #expect(
                try await client.redirect("/v1/sessions/\(pipID)/ad/0/0/v0/0.ts").location
                    == "https://ads.test/ad1/ad_0.ts")
            #expect(harness.beacons.urls == ["https://track.test/impression", "https://track.test/start"])
            for id in [mainID, pipID] {
                for segment in 0..<2 {
                    for rendition in ["v0", "v1"] {
                        _ = try await client.redirect("/v1/sessions/\(id)/ad/0/0/\(rendition)/\(segment).ts")
                    }
                }
            }
            #expect(
                harness.beacons.urls.sorted() == [
                    "https://track.test/complete", "https://track.test/impression", "https://track.test/start",
                ])
        }
    }

    @Test(
        "A pip keeps its own life: deleting or expiring the main leaves it serving (and never firing twice), and the other way round"
    )
    func ownLife() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let pipID = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID]))
            _ = try await client.redirect("/v1/sessions/\(mainID)/ad/0/0/v0/0.ts")
            #expect(try await client.call("/v1/sessions/\(mainID)", method: .delete).status == 204)
            #expect(try await client.call("/v1/sessions/\(mainID)/master.m3u8").status == 410)
            for path in ["master.m3u8", "media/v0.m3u8", "tracking", "interstitials/master.m3u8"] {
                #expect(try await client.call("/v1/sessions/\(pipID)/\(path)").status == 200, "\(path)")
            }
            // What the main fired stays fired; what it did not fires once, for the pip.
            _ = try await client.redirect("/v1/sessions/\(pipID)/ad/0/0/v0/0.ts")
            _ = try await client.redirect("/v1/sessions/\(pipID)/ad/0/0/v0/1.ts")
            _ = try await client.redirect("/v1/sessions/\(pipID)/ad/0/0/v1/1.ts")
            #expect(
                harness.beacons.urls == [
                    "https://track.test/impression", "https://track.test/start", "https://track.test/complete",
                ])
            #expect(try await client.call("/v1/sessions/\(pipID)/keepalive", method: .post).status == 200)

            // The main outlives its pip, too.
            let otherMain = try Self.id(try await Self.create(client, Self.main))
            let otherPip = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": otherMain]))
            #expect(try await client.call("/v1/sessions/\(otherPip)", method: .delete).status == 204)
            #expect(try await client.call("/v1/sessions/\(otherMain)/media/v0.m3u8").status == 200)

            // Expiry: the pip kept alive, the main not.
            let thirdMain = try Self.id(try await Self.create(client, Self.main))
            let thirdPip = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": thirdMain]))
            harness.clock.advance(by: SessionRouteHarness.ttlSeconds * 0.75)
            #expect(try await client.call("/v1/sessions/\(thirdPip)/keepalive", method: .post).status == 200)
            harness.clock.advance(by: SessionRouteHarness.ttlSeconds * 0.75)
            #expect(try await client.call("/v1/sessions/\(thirdMain)/master.m3u8").status == 410)
            #expect(try await client.call("/v1/sessions/\(thirdPip)/master.m3u8").status == 200)
        }
    }

    @Test("A pip may play the other rendering: its manifestUrl and asset lists are its own")
    func ownRenderingMode() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let pip = try await Self.create(
                client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID, "mode": "interstitials"])
            let pipID = try Self.id(pip)
            #expect(pip["mode"] as? String == "interstitials")
            #expect(
                (pip["manifestUrl"] as? String)?.hasSuffix("/v1/sessions/\(pipID)/interstitials/master.m3u8") == true)
            let tracking = try await Self.tracking(client, pipID)
            #expect(tracking.mode == .interstitials)
            #expect(try await Self.tracking(client, mainID).mode == .stitched)
            let assetList = try #require(tracking.avails.first?.assetListUrl)
            let list = try await client.call(assetList)
            #expect(list.status == 200, "\(list.body)")
            #expect(list.body.contains("/v1/sessions/\(pipID)/adplaylist/"))
            #expect(!list.body.contains(mainID))
        }
    }

    @Test("A pip of a pip plays the root main's decisions and claims in its set, even with the root gone")
    func pipOfPip() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let pipID = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID]))
            _ = try await client.redirect("/v1/sessions/\(mainID)/ad/0/0/v0/0.ts")
            #expect(try await client.call("/v1/sessions/\(mainID)", method: .delete).status == 204)
            let second = try Self.id(
                try await Self.create(client, ["url": SessionRouteHarness.vodURL, "pipOf": pipID]))
            let stored = try Self.stored(harness, second)
            #expect(stored.pipOf?.value == mainID)
            #expect(
                Self.breaks(try await Self.tracking(client, second))
                    == Self.breaks(try await Self.tracking(client, pipID)))
            _ = try await client.redirect("/v1/sessions/\(second)/ad/0/0/v0/0.ts")
            _ = try await client.redirect("/v1/sessions/\(second)/ad/0/0/v0/1.ts")
            _ = try await client.redirect("/v1/sessions/\(pipID)/ad/0/0/v0/1.ts")
            #expect(
                harness.beacons.urls == [
                    "https://track.test/impression", "https://track.test/start", "https://track.test/complete",
                ])
            #expect(harness.ads.requests == 1)
        }
    }

    @Test(
        "A main that expired or was ended is 410 SESSION_EXPIRED saying the main session is gone; nothing is fetched or stored"
    )
    func goneMain() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let ended = try Self.id(try await Self.create(client, Self.main))
            #expect(try await client.call("/v1/sessions/\(ended)", method: .delete).status == 204)
            let expired = try Self.id(try await Self.create(client, Self.main))
            harness.clock.advance(by: SessionRouteHarness.ttlSeconds + 1)
            let (adRequests, originRequests) = (harness.ads.requests, harness.upstream.requests("https://"))
            for main in [ended, expired] {
                let answer = try await client.call(
                    "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL, "pipOf": main])
                #expect(answer.status == 410, "\(answer.body)")
                #expect(answer.errorCode == "SESSION_EXPIRED")
                #expect(answer.errorMessage?.contains("main session \(main)") == true, "\(answer.body)")
                let implicit = try await client.call("/v1/hls/origin.test/vod/index.m3u8?seam.pipOf=\(main)")
                #expect(implicit.status == 410, "\(implicit.body)")
            }
            #expect(harness.ads.requests == adRequests)
            #expect(harness.upstream.requests("https://") == originRequests)
            #expect(harness.store.placesTaken == 0)
        }
    }

    @Test(
        "What a pip cannot ask for differently from its main is 400 INVALID_REQUEST naming it",
        arguments: [
            (["url": "https://origin.test/other/index.m3u8"], "plays its main's content"),
            (["trackingMode": "client"], "trackingMode must be the main session's (\"server\")"),
            (["adParams": "x"], "adParams does not apply"),
            (["contentId": "film-2"], "contentId does not apply"),
            (["palNonce": "n"], "palNonce does not apply"),
            (["policy": "x"], "policy must be the main session's or left out"),
        ])
    func refused(fields: [String: String], says: String) async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            // Objects where the request takes them.
            var body: [String: Any] = ["url": SessionRouteHarness.vodURL, "pipOf": mainID]
            for (key, value) in fields {
                body[key] =
                    ["adParams", "policy"].contains(key)
                    ? (key == "policy" ? ["repeat": "everyTime"] : ["site": value]) : value
            }
            let raw = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let answer = try await client.call("/v1/sessions", method: .post, rawJSON: raw)
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.errorCode == "INVALID_REQUEST")
            #expect(answer.errorMessage?.contains(says) == true, "\(answer.body)")
            #expect(harness.store.placesTaken == 1, "only the main holds a place")
        }
    }

    @Test(
        "The same content in another spelling is accepted; the tracking mode and policy may be named when they are the main's"
    )
    func acceptedSpellings() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            _ = try await Self.create(
                client, ["url": "HTTPS://Origin.Test:443/vod/index.m3u8", "pipOf": mainID, "trackingMode": "server"])
            // The main's policy (Seam's defaults) spelt out, as a client sending its main's options would.
            let policy = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "\#(mainID)", "policy": {"restrict": ["jump", "skip"], "repeat": "once"}}
                    """#)
            #expect(policy.status == 201, "\(policy.body)")
            let implicit = try await client.redirect(
                "/v1/hls/origin.test/vod/index.m3u8?seam.pipOf=\(mainID)&seam.mode=interstitials")
            #expect(implicit.status == 302, "\(String(describing: implicit.location))")
            #expect(implicit.location?.hasSuffix("/interstitials/master.m3u8") == true)
            #expect(implicit.location?.contains(mainID) == false)
            let withAds = try await client.call("/v1/hls/origin.test/vod/index.m3u8?seam.pipOf=\(mainID)&ads.site=news")
            #expect(withAds.status == 400)
            #expect(withAds.errorMessage?.hasPrefix("adParams does not apply") == true, "\(withAds.body)")
            #expect(harness.ads.requests == 1)
        }
    }

    @Test("A main made with a policy keeps it: a pip naming the same policy is accepted, another one refused")
    func mainPolicyIsKept() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let main = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "policy": {"restrict": ["jump"], "repeat": "once"}}
                    """#)
            #expect(main.status == 201, "\(main.body)")
            let mainID = try Self.id(
                try #require(try JSONSerialization.jsonObject(with: Data(main.body.utf8)) as? [String: Any]))
            let same = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "\#(mainID)", "policy": {"restrict": ["jump"], "repeat": "once"}}
                    """#)
            #expect(same.status == 201, "\(same.body)")
            let other = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "\#(mainID)", "policy": {"repeat": "everyTime"}}
                    """#)
            #expect(other.status == 400, "\(other.body)")
            // A pip shows its main's playlists as they are decorated: it cannot ask for its own.
            let decorated = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "\#(mainID)", "adIdDecoration": true}
                    """#)
            #expect(decorated.status == 400, "\(decorated.body)")
            #expect(decorated.body.contains("leave adIdDecoration out"), "\(decorated.body)")
            let filtered = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "\#(mainID)", "renditions": {"maxHeight": 360}}
                    """#)
            #expect(filtered.status == 400, "\(filtered.body)")
            #expect(filtered.body.contains("leave renditions out"), "\(filtered.body)")
        }
    }

    @Test("A pip plays its main's content even where the domain matcher now intercepts nothing: never a pass-through")
    func pipIsNeverAPassThrough() async throws {
        let intercepting = SessionRouteHarness()
        let mainID = try await intercepting.test { client in try Self.id(try await Self.create(client, Self.main)) }
        // The same store behind a Seam whose matcher intercepts nothing (a configuration change).
        let transparent = SessionRouteHarness { $0.domains.mode = .none }
        try await transparent.test(store: intercepting.store) { client in
            let plain = try await client.call("/v1/sessions", method: .post, json: Self.main)
            #expect(plain.status == 200)
            #expect(plain.json["intercepted"] as? Bool == false)
            let pip = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL, "pipOf": mainID])
            #expect(pip.status == 201, "\(pip.body)")
            let implicit = try await client.call("/v1/hls/origin.test/vod/index.m3u8?seam.pipOf=\(mainID)")
            #expect(implicit.status == 302, "\(implicit.body)")
        }
    }

    @Test("A pip session survives its record's round trip, pipOf included")
    func recordRoundTrip() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let mainID = try Self.id(try await Self.create(client, Self.main))
            let pipID = try Self.id(
                try await Self.create(
                    client, ["url": SessionRouteHarness.vodURL, "pipOf": mainID, "mode": "interstitials"]))
            let session = try Self.stored(harness, pipID)
            var request = SessionRequest(url: SessionRouteHarness.vodURL)
            request.pipOf = SessionID(mainID[...])
            request.trackingMode = .server
            let inputs = SessionInputs(
                request: request, deviceIP: nil, userAgent: nil, baseURL: "http://127.0.0.1:8080")
            let record = SessionRecord(.vod(session), inputs: inputs)
            let decoded = try SessionRecord(decoding: try record.encoded())
            #expect(decoded == record)
            #expect(decoded.inputs.request.pipOf?.value == mainID)
            let revived = try #require(StitchedSession(record: decoded))
            #expect(revived.pipOf?.value == mainID)
            #expect(SeamSession.vod(revived).beaconOwner.value == mainID)
            #expect(revived.mode == .interstitials)
            #expect(revived.multivariant == session.multivariant)
            #expect(revived.tracking == session.tracking)
        }
    }
}

extension SessionLookup {
    /// The VOD session found, if any (for tests).
    var vod: StitchedSession? {
        if case .found(.vod(let session)) = self { return session }
        return nil
    }
}

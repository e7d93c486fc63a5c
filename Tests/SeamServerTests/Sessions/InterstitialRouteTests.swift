import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Testing
import Stitching
@testable import SeamServer

/// The interstitials rendering through the routes, in process over the harness's fakes: one
/// session, both renderings, one decision per break, beacons once whichever rendering played.
@Suite struct InterstitialRouteTests {
    static func create(
        _ client: any TestClientProtocol, _ body: [String: String], userAgent: String? = nil
    ) async throws -> FaultMatrixApp.Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let userAgent { headers[.userAgent] = userAgent }
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await client.execute(
            uri: "/v1/sessions", method: .post, headers: headers, body: ByteBuffer(bytes: data)
        ) { response in
            FaultMatrixApp.Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }

    @Test(
        "mode interstitials: the primary carries one interstitial per break, its asset list points at a per-session ad asset whose segments fire the beacons once, shared with the stitched rendering"
    )
    func vodInterstitials() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let created = try await Self.create(client, ["url": SessionRouteHarness.vodURL, "mode": "interstitials"])
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.json["sessionId"] as? String)
            let manifest = try #require(created.json["manifestUrl"] as? String)
            #expect(manifest.hasSuffix("/v1/sessions/\(id)/interstitials/master.m3u8"))
            #expect(created.json["interstitialsManifestUrl"] as? String == manifest)
            #expect(
                (created.json["stitchedManifestUrl"] as? String)?.hasSuffix("/v1/sessions/\(id)/master.m3u8") == true)

            let master = try MultivariantPlaylist(parsing: try await client.call(manifest).body)
            let mediaURL = try #require(master.variants.first?.uri)
            #expect(mediaURL.hasSuffix("/v1/sessions/\(id)/interstitials/media/v0.m3u8"))
            let primary = try MediaPlaylist(parsing: try await client.call(mediaURL).body)
            // The content as it is: three origin segments, no ad segment.
            #expect(primary.segments.map(\.uri) == (0..<3).map { "https://origin.test/vod/seg_\($0).ts" })
            let ranges = primary.segments.flatMap(\.dateRanges)
            try #require(ranges.count == 1)
            #expect(
                ranges[0].id == "pre" && ranges[0].isInterstitial && ranges[0].cue == ["PRE", "ONCE"]
                    && ranges[0].duration == 8)
            #expect(primary.segments[0].programDateTime != nil)
            let assetListURL = try #require(ranges[0].assetList)
            #expect(assetListURL.hasSuffix("/v1/sessions/\(id)/assets/pre.json") && assetListURL.hasPrefix("http"))

            let list = try await client.call(assetListURL)
            #expect(list.status == 200)
            #expect(
                try await client.execute(uri: assetListURL, method: .get) { $0.headers[.contentType] }
                    == "application/json")
            let decoded = try JSONDecoder().decode(AssetList.self, from: Data(list.body.utf8))
            try #require(decoded.assets.count == 1)
            #expect(decoded.assets[0].duration == 8)
            let assetURL = decoded.assets[0].uri
            #expect(assetURL.hasPrefix("http") && assetURL.hasSuffix("/v1/sessions/\(id)/adplaylist/0/0/master.m3u8"))
            // The same bytes on every request: players stall when DURATION moves.
            #expect(try await client.call(assetListURL).body == list.body)

            let asset = try MultivariantPlaylist(parsing: try await client.call(assetURL).body)
            let variantURI = try #require(asset.variants.first?.uri)
            let adMediaURL = try #require(URL(string: variantURI, relativeTo: URL(string: assetURL))?.absoluteString)
            #expect(adMediaURL.hasSuffix("/v1/sessions/\(id)/adplaylist/0/0/media/v0.m3u8"))
            var adMedia = try MediaPlaylist(parsing: try await client.call(adMediaURL).body)
            #expect(adMedia.endList)
            // Segments relative to the asset's playlist, resolved as a player does.
            for index in adMedia.segments.indices {
                adMedia.segments[index].uri = try #require(
                    URL(string: adMedia.segments[index].uri, relativeTo: URL(string: adMediaURL))?.absoluteString)
            }
            #expect(
                adMedia.segments.map { String($0.uri.split(separator: "/v1/sessions/").last ?? "") }
                    == ["\(id)/adplaylist/0/0/media/v0/0.ts", "\(id)/adplaylist/0/0/media/v0/1.ts"])

            // Beacons: the asset's first segment fires impression and start; the stitched
            // rendering's same segment is the same address, so nothing fires twice.
            let first = try await client.redirect(adMedia.segments[0].uri)
            #expect(first.status == 302 && first.location == "https://ads.test/ad1/ad_0.ts")
            #expect(harness.beacons.urls == ["https://track.test/impression", "https://track.test/start"])
            let stitched = try MediaPlaylist(parsing: try await client.call("/v1/sessions/\(id)/media/v0.m3u8").body)
            _ = try await client.redirect(stitched.segments[0].uri)
            _ = try await client.redirect(adMedia.segments[1].uri)
            #expect(
                harness.beacons.urls == [
                    "https://track.test/impression", "https://track.test/start", "https://track.test/complete",
                ])
            // One decision for both renderings.
            #expect(harness.ads.requests == 1)

            let tracking = try JSONDecoder().decode(
                TrackingDocument.self, from: Data(try await client.call("/v1/sessions/\(id)/tracking").body.utf8))
            #expect(tracking.mode == .interstitials)
            #expect(tracking.renderings?.map(\.mode) == [.stitched, .interstitials])
            #expect(tracking.avails.first?.interstitialId == "pre")
            #expect(tracking.avails.first?.assetListUrl == assetListURL)

            #expect(try await client.call("/v1/sessions/\(id)/assets/mid-5000.json").errorCode == "RENDITION_NOT_FOUND")
            #expect(try await client.call("/v1/sessions/\(id)/assets/..%2Fpre.json").status == 404)
            #expect(try await client.call("/v1/sessions/\(id)/adplaylist/0/3/master.m3u8").status == 404)
            #expect(try await client.call("/v1/sessions/\(id)/adplaylist/0/0/media/v9.m3u8").status == 404)
            #expect(try await client.call("/v1/sessions/\(id)/interstitials/media/v9.m3u8").status == 404)
        }
    }

    @Test(
        "A break without ads: no interstitial in the primary, its asset list answers 200 with no assets, the tracking JSON says why"
    )
    func unfilledBreak() async throws {
        let harness = SessionRouteHarness()
        harness.ads.fills.withLockedValue { $0 = false }
        try await harness.test { client in
            let created = try await Self.create(client, ["url": SessionRouteHarness.vodURL, "mode": "interstitials"])
            let id = try #require(created.json["sessionId"] as? String)
            let primary = try await client.call("/v1/sessions/\(id)/interstitials/media/v0.m3u8").body
            #expect(!primary.contains("EXT-X-DATERANGE"))
            let list = try await client.call("/v1/sessions/\(id)/assets/pre.json")
            #expect(list.status == 200)
            #expect(list.body == #"{"ASSETS":[]}"#)
            let tracking = try JSONDecoder().decode(
                TrackingDocument.self, from: Data(try await client.call("/v1/sessions/\(id)/tracking").body.utf8))
            #expect(tracking.avails.first?.skipReason != nil)
            #expect(tracking.avails.first?.interstitialId == "pre")
        }
    }

    @Test(
        "The mode comes from the request, else the first User-Agent rule, else sessions.defaultMode; the implicit path takes seam.mode"
    )
    func modeSelection() async throws {
        let harness = SessionRouteHarness { $0.sessions.modeRules = ["AppleCoreMedia=interstitials"] }
        try await harness.test { client in
            let apple = try await Self.create(
                client, ["url": SessionRouteHarness.vodURL],
                userAgent: "AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X)")
            #expect(apple.json["mode"] as? String == "interstitials")
            #expect((apple.json["manifestUrl"] as? String)?.hasSuffix("/interstitials/master.m3u8") == true)
            let browser = try await Self.create(
                client, ["url": SessionRouteHarness.vodURL], userAgent: "Mozilla/5.0 Chrome/131")
            #expect(browser.json["mode"] as? String == "stitched")
            let explicit = try await Self.create(
                client, ["url": SessionRouteHarness.vodURL, "mode": "stitched"], userAgent: "AppleCoreMedia/1.0")
            #expect(explicit.json["mode"] as? String == "stitched")
            let implicit = try await client.redirect("/v1/hls/origin.test/vod/index.m3u8?seam.mode=interstitials")
            #expect(implicit.status == 302)
            #expect(implicit.location?.hasSuffix("/interstitials/master.m3u8") == true)
        }
        let defaulted = SessionRouteHarness { $0.sessions.defaultMode = "interstitials" }
        try await defaulted.test { client in
            let created = try await Self.create(client, ["url": SessionRouteHarness.vodURL])
            #expect(created.json["mode"] as? String == "interstitials")
        }
    }

    @Test("A live session serves its interstitials rendering; a resume offset on live is refused, not ignored")
    func live() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let refused = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"{"url": "\#(SessionRouteHarness.liveURL)", "policy": {"resumeOffset": 5}}"#)
            #expect(refused.status == 400, "\(refused.body)")
            #expect(refused.errorMessage?.contains("policy.resumeOffset") == true)
            let created = try await Self.create(client, ["url": SessionRouteHarness.liveURL, "mode": "interstitials"])
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let master = try MultivariantPlaylist(parsing: try await client.call(manifest).body)
            let media = try MediaPlaylist(parsing: try await client.call(try #require(master.variants.first?.uri)).body)
            #expect(media.mediaSequence == 100)
            #expect(media.segments.map(\.uri) == (100..<106).map { "https://origin.test/live/live_\($0).ts" })
            #expect(media.segments.allSatisfy { $0.programDateTime != nil })
        }
    }
}

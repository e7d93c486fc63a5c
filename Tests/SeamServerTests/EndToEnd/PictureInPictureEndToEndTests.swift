import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// A picture-in-picture session over real HTTP on loopback, against the demo ad server that
/// counts ad requests and beacons: the pip shares its main's decisions (no new ad request, the
/// same breaks), and every server-side beacon reaches the ad server once however many of the
/// two sessions play the ads.
@Suite(.serialized) struct PictureInPictureEndToEndTests {
    /// What a player reads of the breaks, without the session's own URLs.
    static func breaks(_ tracking: [String: Any]) -> String {
        let avails = (tracking["avails"] as? [[String: Any]] ?? []).map { avail in
            let ads = (avail["ads"] as? [[String: Any]] ?? []).map {
                "\($0["adId"] ?? "") \($0["startTimeSeconds"] ?? "") \($0["durationSeconds"] ?? "")"
            }
            return
                "\(avail["availId"] ?? "") \(avail["cuePoint"] ?? "") \(avail["startTimeSeconds"] ?? "") \(avail["durationSeconds"] ?? "") \(ads)"
        }
        return "\(avails) cues \(tracking["cuePoints"] ?? "")"
    }

    /// Fetches every ad segment of every rendition of a session's stitched rendering, as players
    /// of each variant would; how many.
    static func fetchEveryAdSegment(_ stack: SeamStack, manifest: String) async throws -> Int {
        let multivariant = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
        let playlists = multivariant.variants.map(\.uri) + multivariant.renditions.compactMap(\.uri)
        var fetched = 0
        for url in playlists {
            let media = try MediaPlaylist(parsing: try await stack.request(url).body)
            for segment in media.segments where segment.uri.contains("/ad/") {
                let answer = try await stack.request(segment.uri)
                #expect(answer.status == 302, "\(segment.uri): \(answer.body)")
                fetched += 1
            }
        }
        return fetched
    }

    @Test func aPipSharesTheMainsDecisionsAndEveryBeaconReachesTheAdServerOnce() async throws {
        try await SeamStack.run { stack in
            let main = try await stack.createSession(["trackingMode": "server"])
            let mainID = try #require(main["sessionId"] as? String)
            let adRequests = try await InterstitialsEndToEndTests.adRequestCount(stack)
            #expect(adRequests > 0)

            let pip = try await stack.createSession(["pipOf": mainID])
            let pipID = try #require(pip["sessionId"] as? String)
            #expect(pipID != mainID)
            #expect(
                try await InterstitialsEndToEndTests.adRequestCount(stack) == adRequests, "the pip asked the ad server")

            let mainTracking = try await stack.request(try #require(main["trackingUrl"] as? String)).json
            let pipTracking = try await stack.request(try #require(pip["trackingUrl"] as? String)).json
            #expect(pipTracking["cuePoints"] as? [Double] == [0, 30, -1])
            #expect(Self.breaks(pipTracking) == Self.breaks(mainTracking))
            #expect(pipTracking["sessionId"] as? String == pipID)

            // Both play every ad of the title, in every rendition.
            let mainManifest = try #require(main["manifestUrl"] as? String)
            let pipManifest = try #require(pip["manifestUrl"] as? String)
            #expect(try await Self.fetchEveryAdSegment(stack, manifest: pipManifest) > 0)
            #expect(try await Self.fetchEveryAdSegment(stack, manifest: mainManifest) > 0)
            let expected = VODEndToEndTests.everyBeaconOfTheTitle
            _ = try await VODEndToEndTests.beaconsOnceSent(stack, expected)
            // Beacons are sent in the background: give a duplicate time to arrive.
            try await Task.sleep(for: .milliseconds(500))
            let sent = try await stack.beacons()
            #expect(sent.sorted() == expected.sorted())

            // The main ends; the pip plays on, and still fires nothing twice.
            #expect(try await stack.request("/v1/sessions/\(mainID)", method: .DELETE).status == 204)
            #expect(try await stack.request(mainManifest).status == 410)
            #expect(try await stack.request(pipManifest).status == 200)
            #expect(try await Self.fetchEveryAdSegment(stack, manifest: pipManifest) > 0)
            try await Task.sleep(for: .milliseconds(500))
            let after = try await stack.beacons()
            #expect(after.sorted() == expected.sorted())
            #expect(try await InterstitialsEndToEndTests.adRequestCount(stack) == adRequests)
        }
    }

    @Test func pipErrorsSayWhatIsWrong() async throws {
        try await SeamStack.run { stack in
            let unknown = String(repeating: "a", count: SessionID.length)
            let missing = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "pipOf": unknown])
            #expect(missing.status == 404)
            #expect(missing.errorCode == "SESSION_NOT_FOUND")
            #expect(missing.body.contains("main session"), "\(missing.body)")

            let main = try #require(try await stack.createSession()["sessionId"] as? String)
            let other = try await stack.request(
                "/v1/sessions", method: .POST,
                json: ["url": stack.demo.origin.baseURL + "/media/other/master.m3u8", "pipOf": main])
            #expect(other.status == 400)
            #expect(other.body.contains("a picture-in-picture session plays its main's content"), "\(other.body)")

            #expect(try await stack.request("/v1/sessions/\(main)", method: .DELETE).status == 204)
            let gone = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "pipOf": main])
            #expect(gone.status == 410)
            #expect(gone.errorCode == "SESSION_EXPIRED")
        }
    }
}

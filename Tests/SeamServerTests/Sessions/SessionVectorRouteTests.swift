import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import SeamTesting
import Stitching
import Testing
import VAST
@testable import SeamServer

/// A demuxed hls-splice title and ad through the real session routes, in process: the origin
/// and the ad CDN answer the vector files from memory (`FakeUpstream`), the ad server always
/// answers one ad. What a player sees in the session's audio playlists is the ad audio that
/// matches each content audio rendition.
@Suite struct SessionVectorRouteTests {
    static let contentURL = "https://origin.test/hls1/master.m3u8"
    static let adURL = "https://ads.test/ad1/master.m3u8"

    /// The vectors the Stitching tests replay (`Tests/StitchingTests/Resources/hls-splice`),
    /// read from the source tree: this target has no resources of its own.
    static func vectorFolder(_ folder: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("StitchingTests/Resources/hls-splice/" + folder)
    }

    /// Every file of a vector folder, served under `base` (`edit` applied to the multivariant).
    static func routes(
        _ folder: String, at base: String, master: String = "master.m3u8",
        edit: (String) -> String = { $0 }
    ) throws -> [String: FakeRoute] {
        let directory = vectorFolder(folder)
        var routes: [String: FakeRoute] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".m3u8") {
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
            routes[base + name] = .body(name == master ? edit(text) : text)
        }
        return routes
    }

    /// The session routes over `upstream`, with an ad server that answers one ad of `adURL`.
    static func app(_ upstream: FakeUpstream) throws -> some ApplicationProtocol {
        var configuration = SeamConfiguration()
        configuration.ads.adTagURL = "https://ads.test/vast"
        // The fakes answer at once; the default budget (a request's 2 s) ran out once in a
        // stress run, 28 s into the suite, and the session then played no ad (as
        // `SessionRouteHarness` says).
        SeamStack.useGenerousTimeOuts(&configuration)
        let services = SeamServices(
            configuration: configuration, logger: SessionRouteHarness.quietLogger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains),
            metrics: SeamMetrics(), sessionIDs: SessionIDKey.random())
        let clock = TestDateClock(SessionRouteHarness.start)
        let routes = SessionRoutes(
            services: services, ads: OneVectorAd(), beacons: RecordedBeacons(),
            store: InMemorySessionStore(ttlSeconds: 60, maxSessions: 10),
            clock: { clock.now })
        return buildSeamApplication(
            configuration: configuration, logger: SessionRouteHarness.quietLogger, routes: [routes])
    }

    @Test(
        "demux/hls1 with demux/ad1: each audio playlist of the session plays the ad audio of its own group and language"
    )
    func audioPlaylistsReferenceTheMatchingAdAudio() async throws {
        // Derived: the ad's variants point at the video playlists the vector ships (it lists `_av`, ships `_v`).
        let upstream = FakeUpstream(
            try Self.routes("demux/hls1", at: "https://origin.test/hls1/")
                .merging(
                    try Self.routes("demux/ad1", at: "https://ads.test/ad1/") {
                        $0.replacingOccurrences(of: "_av.m3u8", with: "_v.m3u8")
                    }
                ) { $1 })
        try await Self.app(upstream).test(.router) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": Self.contentURL, "trackingMode": "client"])
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let multivariant = try MultivariantPlaylist(parsing: try await client.call(manifest).body)
            let audio = multivariant.renditions.filter { $0.type == .audio }
            #expect(audio.count == 4)
            var seen: [String] = []
            for rendition in audio {
                let uri = try #require(rendition.uri)
                let playlist = try MediaPlaylist(parsing: try await client.call(uri).body)
                let adSegments = playlist.segments.map(\.uri).filter { $0.hasPrefix("https://ads.test/") }
                // mono sv → msv, stereo en → sen: the same group (the vectors declare no CHANNELS) and language.
                let tag = "\(rendition.groupID.prefix(1))\(rendition.language ?? "")"
                #expect(
                    adSegments == (1...5).map { "https://ads.test/ad1/ad\($0)_\(tag)_a.ts" },
                    "\(rendition.groupID) \(rendition.language ?? "")")
                #expect(playlist.endList)
                seen.append(tag)
            }
            #expect(Set(seen) == ["msv", "men", "ssv", "sen"])
            let tracking = try JSONDecoder().decode(
                TrackingDocument.self,
                from: Data(
                    try await client.call("/v1/sessions/\(created.json["sessionId"] as? String ?? "")/tracking").body
                        .utf8))
            #expect(tracking.avails.first?.ads.map(\.adId) == ["vector-ad"])
        }
    }

    @Test(
        "hls_subtitles: a subtitle playlist without ENDLIST next to finished video starts a VOD session with its ad; every playlist ends"
    )
    func unfinishedSubtitlesStartAVODSession() async throws {
        let upstream = FakeUpstream(
            try Self.routes("hls_subtitles/hls1", at: "https://origin.test/subs/")
                .merging(try Self.routes("hls_subtitles/ad1_subs", at: "https://ads.test/ad1/")) { $1 }
                .merging([
                    "https://ads.test/ad1/master.m3u8": .body(
                        try String(contentsOf: Self.vectorFolder("hls_subtitles/ad1_subs/index.m3u8"), encoding: .utf8))
                ]) { $1 })
        try await Self.app(upstream).test(.router) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post,
                json: ["url": "https://origin.test/subs/index.m3u8", "trackingMode": "client"])
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let multivariant = try MultivariantPlaylist(parsing: try await client.call(manifest).body)
            let subtitlesURI = try #require(multivariant.renditions.first { $0.type == .subtitles }?.uri)
            let subtitles = try await client.call(subtitlesURI).body
            #expect(subtitles.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
            #expect(subtitles.hasSuffix("#EXT-X-ENDLIST\n"))
            // The ad's own French subtitles, as the ad's video plays.
            #expect(
                MediaPlaylist.segmentURIs(subtitles).prefix(2) == [
                    "https://ads.test/ad1/ad0.webvtt", "https://ads.test/ad1/ad1.webvtt",
                ])
            let video = try await client.call(try #require(multivariant.variants.first?.uri)).body
            #expect(video.hasSuffix("#EXT-X-ENDLIST\n"))
            #expect(
                MediaPlaylist.segmentURIs(video).prefix(2) == [
                    "https://ads.test/ad1/ad00.ts", "https://ads.test/ad1/ad01.ts",
                ])
        }
    }

    @Test("E-AC-3 content and an AAC-only ad: the session plays no ad, the avail says NO_VARIANT_MATCH and why")
    func otherAudioCodecIsSkippedWithItsReason() async throws {
        // Derived: the variants name the audio group the renditions are in, content relabelled
        // E-AC-3; the ad's second variant points at the one video playlist `demux/ad6` ships.
        let declared: (String) -> String = {
            $0.replacingOccurrences(of: #"AUDIO="mono""#, with: #"AUDIO="audio""#).replacingOccurrences(
                of: #"AUDIO="stereo""#, with: #"AUDIO="audio""#)
        }
        let upstream = FakeUpstream(
            try Self.routes("demux/hls3_v_a_s", at: "https://origin.test/hls1/") {
                declared($0).replacingOccurrences(of: "mp4a.40.2", with: "ec-3")
            }.merging(
                try Self.routes("demux/ad6", at: "https://ads.test/ad1/") {
                    declared($0).replacingOccurrences(of: "index_1_v.m3u8", with: "index_0_v.m3u8")
                }
            ) { $1 })
        try await Self.app(upstream).test(.router) { client in
            let created = try await client.call("/v1/sessions", method: .post, json: ["url": Self.contentURL])
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.json["sessionId"] as? String)
            let tracking = try JSONDecoder().decode(
                TrackingDocument.self, from: Data(try await client.call("/v1/sessions/\(id)/tracking").body.utf8))
            let avail = try #require(tracking.avails.first)
            #expect(avail.skipReason == "NO_VARIANT_MATCH")
            #expect(avail.ads.isEmpty)
            #expect(avail.skippedAds.map(\.adId) == ["vector-ad"])
            let reason = avail.skippedAds.first?.reason ?? ""
            #expect(reason.contains("ec-3") && reason.contains("mp4a.40.2"), "\(reason)")
            let media = try MediaPlaylist(parsing: try await client.call("/v1/sessions/\(id)/media/a0.m3u8").body)
            // Nothing spliced: no discontinuity, no ad segment (routed through Seam or not).
            #expect(
                !media.segments.contains { $0.discontinuity || $0.uri.contains("/ad/") || $0.uri.contains("ads.test") })
            #expect(media.segments.count > 0)
        }
    }
}

extension MediaPlaylist {
    /// The segment URIs of a playlist's text (empty when it does not parse).
    static func segmentURIs(_ text: String) -> [String] {
        ((try? MediaPlaylist(parsing: text))?.segments ?? []).map(\.uri)
    }
}

/// An ad server that fills every break with one 15 s ad of `SessionVectorRouteTests.adURL`.
final class OneVectorAd: AdDecisionProviding, Sendable {
    static var ad: ResolvedAd { ResolvedAd(adID: "vector-ad", duration: 15, hlsURL: SessionVectorRouteTests.adURL) }

    func requestAdTag(
        context: AdRequestContext, template: String, deadline: ContinuousClock.Instant
    ) async -> AdTagAnswer {
        .vast(VASTDocument(version: "4.2"), url: template)
    }

    func decide(
        _ document: VASTDocument, documentURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        AdBreakDecision(ads: [Self.ad])
    }

    func decideBreak(
        _ adBreak: VMAPAdBreak, vmapURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        AdBreakDecision(ads: [Self.ad])
    }
}

import Foundation
import HLS
import SeamTesting
import Stitching
import Testing

@testable import SeamServer

/// Ad-ID decoration on loopback: asked in the body, on the implicit URL or by configuration;
/// every stitched rendition carries the same ranges, the validator and `seam validate`'s check
/// find nothing, a live session's ranges stay the same across reloads; refused values name the field.
@Suite struct AdIDDecorationEndToEndTests {
    /// Every media playlist of a stitched session's multivariant playlist.
    static func media(_ stack: SeamStack, master url: String) async throws -> [(String, MediaPlaylist)] {
        let master = try MultivariantPlaylist(parsing: try await stack.request(url).body)
        var out: [(String, MediaPlaylist)] = []
        for uri in master.variants.map(\.uri) + master.renditions.compactMap(\.uri) {
            let resolved = URIReference.resolve(uri, against: url)
            let answer = try await stack.request(resolved)
            #expect(answer.status == 200, "\(resolved): \(answer.body)")
            let report = PlaylistValidator.validate(answer.body, source: resolved)
            #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics)")
            let playlist = try MediaPlaylist(parsing: answer.body)
            #expect(AdIDDecoration.check(playlist).isEmpty, "\(AdIDDecoration.check(playlist))")
            out.append((resolved, playlist))
        }
        #expect(RenditionSetValidator.check(out).isEmpty, "\(RenditionSetValidator.check(out))")
        return out
    }

    static func adRanges(_ playlist: MediaPlaylist) -> [DateRange] {
        playlist.segments.flatMap(\.dateRanges).filter { $0.dateRangeClass == AdIDDecoration.adClass }
    }

    @Test(
        "VOD: the body's adIdDecoration writes one range per ad (the demo's ad1, ad2, ad3, ad4) in every rendition; without it none"
    )
    func vodBodyOption() async throws {
        try await SeamStack.run { stack in
            let decorated = try await stack.createSession(["adIdDecoration": true])
            let playlists = try await Self.media(stack, master: try #require(decorated["manifestUrl"] as? String))
            for (url, playlist) in playlists where !url.contains("subtitle") {
                #expect(
                    Self.adRanges(playlist).map { $0.attributes.string("X-AD-ID") } == ["ad1", "ad2", "ad3", "ad4"],
                    "\(url)")
            }
            let plain = try await stack.createSession()
            for (_, playlist) in try await Self.media(stack, master: try #require(plain["manifestUrl"] as? String)) {
                #expect(playlist.segments.allSatisfy { $0.dateRanges.isEmpty })
            }
            let refused = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "adIdDecoration": "yes"])
            #expect(refused.status == 400)
            #expect(refused.body.contains("adIdDecoration must be true or false"), "\(refused.body)")
        }
    }

    @Test(
        "Implicit sessions take seam.adIdDecoration=true; another value is 400 naming it; sessions.adIdDecoration makes it the default"
    )
    func implicitAndConfiguration() async throws {
        try await SeamStack.run { stack in
            let path =
                "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8?seam.scheme=http"
            let implicit = try await stack.request(path + "&seam.adIdDecoration=true")
            #expect(implicit.status == 302)
            let playlists = try await Self.media(stack, master: try #require(implicit.header("location")))
            #expect(Self.adRanges(try #require(playlists.first?.1)).count == 4)
            let refused = try await stack.request(path + "&seam.adIdDecoration=1")
            #expect(refused.status == 400)
            #expect(refused.errorCode == "INVALID_REQUEST")
            #expect(refused.body.contains("seam.adIdDecoration must be one of"), "\(refused.body)")
        }
        try await SeamStack.run({ $0.sessions.adIdDecoration = true }) { stack in
            let session = try await stack.createSession()
            let playlists = try await Self.media(stack, master: try #require(session["manifestUrl"] as? String))
            #expect(Self.adRanges(try #require(playlists.first?.1)).count == 4)
            // The request says no: no ranges, whatever the default.
            let off = try await stack.createSession(["adIdDecoration": false])
            let offPlaylists = try await Self.media(stack, master: try #require(off["manifestUrl"] as? String))
            #expect(Self.adRanges(try #require(offPlaylists.first?.1)).isEmpty)
        }
    }

    @Test(
        "Live: the break's and the ad's ranges, dated by the origin's program date-times, the same on every reload and rendition"
    )
    func liveRangesAreStable() async throws {
        let origin = ScriptedLiveOrigin.thirtySecondBreak()
        try await SeamStack.runLive(origin: origin, { $0.live.originCacheSeconds = 0.1 }) { stack, channel in
            let session = try await stack.createSession(["adIdDecoration": true], url: channel)
            let master = try #require(session["manifestUrl"] as? String)
            let first = try await Self.media(stack, master: master)
            let breakStart = 1_800_000_000 + 10 * 6.0
            for (url, playlist) in first {
                let ranges = playlist.segments.flatMap(\.dateRanges).filter { $0.id.hasPrefix("seam-") }
                #expect(ranges.map { $0.id.hasPrefix("seam-break-") } == [true, false, false], "\(url)")
                #expect(ranges.first?.startDate?.secondsSince1970 == breakStart)
                // What the break replaces: the two ads (no slate is set, so content resumes after them).
                #expect(ranges.first?.plannedDuration == 25)
                #expect(Self.adRanges(playlist).map { $0.attributes.string("X-AD-ID") } == ["ad1", "ad2"])
                #expect(
                    Self.adRanges(playlist).map { $0.startDate?.secondsSince1970 } == [breakStart, breakStart + 10])
                #expect(Self.adRanges(playlist).map(\.plannedDuration) == [10, 15])
            }
            // The origin moves on two segments: the same ranges, attribute for attribute.
            origin.update { $0.last = 16 }
            let firstURL = try #require(first.first?.0)
            let moved = await liveEventually {
                let body = (try? await stack.request(firstURL).body) ?? ""
                return (try? MediaPlaylist(parsing: body))?.segments.last?.uri.contains("seg_16") == true
            }
            #expect(moved, "the origin's new window never showed")
            let second = try await Self.media(stack, master: master)
            for ((url, before), (_, after)) in zip(first, second) {
                let old = Dictionary(
                    uniqueKeysWithValues: before.segments.flatMap(\.dateRanges).map { ($0.id, $0) })
                for range in after.segments.flatMap(\.dateRanges) where range.id.hasPrefix("seam-") {
                    #expect(old[range.id] == range, "\(url): \(range.id) changed")
                }
            }
        }
    }
}

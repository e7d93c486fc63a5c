import Foundation
import HLS
import Testing

@testable import Stitching

/// Ad-ID decoration of the stitched rendering: one SVTA2053 date range per ad and one per break,
/// the same in every rendition, dated on the stitched timeline, read back by the validator.
@Suite struct AdIDDecorationTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
    var plan: BreakPlan { InterstitialRendererTests().plan }

    func decorated(_ mode: TrackingMode = .client) -> VODStitcher.Stitched {
        let title = TitleFixture.title()
        var stitched = VODStitcher.stitch(title, plan: plan, mode: mode, urls: urls)
        AdIDDecoration.decorateVOD(
            &stitched.media, plan: plan, tracking: stitched.tracking, mode: mode,
            epoch: InterstitialRenderer.anchor(of: title.reference))
        return stitched
    }

    static func ranges(_ playlist: MediaPlaylist?) -> [DateRange] {
        playlist?.segments.flatMap(\.dateRanges) ?? []
    }

    @Test func oneRangePerAdAndPerFilledBreakDatedAsTheTrackingJSONPlacesThem() throws {
        let stitched = decorated()
        let reference = try #require(stitched.media[RenditionKey(.variant, 0)])
        let ranges = Self.ranges(reference)
        #expect(
            ranges.map(\.id) == [
                "seam-break-pre", "seam-ad-pre-0", "seam-break-mid-30000", "seam-ad-mid-30000-0",
                "seam-ad-mid-30000-1", "seam-break-post", "seam-ad-post-0",
            ])
        let epoch = try #require(InterstitialRenderer.syntheticEpoch.secondsSince1970)
        let ads = stitched.tracking.avails.flatMap(\.ads)
        let adRanges = ranges.filter { $0.dateRangeClass == AdIDDecoration.adClass }
        #expect(adRanges.map { $0.startDate?.secondsSince1970 } == ads.map { epoch + $0.startTimeSeconds })
        #expect(adRanges.map(\.duration) == ads.map(\.durationSeconds))
        #expect(adRanges.map { $0.attributes.string("X-AD-ID") } == ["a", "b", "c", "d"])
        let mid = try #require(ranges.first { $0.id == "seam-break-mid-30000" })
        #expect(mid.dateRangeClass == AdIDDecoration.breakClass)
        #expect(mid.duration == 30)
        #expect(mid.attributes["X-AD-COUNT"] == .unquoted("2"))
        // Each range sits on the segment its ad starts with, dated on the stitched timeline.
        var time = 0.0
        for segment in reference.segments {
            for range in segment.dateRanges {
                #expect(abs((range.startDate?.secondsSince1970 ?? 0) - (epoch + time)) < 0.001, "\(range.id)")
                #expect(segment.programDateTime?.secondsSince1970 == epoch + time, "\(range.id) undated")
            }
            time += segment.duration
        }
    }

    @Test func theSignalingIsTheAdsSlotWithThePlayersBeacons() throws {
        let range = try #require(
            Self.ranges(decorated().media[RenditionKey(.variant, 0)]).first { $0.id == "seam-ad-mid-30000-1" })
        let text = try #require(range.attributes.string("X-AD-CREATIVE-SIGNALING"))
        let data = try #require(Data(base64Encoded: text))
        let envelope = try JSONDecoder().decode(AdCreativeSignaling.self, from: data)
        #expect(envelope.version == 2)
        #expect(envelope.type == .slot)
        let slot = try #require(envelope.payload.first)
        #expect(slot.start == 0)
        #expect(slot.duration == 20)
        #expect(slot.identifiers.contains { $0.value == "c" })
        // Client tracking: the player fires the quartiles, at their offsets into the ad.
        #expect(slot.tracking.first { $0.type == "midpoint" }?.offset == 10)
        // Server tracking: Seam fires them all; the signaling lists none.
        let server = try #require(
            Self.ranges(decorated(.server).media[RenditionKey(.variant, 0)]).first { $0.id == "seam-ad-mid-30000-1" })
        let serverText = try #require(server.attributes.string("X-AD-CREATIVE-SIGNALING"))
        let serverData = try #require(Data(base64Encoded: serverText))
        let serverEnvelope = try JSONDecoder().decode(AdCreativeSignaling.self, from: serverData)
        #expect(serverEnvelope.payload.first?.tracking.isEmpty == true)
    }

    @Test func everyRenditionCarriesTheSameRangesAndValidatesClean() throws {
        let stitched = decorated()
        let playlists = stitched.media.sorted { $0.key.path < $1.key.path }
        #expect(playlists.count > 1)
        for (key, playlist) in playlists {
            #expect(Self.ranges(playlist).map(\.id) == Self.ranges(playlists[0].value).map(\.id), "\(key.path)")
            let report = PlaylistValidator.validate(playlist.serialized(), source: key.path)
            #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics)")
            #expect(AdIDDecoration.check(playlist).isEmpty, "\(AdIDDecoration.check(playlist))")
        }
        let mismatch = RenditionSetValidator.check(playlists.map { ($0.key.path, $0.value) })
        #expect(mismatch.isEmpty, "\(mismatch)")
    }

    @Test func theCheckRefusesUnreadableOrDisagreeingSignaling() throws {
        var playlist = try #require(decorated().media[RenditionKey(.variant, 0)])
        let index = try #require(playlist.segments.firstIndex { $0.dateRanges.contains { $0.id == "seam-ad-pre-0" } })
        let rangeIndex = try #require(playlist.segments[index].dateRanges.firstIndex { $0.id == "seam-ad-pre-0" })
        var broken = playlist
        broken.segments[index].dateRanges[rangeIndex].attributes.setString("X-AD-CREATIVE-SIGNALING", "not base64!")
        #expect(AdIDDecoration.check(broken).map(\.rule) == [.adCreativeSignaling])
        playlist.segments[index].dateRanges[rangeIndex].duration = 14
        let found = AdIDDecoration.check(playlist)
        #expect(found.map(\.rule) == [.adCreativeSignaling])
        #expect(found.first?.message.contains("must agree") == true, "\(found)")
    }
}

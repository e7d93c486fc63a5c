import Foundation
import HLS
import Testing
@testable import Stitching

/// The VOD interstitials rendering's other half: asset lists and ad assets, checked against the
/// stitched rendering of the same plan (one decision, one set of beacons).
@Suite struct InterstitialAssetsTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
    var plan: BreakPlan { InterstitialRendererTests().plan }

    func render(
        _ mode: TrackingMode = .server
    ) -> (stitched: VODStitcher.Stitched, assets: InterstitialRenderer.VODAssets) {
        let title = TitleFixture.title()
        let stitched = VODStitcher.stitch(title, plan: plan, mode: mode, urls: urls)
        return (
            stitched,
            InterstitialRenderer.vodAssets(title, plan: plan, adPlaylists: stitched.adPlaylists, mode: mode, urls: urls)
        )
    }

    @Test func everyBreakHasAnAssetListAndUnfilledOnesAreEmpty() throws {
        let assets = render().assets
        #expect(Set(assets.assetLists.keys.map(\.text)) == ["pre", "mid-30000", "mid-42000", "post"])
        #expect(assets.assetLists[InterstitialBreakID(position: .midroll(seconds: 42))] == .empty)
        let mid = try #require(assets.assetLists[InterstitialBreakID(position: .midroll(seconds: 30))])
        #expect(
            mid.assets.map(\.uri) == [
                "https://seam.example/v1/sessions/S1/adplaylist/1/0/master.m3u8",
                "https://seam.example/v1/sessions/S1/adplaylist/1/1/master.m3u8",
            ])
        #expect(mid.assets.map(\.duration) == [10, 20])
        // Server-side tracking: the signaling names the ads and lists no beacon the player would fire twice.
        #expect(mid.assets.allSatisfy { $0.signaling != nil })
        // The primary's DURATION is the asset list's total.
        let primary = InterstitialRenderer.vod(
            TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        let range = try #require(primary.breaks.first { $0.id.text == "mid-30000" }?.dateRange)
        #expect(range.duration == mid.totalDuration)
        #expect(
            Set(assets.ads.keys) == [
                AdAssetAddress(pod: 0, ad: 0), AdAssetAddress(pod: 1, ad: 0), AdAssetAddress(pod: 1, ad: 1),
                AdAssetAddress(pod: 2, ad: 0),
            ])
    }

    @Test func anAdAssetHasTheContentsLadderAndStandsAlone() throws {
        let asset = try #require(render().assets.ads[AdAssetAddress(pod: 1, ad: 1)])
        let text = asset.multivariant.serialized()
        let parsed = try MultivariantPlaylist(parsing: text)
        // Relative to the asset: the bytes name no session, and resolve to the session's ad asset URLs.
        #expect(parsed.variants.map(\.uri) == ["media/v0.m3u8", "media/v1.m3u8"])
        #expect(parsed.renditions.compactMap(\.uri) == ["media/a0.m3u8", "media/s1.m3u8"])
        let base = try #require(URL(string: urls.adAsset(AdAssetAddress(pod: 1, ad: 1))))
        #expect(
            URL(string: "media/v1.m3u8", relativeTo: base)?.absoluteString
                == urls.adAssetMedia(AdAssetAddress(pod: 1, ad: 1), RenditionKey(.variant, 1)))
        #expect(!text.contains("S1"))
        #expect(parsed.iFrameVariants.isEmpty)
        #expect(
            Set(asset.media.keys) == [
                RenditionKey(.variant, 0), RenditionKey(.variant, 1), RenditionKey(.audio, 0),
                RenditionKey(.subtitles, 1),
            ])
        for (key, playlist) in asset.media {
            #expect(playlist.endList && playlist.playlistType == .vod, "\(key)")
            #expect(playlist.segments.allSatisfy { !$0.uri.contains("S1") }, "\(key): the bytes name no session")
            #expect(PlaylistValidator.validate(playlist.serialized()).errors.isEmpty, "\(key)")
        }
    }

    /// The asset's segments are the stitched rendering's ad segment addresses: fetching either
    /// claims the same (pod, ad, event) beacons, so an ad counts once whichever rendering played it.
    @Test func assetSegmentsGoThroughTheStitchedBeaconAddresses() throws {
        let (stitched, assets) = render()
        var checked = 0
        for (address, asset) in assets.ads {
            for (key, playlist) in asset.media where key.kind != .subtitles {
                for (index, segment) in playlist.segments.enumerated() {
                    let expected = AdSegmentAddress(pod: address.pod, ad: address.ad, rendition: key, segment: index)
                    // Resolved against the asset's media playlist, as players do.
                    let mediaURL = try #require(URL(string: urls.adAssetMedia(address, key)))
                    let resolved = try #require(URL(string: segment.uri, relativeTo: mediaURL)?.absoluteString)
                    let path = resolved.dropFirst("https://seam.example".count)
                    #expect(SessionURLs.resource(atPath: path)?.resource == .adAssetSegment(expected), "\(resolved)")
                    #expect(stitched.adSegments[expected] != nil, "\(expected) is not a stitched ad segment")
                    checked += 1
                }
            }
        }
        #expect(checked > 20)
        // The player tracks: segments go straight to the ad CDN, as in the stitched rendering.
        let client = render(.client).assets
        let media = try #require(client.ads[AdAssetAddress(pod: 0, ad: 0)]?.media[RenditionKey(.variant, 0)])
        #expect(media.segments.allSatisfy { $0.uri.hasPrefix("https://ads.example/") })
    }

    @Test func trackingNamesEachBreaksInterstitialAndBothRenderings() {
        var tracking = render().stitched.tracking
        InterstitialRenderer.annotateVOD(&tracking, plan: plan, urls: urls)
        tracking.describeRenderings(urls: urls, mode: .interstitials)
        #expect(tracking.avails.map(\.interstitialId) == ["pre", "mid-30000", "mid-42000", "post"])
        #expect(tracking.avails[2].assetListUrl == "https://seam.example/v1/sessions/S1/assets/mid-42000.json")
        #expect(tracking.avails[2].skipReason == "NO_FILL")
        #expect(tracking.mode == .interstitials)
        #expect(
            tracking.renderings?.map(\.manifestUrl) == [
                "https://seam.example/v1/sessions/S1/master.m3u8",
                "https://seam.example/v1/sessions/S1/interstitials/master.m3u8",
            ])
    }

    @Test func policyResumeOffsetAndPlayoutLimitAreWritten() {
        let policy = InterstitialPolicy(resumeOffset: 12.5, playoutLimit: 20)
        let out = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: policy)
        #expect(
            out.breaks.allSatisfy {
                $0.dateRange.resumeOffset == 12.5 && $0.dateRange.attributes.double("X-PLAYOUT-LIMIT") == 20
            })
    }

    /// An origin whose dates jump (a 10 s gap before segment 5): the mid-roll at segment 5 starts
    /// at that segment's own date, not 30 s after the first one.
    @Test func aGapInTheOriginsDatesMovesTheBreakWithItsSegment() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<10 {
            if index == 0 { text += "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T12:00:00.000Z\n" }
            if index == 5 { text += "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T12:00:40.000Z\n" }
            text += "#EXTINF:6,\nhttps://origin.example/gap/\(index).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        let title = ContentSet(media: try MediaPlaylist(parsing: text), url: "https://origin.example/gap/index.m3u8")
        let out = InterstitialRenderer.vod(title, plan: plan, urls: urls, policy: InterstitialPolicy())
        #expect(
            out.breaks.compactMap(\.dateRange.startDate?.text) == [
                "2026-03-01T12:00:00.000Z", "2026-03-01T12:00:40.000Z",
                "2026-03-01T12:01:10.000Z",
            ])
    }

    /// The primary's DURATION and the asset list's DURATIONs come from the same playlists: the
    /// reference rendition's ad playlists as spliced.
    @Test func durationsComeFromTheSplicedReferencePlaylists() throws {
        let title = TitleFixture.title()
        let stitched = VODStitcher.stitch(title, plan: plan, mode: .server, urls: urls)
        let assets = InterstitialRenderer.vodAssets(
            title, plan: plan, adPlaylists: stitched.adPlaylists, mode: .server, urls: urls)
        let primary = InterstitialRenderer.vod(
            title, plan: plan, urls: urls, policy: InterstitialPolicy(), assetLists: assets.assetLists)
        for rendered in primary.breaks {
            let list = try #require(assets.assetLists[rendered.id])
            #expect(rendered.dateRange.duration == list.totalDuration)
            let reference = try #require(stitched.adPlaylists[title.referenceKey]?[rendered.pod])
            #expect(list.assets.map(\.duration) == reference.map(\.duration))
        }
    }
}

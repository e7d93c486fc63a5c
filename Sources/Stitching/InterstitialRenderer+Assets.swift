import HLS

extension InterstitialRenderer {
    /// What a VOD session answers for its breaks in the interstitials rendering: the asset list
    /// of every break of the plan (empty for a break without fill, so the route answers `200`
    /// with no assets, the reason being in the tracking JSON), and every ad as an asset.
    public struct VODAssets: Sendable {
        public var assetLists: [InterstitialBreakID: AssetList]
        public var ads: [AdAssetAddress: AdAssetRenderer.Asset]
    }

    /// The assets of a stitched title's plan. `adPlaylists` are the stitched rendering's
    /// (`VODStitcher.Stitched.adPlaylists`): an asset's segment `n` of rendition `r` has the same
    /// address, and so the same beacons, as the spliced one.
    public static func vodAssets(_ content: ContentSet, plan: BreakPlan, adPlaylists: [RenditionKey: [[MediaPlaylist]]],
                                 mode: TrackingMode, urls: SessionURLs) -> VODAssets {
        var lists: [InterstitialBreakID: AssetList] = [:]
        var ads: [AdAssetAddress: AdAssetRenderer.Asset] = [:]
        for signalled in signalledBreaks(of: plan) {
            let planned = plan.breaks[signalled.breakIndex]
            lists[signalled.id] = AssetList(break: planned, pod: signalled.pod) { pod, ad in
                urls.adAsset(AdAssetAddress(pod: pod, ad: ad))
            }
            for ad in planned.ads.indices {
                let address = AdAssetAddress(pod: signalled.pod, ad: ad)
                ads[address] = AdAssetRenderer.asset(
                    content: content.multivariant, address: address, urls: urls,
                    adPlaylist: { adPlaylists[$0]?[safe: signalled.pod]?[safe: ad] },
                    segmentURI: { key, index, uri in
                        guard mode.routesAdSegments, key.kind != .subtitles else { return urls.segmentURI(uri) }
                        return urls.adSegment(AdSegmentAddress(pod: signalled.pod, ad: ad, rendition: key, segment: index), sourceURI: uri)
                    })
            }
        }
        for planned in plan.breaks {
            let id = InterstitialBreakID(position: planned.position)
            if lists[id] == nil { lists[id] = .empty }
        }
        return VODAssets(assetLists: lists, ads: ads)
    }
}

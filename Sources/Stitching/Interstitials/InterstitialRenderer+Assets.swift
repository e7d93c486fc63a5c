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
    public static func vodAssets(
        _ content: ContentSet, plan: BreakPlan, adPlaylists: [RenditionKey: [[MediaPlaylist]]],
        bumperPlaylists: [RenditionKey: [[Bumper.Position: MediaPlaylist]]] = [:],
        mode: TrackingMode, urls: SessionURLs
    ) -> VODAssets {
        var lists: [InterstitialBreakID: AssetList] = [:]
        var ads: [AdAssetAddress: AdAssetRenderer.Asset] = [:]
        for signalled in signalledBreaks(of: plan) {
            let planned = plan.breaks[signalled.breakIndex]
            // Each asset's DURATION is what its playlist plays: the reference rendition's ad
            // playlist as spliced (every rendition of a creative is cut alike).
            let reference = adPlaylists[content.referenceKey]?[safe: signalled.pod]
            let referenceBumpers = bumperPlaylists[content.referenceKey]?[safe: signalled.pod]
            lists[signalled.id] = AssetList(
                entries: planned.podItems.map { item in
                    switch item {
                    case .ad(let index):
                        let ad = planned.ads[index]
                        return AssetList.Entry(
                            uri: urls.adAsset(AdAssetAddress(pod: signalled.pod, ad: index)),
                            duration: (reference?[safe: index]?.duration).map(AssetList.milliseconds)
                                ?? AssetList.duration(of: ad.creative, declared: ad.ad.duration),
                            ad: ad.ad, skipOffset: ad.ad.skipOffset)
                    case .bumper(let bumper):
                        return .bumper(
                            uri: urls.adAsset(
                                AdAssetAddress(pod: signalled.pod, ad: planned.assetNumber(of: bumper.position))),
                            duration: (referenceBumpers?[bumper.position]?.duration).map(AssetList.milliseconds)
                                ?? AssetList.duration(of: bumper.creative, declared: 0))
                    }
                }, tracking: mode)
            for ad in planned.ads.indices {
                let address = AdAssetAddress(pod: signalled.pod, ad: ad)
                ads[address] = AdAssetRenderer.asset(
                    content: content.multivariant, address: address, urls: urls,
                    adPlaylist: { adPlaylists[$0]?[safe: signalled.pod]?[safe: ad] },
                    segmentURI: { key, index, uri in
                        guard mode.routesAdSegments(in: key.kind) else { return urls.segmentURI(uri) }
                        return SessionURLs.adAssetSegmentReference(
                            AdSegmentAddress(pod: signalled.pod, ad: ad, rendition: key, segment: index),
                            sourceURI: uri)
                    })
            }
            // A bumper fires nothing: its asset lists the clip's own segments, as the stitched
            // rendering splices them.
            for bumper in planned.bumpers {
                let address = AdAssetAddress(pod: signalled.pod, ad: planned.assetNumber(of: bumper.position))
                ads[address] = AdAssetRenderer.asset(
                    content: content.multivariant, address: address, urls: urls,
                    adPlaylist: { bumperPlaylists[$0]?[safe: signalled.pod]?[bumper.position] },
                    segmentURI: { _, _, uri in urls.segmentURI(uri) })
            }
        }
        for planned in plan.breaks {
            let id = InterstitialBreakID(position: planned.position)
            if lists[id] == nil { lists[id] = .empty }
        }
        return VODAssets(assetLists: lists, ads: ads)
    }

    /// Names each VOD avail's break in the interstitials rendering (avail `i` is `plan.breaks[i]`,
    /// as `TrackingBuilder.vod` writes them): its `ID` and asset-list URL.
    public static func annotateVOD(_ tracking: inout TrackingDocument, plan: BreakPlan, urls: SessionURLs) {
        for index in tracking.avails.indices {
            guard let planned = plan.breaks[safe: Int(tracking.avails[index].availId) ?? -1] else { continue }
            let id = InterstitialBreakID(position: planned.position)
            tracking.avails[index].interstitialId = id.text
            tracking.avails[index].assetListUrl = urls.assetList(id)
        }
    }

    /// Names each live avail's break (avail ids are break numbers, as `TrackingBuilder.live` writes them).
    public static func annotateLive(_ tracking: inout TrackingDocument, timeline: LiveTimeline, urls: SessionURLs) {
        for index in tracking.avails.indices {
            guard let number = Int(tracking.avails[index].availId), let item = timeline.breakNumbered(number) else {
                continue
            }
            let id = InterstitialBreakID(liveBreak: item)
            tracking.avails[index].interstitialId = id.text
            tracking.avails[index].assetListUrl = urls.assetList(id)
        }
    }
}

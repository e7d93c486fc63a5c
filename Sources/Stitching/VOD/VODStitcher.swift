import HLS

/// Stitches a VOD title once, when its session starts: every rendition's playlist with the same
/// pods at the same content boundaries, the session's multivariant playlist, where each ad
/// segment URL really points and what fetching it reports, and the tracking JSON. Everything a
/// VOD session serves afterwards is a lookup in what this returns.
public enum VODStitcher {
    /// Where an ad segment of the session really is, and the events fetching it reports.
    public struct AdSegmentTarget: Sendable, Equatable {
        public var url: String
        public var events: [AdProgressEvent]

        public init(url: String, events: [AdProgressEvent]) {
            self.url = url
            self.events = events
        }
    }

    /// A stitched title.
    public struct Stitched: Sendable {
        /// Every rendition's stitched media playlist.
        public var media: [RenditionKey: MediaPlaylist]
        /// The title's multivariant playlist with every rendition routed through the session.
        public var multivariant: MultivariantPlaylist
        /// Ad segments by address (empty when the player tracks: ad URIs then go to the ad CDN).
        public var adSegments: [AdSegmentAddress: AdSegmentTarget]
        /// Beacons Seam fires itself, per (pod, ad, event).
        public var beacons: [TrackingBuilder.BeaconKey: [String]]
        public var tracking: TrackingDocument
        /// The ad playlist of every (rendition, pod, ad) as spliced: the interstitials rendering
        /// serves the same ones as its assets (`InterstitialRenderer.vodAssets`), so a segment
        /// has one address and one set of beacons whichever rendering lists it.
        public var adPlaylists: [RenditionKey: [[MediaPlaylist]]]
        /// Each filled pod's bumpers per rendition as spliced, for the interstitials rendering's assets.
        public var bumperPlaylists: [RenditionKey: [[Bumper.Position: MediaPlaylist]]]
    }

    public static func stitch(_ content: ContentSet, plan: BreakPlan, mode: TrackingMode, urls: SessionURLs) -> Stitched
    {
        let filled = plan.filled

        // The ad playlist of every (rendition, pod, ad), and of every bumper.
        var chosen: [RenditionKey: [[MediaPlaylist]]] = [:]
        var bumpers: [RenditionKey: [[Bumper.Position: MediaPlaylist]]] = [:]
        for rendition in content.renditions {
            func fitted(_ creative: AdCreative) -> MediaPlaylist? {
                CreativeFit.adPlaylist(
                    for: rendition, creative: creative, content: content, emptySubtitleURI: urls.emptySubtitles)
            }
            chosen[rendition.key] = filled.map { planned in planned.ads.compactMap { fitted($0.creative) } }
            bumpers[rendition.key] = filled.map { planned in
                var lists: [Bumper.Position: MediaPlaylist] = [:]
                for bumper in planned.bumpers { lists[bumper.position] = fitted(bumper.creative) }
                return lists
            }
        }
        let allAdPlaylists =
            chosen.values.flatMap { $0.flatMap { $0 } } + bumpers.values.flatMap { $0.flatMap(\.values) }
        let targetDuration = VODSplicer.targetDuration(covering: content.renditions.map(\.playlist) + allAdPlaylists)

        // One splice point per break for all renditions together: demuxed audio, video and
        // subtitles cut their segments at different times, and placing each at its own nearest
        // boundary would leave audio and video apart after the break.
        let playlists = content.renditions.map(\.playlist)
        let aligned = filled.map { BreakAligner.align(cuePoint: $0.position.cuePoint, renditions: playlists) }

        var media: [RenditionKey: MediaPlaylist] = [:]
        var adSegments: [AdSegmentAddress: AdSegmentTarget] = [:]
        var referencePods: [SplicedPod] = []
        for (number, rendition) in content.renditions.enumerated() {
            let adLists = chosen[rendition.key] ?? []
            let bumperLists = bumpers[rendition.key] ?? []
            // What each pod plays in this rendition, in order: bumpers and ads (`podItems`).
            let items: [[(item: BreakPlan.Break.PodItem, playlist: MediaPlaylist)]] = filled.enumerated().map {
                pod, planned in
                planned.podItems.compactMap { item in
                    switch item {
                    case .ad(let index): return adLists[safe: pod]?[safe: index].map { (item, $0) }
                    case .bumper(let bumper): return bumperLists[safe: pod]?[bumper.position].map { (item, $0) }
                    }
                }
            }
            let pods = filled.enumerated().map { pod, planned in
                SplicedPod(
                    segmentIndex: aligned[pod].segmentIndices[safe: number]
                        ?? PodPlacement.segmentIndex(forCuePoint: planned.position.cuePoint, in: rendition.playlist),
                    ads: (items[safe: pod] ?? []).map { SplicedAd(playlist: $0.playlist) })
            }
            if rendition.key == content.referenceKey { referencePods = pods }
            let routed = mode.routesAdSegments(in: rendition.kind)
            var spliced = VODSplicer.splice(content: rendition.playlist, pods: pods, targetDuration: targetDuration) {
                segmentID, uri in
                // A bumper fires nothing: its segments go straight to where it is hosted.
                guard routed, let spliced = items[safe: segmentID.pod]?[safe: segmentID.ad],
                    case .ad(let ad) = spliced.item
                else { return uri }
                let address = AdSegmentAddress(
                    pod: segmentID.pod, ad: ad, rendition: rendition.key, segment: segmentID.segment)
                adSegments[address] = AdSegmentTarget(
                    url: uri, events: AdProgressEvent.due(atSegment: segmentID.segment, of: spliced.playlist))
                return urls.adSegment(address, sourceURI: uri)
            }
            // The title is VOD (`PlaybackKindDecision`): every rendition says so, even one the
            // packager left unfinished (a player would otherwise reload it as live).
            spliced.endList = true
            spliced.playlistType = .vod
            media[rendition.key] = spliced
        }
        let multivariant = SessionMultivariant.make(content.multivariant, urls: urls) { media[$0] != nil }
        let (tracking, beacons) = TrackingBuilder.vod(
            sessionID: urls.sessionID, plan: plan, reference: content.reference,
            pods: referencePods, mode: mode,
            renditionOffsets: content.renditions.count > 1 ? aligned.map(\.worstOffset) : nil)
        return Stitched(
            media: media, multivariant: multivariant, adSegments: adSegments, beacons: beacons, tracking: tracking,
            adPlaylists: chosen, bumperPlaylists: bumpers)
    }
}

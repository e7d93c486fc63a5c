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
    }

    public static func stitch(_ content: ContentSet, plan: BreakPlan, mode: TrackingMode, urls: SessionURLs) -> Stitched
    {
        let filled = plan.filled

        // The ad playlist of every (rendition, pod, ad).
        var chosen: [RenditionKey: [[MediaPlaylist]]] = [:]
        for rendition in content.renditions {
            chosen[rendition.key] = filled.map { planned in
                planned.ads.compactMap {
                    CreativeFit.adPlaylist(
                        for: rendition, creative: $0.creative, content: content, emptySubtitleURI: urls.emptySubtitles)
                }
            }
        }
        let allAdPlaylists = chosen.values.flatMap { $0.flatMap { $0 } }
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
            let pods = filled.enumerated().map { pod, planned in
                SplicedPod(
                    segmentIndex: aligned[pod].segmentIndices[safe: number]
                        ?? PodPlacement.segmentIndex(forCuePoint: planned.position.cuePoint, in: rendition.playlist),
                    ads: (adLists[safe: pod] ?? []).map { SplicedAd(playlist: $0) })
            }
            if rendition.key == content.referenceKey { referencePods = pods }
            let routed = mode.routesAdSegments(in: rendition.kind)
            var spliced = VODSplicer.splice(content: rendition.playlist, pods: pods, targetDuration: targetDuration) {
                segmentID, uri in
                guard routed else { return uri }
                let address = AdSegmentAddress(
                    pod: segmentID.pod, ad: segmentID.ad, rendition: rendition.key, segment: segmentID.segment)
                let adPlaylist = adLists[safe: segmentID.pod]?[safe: segmentID.ad]
                adSegments[address] = AdSegmentTarget(
                    url: uri, events: adPlaylist.map { AdProgressEvent.due(atSegment: segmentID.segment, of: $0) } ?? []
                )
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
            adPlaylists: chosen)
    }
}

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
    }

    public static func stitch(_ content: ContentSet, plan: BreakPlan, mode: TrackingMode, urls: SessionURLs) -> Stitched {
        let filled = plan.filled

        // The ad playlist of every (rendition, pod, ad).
        var chosen: [RenditionKey: [[MediaPlaylist]]] = [:]
        for rendition in content.renditions {
            chosen[rendition.key] = filled.map { planned in
                planned.ads.compactMap {
                    CreativeFit.adPlaylist(for: rendition, creative: $0.creative, content: content, emptySubtitleURI: urls.emptySubtitles)
                }
            }
        }
        let allAdPlaylists = chosen.values.flatMap { $0.flatMap { $0 } }
        let targetDuration = VODSplicer.targetDuration(covering: content.renditions.map(\.playlist) + allAdPlaylists)

        var media: [RenditionKey: MediaPlaylist] = [:]
        var adSegments: [AdSegmentAddress: AdSegmentTarget] = [:]
        var referencePods: [SplicedPod] = []
        for rendition in content.renditions {
            let adLists = chosen[rendition.key] ?? []
            let pods = filled.enumerated().map { number, planned in
                SplicedPod(segmentIndex: PodPlacement.segmentIndex(forCuePoint: planned.position.cuePoint, in: rendition.playlist),
                           ads: (adLists[safe: number] ?? []).map { SplicedAd(playlist: $0) })
            }
            if rendition.key == content.referenceKey { referencePods = pods }
            let routed = mode.routesAdSegments && rendition.kind != .subtitles
            media[rendition.key] = VODSplicer.splice(content: rendition.playlist, pods: pods, targetDuration: targetDuration) { segmentID, uri in
                guard routed else { return uri }
                let address = AdSegmentAddress(pod: segmentID.pod, ad: segmentID.ad, rendition: rendition.key, segment: segmentID.segment)
                let adPlaylist = adLists[safe: segmentID.pod]?[safe: segmentID.ad]
                adSegments[address] = AdSegmentTarget(url: uri, events: adPlaylist.map { AdProgressEvent.due(atSegment: segmentID.segment, of: $0) } ?? [])
                return urls.adSegment(address, sourceURI: uri)
            }
        }
        let multivariant = SessionMultivariant.make(content.multivariant, urls: urls) { media[$0] != nil }
        let (tracking, beacons) = TrackingBuilder.vod(sessionID: urls.sessionID, plan: plan, reference: content.reference,
                                                      pods: referencePods, mode: mode)
        return Stitched(media: media, multivariant: multivariant, adSegments: adSegments, beacons: beacons, tracking: tracking)
    }
}

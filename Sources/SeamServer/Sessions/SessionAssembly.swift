import CompressNIO
import Foundation
import NIOCore
import HLS
import Stitching

extension SessionBuilder {
    /// Builds a session end to end. Throws only for what the player must hear about: a bad
    /// URL or origin trouble (the route turns that into a fallback redirect or an error).
    public func build(_ inputs: Inputs) async throws(SeamError) -> SeamSession {
        let url = inputs.request.url
        guard UpstreamURL.hasHTTPScheme(url), url.utf8.count < 8192 else {
            throw SeamError(.invalidPlaybackURL, "url must be an absolute http(s) URL of an HLS playlist")
        }
        let id = sessionIDs.issue()
        if let live, let channel = await live.catalog.cached(url) {
            return .live(try await startLive(channel, id: id, inputs: inputs))
        }
        let started = ContinuousClock.now
        let adDeadline = started + .milliseconds(Int64(configuration.ads.totalBudgetSeconds * 1000))
        let content = try await loadContent(url)
        guard content.renditions.allSatisfy({ $0.playlist.isFinished }) else {
            guard let live else {
                throw SeamError(.originInvalidPlaylist, "\(url) is a live stream, and live ad replacement is not set up in this server")
            }
            let channel = try await live.catalog.channel(url) { () async throws(SeamError) -> LiveChannel in
                await makeChannel(url, content: content, baseURL: inputs.baseURL)
            }
            return .live(try await startLive(channel, id: id, inputs: inputs))
        }
        // One ad budget for decisions and creatives alike (ads.totalBudgetSeconds from the start):
        // a pod's creatives are fetched concurrently inside it, never after it.
        var breaks = capPods(await planBreaks(inputs, id: id, content: content, deadline: adDeadline))
        breaks = await loadCreatives(breaks, content: content, deadline: adDeadline)
        let mode = inputs.request.trackingMode(default: configuration.ads.trackingMode)
        let session = assemble(id: id, inputs: inputs, content: content, breaks: breaks, mode: mode)
        let elapsed = (ContinuousClock.now - started).components
        logger.info("session created", metadata: [
            "session": "\(id)", "breaks": "\(breaks.count)",
            "filled": "\(breaks.filter { !$0.creatives.isEmpty }.count)",
            "ms": "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000)",
        ])
        return .vod(session)
    }

    /// The ad rendition for one content rendition.
    static func adPlaylist(for rendition: ContentRendition, creative: AdCreative, content: Content,
                           emptySubtitleURI: String) -> MediaPlaylist? {
        func bestVariant(_ variant: VariantStream?) -> MediaPlaylist? {
            guard let variant else { return creative.variants.first?.playlist }
            return CreativeMatcher.bestMatch(for: variant, among: creative.variants.map(\.stream)).map { creative.variants[$0].playlist }
        }
        switch rendition.kind {
        case .variant:
            return bestVariant(rendition.variant ?? content.renditions.first?.variant)
        case .audio:
            let language = rendition.rendition?.language
            if let match = creative.audio.first(where: { $0.rendition.language == language && language != nil }) ?? creative.audio.first {
                return match.playlist
            }
            // Muxed creative: its lowest variant carries the audio.
            let lowest = creative.variants.min { $0.stream.bandwidth < $1.stream.bandwidth }
            return lowest?.playlist
        case .subtitles:
            // Ads rarely carry subtitles: empty cues for the ad's length keep the timeline whole.
            guard let reference = bestVariant(content.renditions.first?.variant) else { return nil }
            var empty = MediaPlaylist(targetDuration: reference.targetDuration, playlistType: .vod, endList: true)
            empty.segments = reference.segments.map { MediaSegment(uri: emptySubtitleURI, duration: $0.duration) }
            return empty
        }
    }

    func assemble(id: SessionID, inputs: Inputs, content: Content, breaks: [PlannedBreak], mode: TrackingMode) -> StitchedSession {
        let base = inputs.baseURL + "/v1/sessions/\(id)"
        let emptySubtitles = inputs.baseURL + "/v1/assets/empty.vtt"
        let filled = breaks.filter { !$0.creatives.isEmpty }

        // The ad playlist of every (rendition, pod, ad).
        var chosen: [String: [[MediaPlaylist]]] = [:]
        for rendition in content.renditions {
            chosen[rendition.key] = filled.map { planned in
                planned.creatives.compactMap { Self.adPlaylist(for: rendition, creative: $0.creative, content: content, emptySubtitleURI: emptySubtitles) }
            }
        }
        let allAdPlaylists = chosen.values.flatMap { $0.flatMap { $0 } }
        let targetDuration = VODSplicer.targetDuration(covering: content.renditions.map(\.playlist) + allAdPlaylists)

        var media: [String: ByteBuffer] = [:]
        var adSegments: [StitchedSession.AdSegmentKey: StitchedSession.AdSegmentTarget] = [:]
        let routeAds = mode != .client
        var referencePods: [SplicedPod] = []
        for rendition in content.renditions {
            let adLists = chosen[rendition.key] ?? []
            let pods = filled.enumerated().map { number, planned in
                SplicedPod(segmentIndex: PodPlacement.segmentIndex(forCuePoint: planned.position.cuePoint, in: rendition.playlist),
                           ads: (adLists[safe: number] ?? []).map { SplicedAd(playlist: $0) })
            }
            if rendition.key == content.renditions[0].key { referencePods = pods }
            let stitched = VODSplicer.splice(content: rendition.playlist, pods: pods, targetDuration: targetDuration) { segmentID, uri in
                guard routeAds, rendition.kind != .subtitles else { return uri }
                let adPlaylist = adLists[safe: segmentID.pod]?[safe: segmentID.ad]
                let key = StitchedSession.AdSegmentKey(rendition: rendition.key, pod: segmentID.pod, ad: segmentID.ad, segment: segmentID.segment)
                let events = adPlaylist.map { AdProgressEvent.due(atSegment: segmentID.segment, of: $0) } ?? []
                adSegments[key] = StitchedSession.AdSegmentTarget(url: uri, events: events)
                let suffix = uri.split(separator: "?").first?.split(separator: ".").last.map { "." + $0 } ?? ""
                return "\(base)/ad/\(segmentID.pod)/\(segmentID.ad)/\(rendition.key)/\(segmentID.segment)\(suffix.count <= 5 ? suffix : "")"
            }
            media[rendition.key] = stitched.withSerializedBytes { ByteBuffer(bytes: $0) }
        }

        // The multivariant playlist routes every rendition through the session.
        let multivariant = Self.sessionMultivariant(content.multivariant, base: base) { media[$0] != nil }

        // Tracking: the timeline of the reference rendition.
        let timeline = AvailTimeline(content: content.reference, pods: referencePods)
        var beacons: [StitchedSession.AdEventKey: [String]] = [:]
        var avails: [TrackingDocument.Avail] = []
        var filledNumber = 0
        var inserted = 0.0
        for (index, planned) in breaks.enumerated() {
            let cue = planned.position.cuePoint
            let positionName: String
            switch planned.position {
            case .preroll: positionName = "preroll"
            case .midroll: positionName = "midroll"
            case .postroll: positionName = "postroll"
            }
            var avail = TrackingDocument.Avail(
                availId: "\(index)", position: positionName, cuePoint: cue, startTimeSeconds: 0, durationSeconds: 0,
                skipReason: planned.decision.skipReason?.rawValue, skipDetail: planned.decision.detail, ads: [],
                skippedAds: planned.decision.skippedAds.map { .init(adId: $0.adID, reason: $0.reason) }, trackingEvents: [])
            if !planned.creatives.isEmpty, let placed = timeline.avails.first(where: { $0.pod == filledNumber }) {
                avail.startTimeSeconds = placed.startTime
                avail.durationSeconds = placed.duration
                for (adNumber, item) in planned.creatives.enumerated() {
                    let timing = placed.ads[safe: adNumber]
                    let start = timing?.startTime ?? placed.startTime
                    let duration = timing?.duration ?? item.ad.duration
                    var events: [TrackingDocument.TrackingEvent] = []
                    for event in AdProgressEvent.allCases {
                        let urls = event == .impression ? item.ad.impressionURLs : item.ad.trackingURLs[event.rawValue] ?? []
                        let seamFires = mode.seamFires(event.rawValue)
                        if seamFires { beacons[.init(pod: filledNumber, ad: adNumber, event: event)] = urls }
                        events.append(.init(event: event.rawValue, startTimeSeconds: start + event.fraction * duration,
                                            beaconUrls: seamFires ? [] : urls))
                    }
                    avail.ads.append(.init(adId: item.ad.adID, sequence: item.ad.sequence, title: item.ad.title,
                                           adSystem: item.ad.adSystem, creativeId: item.ad.creativeID,
                                           universalAdIds: item.ad.universalAdIDs, startTimeSeconds: start,
                                           durationSeconds: duration, clickThrough: item.ad.clickThrough,
                                           trackingEvents: events, adVerifications: item.ad.verificationXML))
                }
                // Break beacons ride on the first ad's impression and the last ad's completion.
                let seamFiresBreaks = mode.seamFires("breakStart")
                if seamFiresBreaks {
                    beacons[.init(pod: filledNumber, ad: 0, event: .impression), default: []] += planned.breakStartURLs
                    beacons[.init(pod: filledNumber, ad: planned.creatives.count - 1, event: .complete), default: []] += planned.breakEndURLs
                }
                avail.trackingEvents = [
                    .init(event: "breakStart", startTimeSeconds: placed.startTime, beaconUrls: seamFiresBreaks ? [] : planned.breakStartURLs),
                    .init(event: "breakEnd", startTimeSeconds: placed.startTime + placed.duration, beaconUrls: seamFiresBreaks ? [] : planned.breakEndURLs),
                ]
                inserted += placed.duration
                filledNumber += 1
            } else {
                // An empty avail sits where it would have been, on the stitched clock.
                let contentTime = cue < 0 ? content.reference.duration : PodPlacement.contentTime(
                    atSegment: PodPlacement.segmentIndex(forCuePoint: cue, in: content.reference), in: content.reference)
                avail.startTimeSeconds = contentTime + timeline.avails.filter { $0.contentTime <= contentTime && $0.pod < filledNumber }.reduce(0) { $0 + $1.duration }
            }
            avails.append(avail)
        }
        let tracking = TrackingDocument(sessionId: id.value, trackingMode: mode.rawValue, durationSeconds: timeline.totalDuration,
                                        avails: avails, cuePoints: breaks.map(\.position.cuePoint))
        let multivariantBytes = ByteBuffer(string: multivariant.serialized())
        var gzipped: [String: ByteBuffer] = [:]
        if configuration.server.gzip {
            for (key, body) in media.merging([StitchedSession.multivariantKey: multivariantBytes], uniquingKeysWith: { a, _ in a })
            where body.readableBytes >= 1024 {
                var plain = body
                if let compressed = try? plain.compress(with: .gzip()) { gzipped[key] = compressed }
            }
        }
        return StitchedSession(id: id, contentURL: inputs.request.url, trackingMode: mode,
                               multivariant: multivariantBytes, media: media, gzipped: gzipped, tracking: tracking,
                               adSegments: adSegments, beacons: beacons, createdAt: Date())
    }
}

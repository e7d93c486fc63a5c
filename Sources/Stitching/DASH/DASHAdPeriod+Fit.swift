import DASH
import HLS

extension DASHAdPeriod {
    /// An ad's period as a session plays it, and where each of its segments really is.
    public struct Fitted: Sendable {
        public var element: XMLElement
        /// The ad's segments Seam answers for (server-side tracking), by address.
        public var adSegments: [AdSegmentAddress: VODStitcher.AdSegmentTarget]
        public var duration: Double
    }

    /// The period that plays ad `ad` of filled break `pod` in a session: one adaptation set per
    /// pair of `fit`, carrying the content set's `id`, `lang` and roles (players carry a track
    /// across periods by them, DASH-IF IOP 3.2.12), with the ad's representations renamed by
    /// their rendition key (`v0`, `a0`: one ad set may stand in for two content sets) and
    /// addressed absolutely, so nothing depends on where the stitched MPD is served from.
    ///
    /// Each representation's `SegmentTemplate` is written out whole with an explicit
    /// `SegmentTimeline`. When Seam tracks (`TrackingMode.routesAdSegments`), its `media` is the
    /// session's ad segment route numbered from 0 (`<session>/ad/<pod>/<ad>/<key>/$Number$.m4s`),
    /// which fires the beacons a segment reaches and redirects to the creative's segment, as the
    /// stitched HLS playlists do; otherwise it is the creative's own template made absolute. The
    /// initialization segment always loads from the ad's CDN.
    ///
    /// - Parameter listing: a live session's ad lists the segments starting within its first
    ///   this many seconds (those its timeline has placed), and leaves `adSegments` empty (its
    ///   ad segment route reads the channel's playlists); nil lists them all.
    public static func fitted(
        _ fit: DASHCreativeFit, id: String, pod: Int, ad: Int, mode: TrackingMode, urls: SessionURLs,
        listing: Double? = nil
    ) -> Fitted {
        var period = XMLElement(
            name: fit.period.element.name,
            attributes: [XMLAttribute(name: "id", value: id)]
                + [XMLAttribute(name: "duration", value: DASHDuration.text(fit.duration))])
        var adSegments: [AdSegmentAddress: VODStitcher.AdSegmentTarget] = [:]
        var counts: [RenditionKey.Kind: Int] = [:]
        for pair in fit.pairs {
            var set = pair.ad.element
            set[attribute: "id"] = pair.content.id
            set[attribute: "lang"] = pair.content.lang
            let dropped = ["Role", "BaseURL", "SegmentTemplate", "SegmentBase", "SegmentList", "Representation"]
            var children = set.children.filter { node in
                !dropped.contains { node.isElement(named: $0) } && !isBlank(node)
            }
            children += pair.content.element.elements(named: "Role").map(XMLNode.element)
            let kind: RenditionKey.Kind = pair.content.contentType == "video" ? .variant : .audio
            for representation in pair.ad.representations {
                guard let template = representation.segmentTemplate, let media = template.media else { continue }
                let key = RenditionKey(kind, counts[kind, default: 0])
                counts[kind, default: 0] += 1
                let sourceID = representation.id ?? ""
                let base = fit.base(of: pair.ad, representation)
                // A live session's ad routes through the channel's playlists: no table, no addresses.
                let segments = template.segments(
                    representationID: sourceID, bandwidth: representation.bandwidth, periodDuration: fit.duration,
                    addressed: listing == nil)
                var element = representation.element
                element[attribute: "id"] = key.path
                element.children.removeAll { node in
                    ["BaseURL", "SegmentTemplate", "SegmentBase", "SegmentList"].contains { node.isElement(named: $0) }
                        || isBlank(node)
                }
                var written = XMLElement(name: prefixed("SegmentTemplate", like: set))
                written[attribute: "timescale"] = String(max(1, template.timescale ?? 1))
                if let offset = template.presentationTimeOffset {
                    written[attribute: "presentationTimeOffset"] = String(offset)
                }
                if let initialization = template.initialization {
                    written[attribute: "initialization"] = URIReference.resolve(
                        SegmentTemplate.bindingRepresentation(
                            initialization, representationID: sourceID, bandwidth: representation.bandwidth),
                        against: base)
                }
                if mode.routesAdSegments(in: kind) {
                    written[attribute: "media"] =
                        urls.session + "/ad/\(pod)/\(ad)/\(key.path)/$Number$" + SessionURLs.extensionSuffix(media)
                    written[attribute: "startNumber"] = "0"
                    let durations = segments.map(\.duration)
                    for (number, segment) in segments.enumerated() where listing == nil {
                        adSegments[AdSegmentAddress(pod: pod, ad: ad, rendition: key, segment: number)] =
                            VODStitcher.AdSegmentTarget(
                                url: URIReference.resolve(segment.url, against: base),
                                events: AdProgressEvent.due(atSegment: number, durations: durations))
                    }
                } else {
                    written[attribute: "media"] = URIReference.resolve(
                        SegmentTemplate.bindingRepresentation(
                            media, representationID: sourceID, bandwidth: representation.bandwidth),
                        against: base)
                    written[attribute: "startNumber"] = String(segments.first?.number ?? template.startNumber ?? 1)
                }
                let listed = listing.map { seconds in segments.filter { $0.start < seconds - 0.001 } } ?? segments
                written.children = [.element(timeline(listed, like: set))]
                element.children.append(.element(written))
                children.append(.element(element))
            }
            set.children = children
            period.children.append(.element(set))
        }
        return Fitted(element: period, adSegments: adSegments, duration: fit.duration)
    }

    /// An ad period written once for every session of a live channel (`fitted` with placeholder
    /// session URLs) as one session writes it: its `id`, and each representation's `media` whose
    /// start is `placeholder` (the placeholder ad segment route) on the session's `route`. A walk
    /// over a dozen elements, where `fitted` on every viewer's every reload cost most of it.
    public static func personalized(
        _ shared: XMLElement, id: String, placeholder: String, route: String
    )
        -> XMLElement
    {
        var period = shared.mappingRepresentationTemplates { template in
            guard let media = template[attribute: "media"], media.hasPrefix(placeholder) else { return template }
            var routed = template
            routed[attribute: "media"] = route + media.dropFirst(placeholder.count)
            return routed
        }
        period[attribute: "id"] = id
        return period
    }

    /// `segments` as a `SegmentTimeline`: runs of equal length in one `S` each, a `t` where a
    /// segment does not start where the one before ended.
    static func timeline(_ segments: [DASHSegment], like sibling: XMLElement) -> XMLElement {
        var entries: [(t: UInt64?, d: UInt64, r: Int)] = []
        var end: UInt64?
        for segment in segments {
            if let last = entries.last, end == segment.time, last.d == segment.length {
                entries[entries.count - 1].r += 1
            } else {
                entries.append((end == segment.time ? nil : segment.time, segment.length, 0))
            }
            end = segment.time &+ segment.length
        }
        var timeline = XMLElement(name: prefixed("SegmentTimeline", like: sibling))
        timeline.children = entries.map { entry in
            var s = XMLElement(name: prefixed("S", like: sibling))
            if let t = entry.t { s[attribute: "t"] = String(t) }
            s[attribute: "d"] = String(entry.d)
            if entry.r > 0 { s[attribute: "r"] = String(entry.r) }
            return .element(s)
        }
        return timeline
    }

    /// Whitespace between elements: the period is written compact (the origin's indentation of
    /// what was taken out would be left behind as blank lines).
    static func isBlank(_ node: XMLNode) -> Bool {
        if case .text(let text) = node { return text.allSatisfy(\.isWhitespace) }
        return false
    }

    /// `name` in the namespace prefix `sibling` is written with.
    static func prefixed(_ name: String, like sibling: XMLElement) -> String {
        DASHVODSplicer.prefix(of: sibling) + name
    }
}

extension DASHCreativeFit {
    /// The fitted ad's representations as the media playlists a live session keeps per creative,
    /// keyed as `DASHAdPeriod.fitted` names them (`v0`, `a0`, in the pairs' order): the layout
    /// reads the `v0` segments' lengths, and the ad segment route finds segment `n` of key `k`
    /// where the routed template's `$Number$` = n points (every address absolute).
    public func playlists() -> [RenditionKey: MediaPlaylist] {
        var result: [RenditionKey: MediaPlaylist] = [:]
        var counts: [RenditionKey.Kind: Int] = [:]
        for pair in pairs {
            let kind: RenditionKey.Kind = pair.content.contentType == "video" ? .variant : .audio
            for representation in pair.ad.representations {
                guard let template = representation.segmentTemplate, template.media != nil else { continue }
                let key = RenditionKey(kind, counts[kind, default: 0])
                counts[kind, default: 0] += 1
                let id = representation.id ?? ""
                let at = base(of: pair.ad, representation)
                let segments = template.segments(
                    representationID: id, bandwidth: representation.bandwidth, periodDuration: duration)
                var playlist = MediaPlaylist(
                    version: 7, targetDuration: Int(min((segments.map(\.duration).max() ?? 1).rounded(.up), 1e6)),
                    playlistType: .vod, endList: true)
                playlist.segments = segments.map { segment in
                    MediaSegment(uri: URIReference.resolve(segment.url, against: at), duration: segment.duration)
                }
                if let initialization = template.initialization, !playlist.segments.isEmpty {
                    playlist.segments[0].map = MediaInitializationSection(
                        uri: URIReference.resolve(
                            SegmentTemplate.bindingRepresentation(
                                initialization, representationID: id, bandwidth: representation.bandwidth),
                            against: at))
                }
                result[key] = playlist
            }
        }
        return result
    }
}

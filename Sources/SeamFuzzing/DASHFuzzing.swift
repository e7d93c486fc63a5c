import DASH
import HLS
import Stitching

/// The DASH target: an origin's MPD through the XML reader, the MPD rules and every typed view,
/// then a write and a re-read that must give the same tree; then the engine's DASH work on it as
/// a title (marks, conditioning's view, a rendition filter, a stitch of a fixed ad) and as an ad
/// (fit and fitted period), none of which may trap.
enum DASHFuzzing {
    static func run(_ bytes: [UInt8]) {
        let reader = XMLReader(maxBytes: 1 << 20, maxDepth: 64)
        guard let document = try? reader.read(bytes) else { return }
        let written = XMLWriter.write(document)
        guard let again = try? reader.read(written) else {
            fatalError("XMLWriter wrote a document XMLReader refuses:\n\(written)")
        }
        if again != document { fatalError("a write and read changed the document:\n\(written)") }
        guard let mpd = try? MPD(document: document) else { return }
        _ = (mpd.isDynamic, mpd.mediaPresentationDuration, mpd.minimumUpdatePeriod, mpd.baseURLs)
        // Seam counts a template's segments before it lists any (sessions.maxSegmentsPerPlaylist,
        // checked by the title's and the live window's readers), so a few bytes that state a
        // hundred thousand segments (`r="-1"` over a tiny `d`) never reach the lists or the
        // engine; the fuzzer counts and stops there too, at a bound its executions can afford.
        var listable = true
        for period in mpd.periods {
            _ = (period.id, period.start, period.duration, period.baseURLs)
            for stream in period.eventStreams { _ = (stream.schemeIdUri, stream.timescale, stream.events.count) }
            for set in period.adaptationSets {
                _ = (set.contentType, set.roles, set.isProtected, set.lang)
                for representation in set.representations {
                    _ = (representation.bandwidth, representation.codecs, representation.height)
                    guard let template = representation.segmentTemplate else { continue }
                    let periodDuration = period.duration ?? mpd.mediaPresentationDuration
                    guard template.segmentCount(periodDuration: periodDuration) <= maxListedSegments else {
                        listable = false
                        continue
                    }
                    _ = template.segments(
                        representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                        periodDuration: periodDuration)
                }
            }
        }
        // The validator lists segments too (each period's to the next one's start).
        guard listable else { return }
        _ = MPDValidator.check(mpd)
        engine(mpd)
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        if let seconds = DASHDuration.seconds(text) { _ = DASHDuration.text(seconds) }
    }

    /// The most segments one template may state for its lists and the engine to run.
    static let maxListedSegments = 2000

    static let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "F")

    /// A fixed title and ad: video avc1 and English audio, 5 s segments.
    static func fixed(seconds: Int) -> MPD? {
        try? MPD(
            parsing: """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(seconds)S"><Period id="p">\
                <AdaptationSet id="1" contentType="video" mimeType="video/mp4" codecs="avc1.4d401f">\
                <SegmentTemplate timescale="1" duration="5" initialization="v/init.mp4" media="v/$Number$.m4s"/>\
                <Representation id="v" bandwidth="800000" height="360"/></AdaptationSet>\
                <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">\
                <SegmentTemplate timescale="1" duration="5" initialization="a/init.mp4" media="a/$Number$.m4s"/>\
                <Representation id="a" bandwidth="64000"/></AdaptationSet></Period></MPD>
                """)
    }

    static let title = fixed(seconds: 60)
    static let ad = fixed(seconds: 10).map { AdCreative(url: "https://ads.example/ad.mpd", dash: $0) }

    static func engine(_ mpd: MPD) {
        _ = DASHMarkers.breaks(in: mpd)
        _ = DASHConditioning.contentSet(mpd, url: "https://origin.example/title/manifest.mpd")
        _ = RenditionFilter(maxBandwidth: 2_000_000, maxHeight: 720, maxFrameRate: 30, codecs: ["avc", "aac"])
            .filtered(mpd)
        // Segment lists are computed per representation: a stitch of an input with hundreds of
        // them would measure the fuzzer's patience, not Seam.
        let representations = mpd.periods.flatMap(\.adaptationSets).reduce(0) { $0 + $1.representations.count }
        guard representations <= 8 else { return }
        if let title,
            case .success(let fit) = DASHCreativeFit.fit(mpd, url: "https://ads.example/x.mpd", content: title)
        {
            _ = DASHAdPeriod.fitted(fit, id: "ad", pod: 0, ad: 0, mode: .server, urls: urls)
            _ = DASHAdPeriod.fitted(fit, id: "ad", pod: 0, ad: 0, mode: .client, urls: urls)
        }
        if let ad {
            let planned = BreakPlan.Ad(
                ad: PlannedAd(id: "a", duration: 10, creativeURL: ad.url), creative: ad)
            let plan = BreakPlan(breaks: [
                BreakPlan.Break(position: .preroll, ads: [planned]),
                BreakPlan.Break(position: .midroll(seconds: 12), ads: [planned]),
                BreakPlan.Break(position: .postroll, ads: [planned]),
            ])
            _ = DASHVODStitcher.stitch(
                mpd, contentURL: "https://origin.example/title/manifest.mpd", plan: plan, mode: .server, urls: urls)
        }
        live(mpd)
    }

    /// The input as a live channel's MPD: read as the timeline's window at a few wall-clock
    /// instants (its own clock, and far from it), a session's timeline advanced on it with each
    /// break filled by the fixed ad, and the session's MPD written, twice (the second reload
    /// from the same window). A static MPD is read as the reload of a channel that ended.
    static func live(_ mpd: MPD) {
        let start = mpd.availabilityStartTime.flatMap { DateTime(text: $0).secondsSince1970 } ?? 0
        for now in [start + 60, start + 3600, 1_800_000_000] {
            guard
                case .success(let window) = DASHLiveWindow.make(
                    mpd, url: "https://origin.example/live.mpd", now: now, following: !mpd.isDynamic),
                window.reference.segments.count <= 2000
            else { continue }
            _ = window.contentSet()
            var timeline = LiveTimeline(configuration: .init(targetDuration: max(1, window.reference.targetDuration)))
            var decisions = 0
            while case .needsDecision(let pending) = timeline.advance(with: window.reference), decisions < 8 {
                decisions += 1
                timeline.resolve(
                    breakNumber: pending.number,
                    layout: LiveBreakLayout.make(breakDuration: pending.duration, ads: [[5, 5]], slate: nil))
            }
            let cache = DASHLiveRenderer.ContentPeriodCache()
            for _ in 0..<2 {
                _ = DASHLiveRenderer.render(timeline, window: window, contentPeriods: cache) { _, _, id, _ in
                    XMLElement(name: "Period", attributes: [XMLAttribute(name: "id", value: id)])
                }.map { $0.serialized() }
            }
        }
    }
}

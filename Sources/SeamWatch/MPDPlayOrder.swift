import DASH
import HLS

/// The segments a DASH player walks through in an MPD, in play order, as `SimulatedPlayer`
/// plays them: in each period, the first representation of its first video adaptation set
/// (else of its first audio set, else of its first set), as a player starting on the
/// lowest-numbered choice does; every address absolute, from the time-shift buffer's start. A dynamic MPD lists the segments out on the wall clock (complete by `now`);
/// it is live while it keeps a `minimumUpdatePeriod` (DASH-IF ends a live presentation by
/// taking it away).
struct MPDPlayOrder: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var url: String
        var duration: Double
        /// Wall-clock start (seconds since 1970) in a dynamic MPD; nil in a static one.
        var date: Double?
        /// Milliseconds from the MPD's time zero to its start: increasing through the MPD and
        /// the same on every reload, so a reload's new segments are those with a larger key.
        var key: Int
    }

    var entries: [Entry]
    var isLive: Bool
    /// How often a live MPD is read again (its `minimumUpdatePeriod`, from 1 to 10 s).
    var reloadInterval: Double

    /// Most segments listed from one MPD (a day of 1 s segments).
    static let maxEntries = 100_000

    init(_ mpd: MPD, url: String, now: Double) {
        let availabilityStart = mpd.availabilityStartTime.flatMap { DateTime(text: $0).secondsSince1970 }
        let dynamic = mpd.isDynamic && availabilityStart != nil
        isLive = dynamic && mpd.minimumUpdatePeriod != nil
        reloadInterval = min(10, max(1, mpd.minimumUpdatePeriod ?? 2))
        // A dynamic MPD's segments older than its time-shift buffer are gone from the origin.
        let depth = mpd.root[attribute: "timeShiftBufferDepth"].flatMap(DASHDuration.seconds)
        let oldest = dynamic ? availabilityStart.flatMap { start in depth.map { now - start - $0 } } : nil
        var base = url
        if let own = mpd.baseURLs.first { base = URIReference.resolve(own, against: base) }
        var entries: [Entry] = []
        var elapsed: Double? = 0
        let periods = mpd.periods
        for (index, period) in periods.enumerated() {
            guard let start = period.start ?? elapsed, start.isFinite else { break }
            let length =
                period.duration ?? (index + 1 < periods.count ? periods[index + 1].start.map { $0 - start } : nil)
                ?? (index == periods.count - 1 ? mpd.mediaPresentationDuration.map { $0 - start } : nil)
            elapsed = length.map { start + $0 }
            let sets = period.adaptationSets
            guard
                let set = sets.first(where: { $0.contentType == "video" })
                    ?? sets.first(where: { $0.contentType == "audio" }) ?? sets.first,
                let representation = set.representations.first, let template = representation.segmentTemplate
            else { continue }
            var at = base
            for next in [period.baseURLs.first, set.baseURLs.first, representation.baseURLs.first] {
                if let next { at = URIReference.resolve(next, against: at) }
            }
            // Out by now: what has been made since the period began (a dynamic MPD).
            let made = availabilityStart.map { now - $0 - start }
            let until = dynamic ? min(length ?? .infinity, made ?? .infinity) : length
            let segments = template.segments(
                representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                periodDuration: until.flatMap { $0.isFinite ? max(0, $0) : nil })
            for segment in segments {
                if dynamic, let made, segment.start + segment.duration > made + 0.001 { break }
                if let length, segment.start >= length - 0.001 { break }
                guard entries.count < Self.maxEntries else { break }
                let offset = start + segment.start
                if let oldest, offset + segment.duration <= oldest { continue }
                entries.append(
                    Entry(
                        url: URIReference.resolve(segment.url, against: at), duration: segment.duration,
                        date: dynamic ? availabilityStart.map { $0 + offset } : nil,
                        key: Int((min(max(offset, -1e12), 1e12) * 1000).rounded())))
            }
        }
        self.entries = entries
    }
}

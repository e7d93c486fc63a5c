import DASH
import HLS
import SCTE35

/// One reload of a live (dynamic) MPD as a live session follows it: the MPD, and its video seen
/// as the media playlist the live timeline already follows for HLS (`reference`). A segment's
/// media sequence number is its DASH `$Number$`, its program date-time the wall-clock instant it
/// starts (`availabilityStartTime` + its period's start + its time in the period), a new period
/// a discontinuity, and each SCTE-35 event that starts a break an `EXT-X-DATERANGE` with
/// `SCTE35-OUT` on the segment it falls in — so cues, schedules, announced breaks, joins inside a
/// break, decisions and the session record work for DASH exactly as for HLS.
/// `DASHLiveRenderer` then writes the session's periods from the timeline and this MPD.
public struct DASHLiveWindow: Sendable, Equatable {
    /// Where one of the MPD's periods sits, and which of the reference's segments it holds.
    public struct PeriodSpan: Sendable, Equatable {
        /// Index in `mpd.periods`.
        public var index: Int
        /// Seconds from `availabilityStartTime`.
        public var start: Double
        /// The period's absolute base address (the MPD's location, its own and the period's `BaseURL`).
        public var base: String
        /// The reference segments' numbers in this period (empty when it lists none yet).
        public var numbers: ClosedRange<Int>?
    }

    public var mpd: MPD
    /// Where the MPD was fetched from, after redirects.
    public var url: String
    /// `availabilityStartTime`, seconds since 1970.
    public var availabilityStart: Double
    /// The first video representation of each period, as one live media playlist (URIs absolute).
    public var reference: MediaPlaylist
    public var periods: [PeriodSpan]
    /// The wall-clock time it was read at (seconds since 1970): a fixed-length template's
    /// segments complete by then are out.
    public var readAt: Double

    /// Most segments one reload lists for the reference: a live window is minutes.
    public static let maxSegments = 20_000
    /// The largest segment number a live window may carry (HLS's media sequence bound, 2^53 − 1).
    public static let maxNumber = (1 << 53) - 1
    /// The furthest a period or a segment may start from `availabilityStartTime` (about 317
    /// years): times past it are an origin's mistake, and every wall-clock sum stays exact.
    public static let maxSeconds = 1e10
    /// Most SCTE-35 break events read from one MPD: a window holds a few.
    public static let maxBreakEvents = 64

    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case notDynamic(url: String)
        case noAvailabilityStart(url: String)
        case noPeriodStart(path: String)
        case noVideo(path: String)
        case numbersGoBack(path: String, number: Int, after: Int)
        case tooManySegments(url: String)
        case numberTooLarge(path: String)
        case timeOutOfRange(path: String)
        case ended(url: String)

        public var description: String {
            switch self {
            case .notDynamic(let url):
                return "\(url) is a static MPD: a live session follows a dynamic one (type=\"dynamic\")"
            case .noAvailabilityStart(let url):
                return
                    "the live MPD at \(url) has no availabilityStartTime Seam can read (an xs:dateTime such as 2026-01-01T00:00:00Z); live DASH places segments on the wall clock by it"
            case .noPeriodStart(let path):
                return
                    "\(path) has no start, and the period before it no duration; a live MPD gives every period a start"
            case .noVideo(let path):
                return
                    "\(path) has no video representation whose segments a SegmentTemplate names; Seam's live DASH follows the first video representation's segments"
            case .numbersGoBack(let path, let number, let after):
                return
                    "the video segments of \(path) start at number \(number), not after \(after) where the period before ended; Seam's live DASH needs $Number$ to go on across periods (startNumber)"
            case .numberTooLarge(let path):
                return
                    "the video segments of \(path) are numbered past \(DASHLiveWindow.maxNumber) (startNumber); a live window's numbers stay below 2^53"
            case .timeOutOfRange(let path) where path.hasSuffix("@mediaPresentationDuration"):
                return
                    "\(path) ends the presentation more than \(Int(DASHLiveWindow.maxSeconds)) s from availabilityStartTime; check the MPD's mediaPresentationDuration"
            case .timeOutOfRange(let path):
                return
                    "\(path) places its start or a video segment more than \(Int(DASHLiveWindow.maxSeconds)) s from availabilityStartTime; check the period's start and the segments' times (timescale, t, presentationTimeOffset)"
            case .ended(let url):
                return
                    "the live MPD at \(url) became static without saying where it ends on the live clock (availabilityStartTime, and mediaPresentationDuration or the last period's start and duration): the channel ended. Start playback again to play what it published as a VOD title"
            case .tooManySegments(let url):
                return
                    "the live MPD at \(url) lists more than \(DASHLiveWindow.maxSegments) video segments; a live window lists minutes"
            }
        }
    }

    /// Reads `mpd` (fetched from `url`) at wall-clock time `now` (seconds since 1970), which
    /// decides which segments of a fixed-length (`duration`) template are out: those complete
    /// by `now`, back to `timeShiftBufferDepth` (else 60 s). A `SegmentTimeline` lists what is out.
    ///
    /// A channel that ends says so in one of two ways, and either gives a window whose
    /// reference ends (`EXT-X-ENDLIST`), so the timeline finishes and the session's MPD ends
    /// with it: the DASH-IF way, still dynamic with a `mediaPresentationDuration` and no
    /// `minimumUpdatePeriod`, once the clock has passed that end; or the MPD turned static,
    /// read as all out, its last `timeShiftBufferDepth` (else 60 s) kept.
    /// - Parameter following: true when the MPD is a reload of a live channel already followed:
    ///   a static one then means the channel ended, not a VOD title given as live.
    public static func make(
        _ mpd: MPD, url: String, now: Double, following: Bool = false
    ) -> Result<DASHLiveWindow, Refusal> {
        guard mpd.isDynamic || following else { return .failure(.notDynamic(url: url)) }
        guard let ast = mpd.availabilityStartTime.flatMap({ DateTime(text: $0).secondsSince1970 }) else {
            return .failure(mpd.isDynamic ? .noAvailabilityStart(url: url) : .ended(url: url))
        }
        // Where the presentation ends (seconds from availabilityStartTime), when the MPD says.
        let presentationEnd = mpd.mediaPresentationDuration ?? (mpd.isDynamic ? nil : lastPeriodEnd(mpd))
        guard mpd.isDynamic || presentationEnd != nil else { return .failure(.ended(url: url)) }
        if let presentationEnd {
            guard presentationEnd.isFinite, abs(presentationEnd) <= maxSeconds else {
                return .failure(.timeOutOfRange(path: "MPD@mediaPresentationDuration"))
            }
        }
        // DASH-IF's end: no more updates (no minimumUpdatePeriod) and the clock past the end; a
        // duration on an MPD still updated may be a running one, or announce an end not reached.
        let ended =
            !mpd.isDynamic || (mpd.minimumUpdatePeriod == nil && presentationEnd.map { now >= ast + $0 } ?? false)
        // An ended MPD is read as of its end: all of it is out.
        let readAt = ended ? ast + (presentationEnd ?? 0) : now
        let depth = mpd.root[attribute: "timeShiftBufferDepth"].flatMap(DASHDuration.seconds) ?? 60
        var base = url
        if let document = mpd.baseURLs.first { base = URIReference.resolve(document, against: base) }
        var playlist = MediaPlaylist(version: 7, targetDuration: 1)
        playlist.hasMediaSequenceTag = true
        var spans: [PeriodSpan] = []
        var lastNumber: Int?
        var longest = 1.0
        var elapsed: Double?
        let periods = mpd.periods
        for (index, period) in periods.enumerated() {
            guard let start = period.start ?? elapsed ?? (index == 0 ? 0 : nil) else {
                return .failure(.noPeriodStart(path: period.path))
            }
            guard start.isFinite, abs(start) <= maxSeconds else { return .failure(.timeOutOfRange(path: period.path)) }
            let next = periods[safe: index + 1]?.start
            let length =
                period.duration ?? next.map { $0 - start }
                ?? (index == periods.count - 1 ? presentationEnd.map { $0 - start } : nil)
            elapsed = length.map { start + $0 }
            var periodBase = base
            if let own = period.baseURLs.first { periodBase = URIReference.resolve(own, against: periodBase) }
            guard let (set, representation) = referenceRepresentation(of: period),
                let template = representation.segmentTemplate
            else { return .failure(.noVideo(path: period.path)) }
            var at = periodBase
            for next in [set.baseURLs.first, representation.baseURLs.first] {
                if let next { at = URIReference.resolve(next, against: at) }
            }
            let earliest = readAt - ast - start - depth
            var segments = liveSegments(
                template, representation: representation, periodStart: start, periodLength: length,
                availabilityStart: ast, now: readAt, earliest: earliest)
            // A static MPD's timeline may list the whole event: keep what a live window would.
            if !mpd.isDynamic { segments.removeAll { $0.start + $0.duration <= earliest } }
            var span = PeriodSpan(index: index, start: start, base: periodBase, numbers: nil)
            if let first = segments.first, let last = segments.last {
                guard first.number >= 0, last.number <= maxNumber, first.number <= last.number else {
                    return .failure(.numberTooLarge(path: period.path))
                }
                guard abs(start + last.start + last.duration) <= maxSeconds else {
                    return .failure(.timeOutOfRange(path: period.path))
                }
                if let lastNumber, first.number <= lastNumber {
                    return .failure(.numbersGoBack(path: period.path, number: first.number, after: lastNumber))
                }
                span.numbers = first.number...last.number
                if playlist.segments.isEmpty { playlist.mediaSequence = first.number }
                let map = template.initialization.map {
                    MediaInitializationSection(
                        uri: URIReference.resolve(
                            SegmentTemplate.bindingRepresentation(
                                $0, representationID: representation.id ?? "", bandwidth: representation.bandwidth),
                            against: at))
                }
                for (position, segment) in segments.enumerated() {
                    guard playlist.segments.count < maxSegments else { return .failure(.tooManySegments(url: url)) }
                    // Numbers with a gap between them would shift every later segment's number.
                    let expected = playlist.mediaSequence + playlist.segments.count
                    if segment.number != expected, !playlist.segments.isEmpty {
                        return .failure(
                            .numbersGoBack(path: period.path, number: segment.number, after: expected - 1))
                    }
                    longest = max(longest, segment.duration)
                    playlist.segments.append(
                        MediaSegment(
                            uri: URIReference.resolve(segment.url, against: at), duration: segment.duration,
                            // A new period: after one listed here, or its own first segment with the
                            // period before already out of the window.
                            discontinuity: position == 0 && (lastNumber != nil || (index > 0 && segment.start < 0.001)),
                            map: position == 0 ? map : nil,
                            programDateTime: DateTime(secondsSince1970: ast + start + segment.start)))
                }
                lastNumber = last.number
            }
            spans.append(span)
        }
        playlist.targetDuration = Int(min(longest.rounded(), 1e6))
        playlist.endList = ended
        var window = DASHLiveWindow(
            mpd: mpd, url: url, availabilityStart: ast, reference: playlist, periods: spans, readAt: readAt)
        window.markBreaks()
        return .success(window)
    }

    /// Where a static MPD's last period ends (seconds from its start): its `start` plus its
    /// `duration`, both said outright; nil otherwise.
    static func lastPeriodEnd(_ mpd: MPD) -> Double? {
        guard let last = mpd.periods.last, let start = last.start, let duration = last.duration else { return nil }
        return start + duration
    }

    /// The period holding reference segment `number`.
    public func span(ofSegment number: Int) -> PeriodSpan? {
        periods.last { $0.numbers.map { $0.lowerBound <= number } ?? false }
    }

    /// The video set and representation whose segments drive the timeline: the first video
    /// representation (not trick play) of the period whose segments a template with `media` names.
    static func referenceRepresentation(of period: Period) -> (AdaptationSet, Representation)? {
        for set in period.adaptationSets where set.contentType == "video" && !DASHCreativeFit.isTrickPlay(set) {
            if let representation = set.representations.first(where: { $0.segmentTemplate?.media != nil }) {
                return (set, representation)
            }
        }
        return nil
    }

    /// The segments of one representation out at `now`: a timeline's as listed (a last `r="-1"`
    /// running to `now`); a fixed-length template's complete by `now`, from the first ending at
    /// or after `earliest` (seconds from the period's start, as the segments' times are).
    public static func liveSegments(
        _ template: SegmentTemplate, representation: Representation, periodStart: Double, periodLength: Double?,
        availabilityStart: Double, now: Double, earliest: Double, addressed: Bool = true
    ) -> [DASHSegment] {
        let elapsed = now - availabilityStart - periodStart
        let until = min(periodLength ?? .infinity, elapsed)
        if template.timeline != nil {
            let listed = template.segments(
                representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                periodDuration: until.isFinite ? max(0, until) : nil, addressed: addressed)
            // An open-ended last entry (`r="-1"`) runs to now: its segment still being made is not out.
            guard template.timeline?.last?.r ?? 0 < 0 else { return listed }
            return listed.filter { $0.start + $0.duration <= until + 0.001 }
        }
        guard let length = template.duration, length > 0, until.isFinite, until > 0 else { return [] }
        let timescale = Double(max(1, template.timescale ?? 1))
        let seconds = Double(length) / timescale
        let endIndex = (until / seconds + 1e-9).rounded(.down)
        let beginIndex = (earliest / seconds - 1 - 1e-9).rounded(.up)
        guard endIndex.isFinite, beginIndex.isFinite || beginIndex < 0 else { return [] }
        let end = Int(max(0, min(endIndex, 1e12)))
        let begin = Int(max(0, min(beginIndex, 1e12)))
        guard end > begin else { return [] }
        let offset = UInt64(max(0, template.presentationTimeOffset ?? 0))
        let first = template.startNumber ?? 1
        // Numbers past maxNumber are refused by `make`; here they only must not wrap.
        guard first >= 0, first <= maxNumber, end <= maxNumber - first else { return [] }
        return (max(begin, end - maxSegments)..<end).map { index in
            let time = offset &+ UInt64(index) &* UInt64(length)
            let number = first + index
            return DASHSegment(
                number: number, time: time, length: UInt64(length), start: Double(index) * seconds,
                duration: seconds,
                url: addressed
                    ? SegmentTemplate.substitute(
                        template.media ?? "", representationID: representation.id ?? "", number: number, time: time,
                        bandwidth: representation.bandwidth) : "")
        }
    }

    // MARK: Cues

    /// Puts each SCTE-35 event that starts a break (`DASHMarkers.breakStart`) on the reference
    /// segment it falls in, as a date range the live timeline reads as a cue out: one that
    /// started before the window on its first segment while it still runs (a session joining
    /// inside the break), one after the window on its last (a cue seen ahead of its start).
    mutating func markBreaks() {
        guard let firstStart = reference.segments.first?.programDateTime?.secondsSince1970 else { return }
        let starts = reference.segments.map { $0.programDateTime?.secondsSince1970 ?? firstStart }
        let windowEnd = (starts.last ?? firstStart) + (reference.segments.last?.duration ?? 0)
        var read = 0
        var placed = Set<String>()
        let periods = mpd.periods
        for span in self.periods {
            guard let period = periods[safe: span.index] else { continue }
            for stream in period.eventStreams {
                guard let scheme = stream.schemeIdUri?.lowercased(), DASHMarkers.schemes.contains(scheme) else {
                    continue
                }
                let timescale = Double(max(1, stream.timescale))
                let offset = stream.element[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0
                for event in stream.events {
                    let start =
                        availabilityStart + span.start
                        + Double(event.presentationTime &- min(offset, event.presentationTime)) / timescale
                    // Only events near the window matter (a break under way, or one an hour
                    // ahead at most), and only so many: a hostile MPD may list thousands.
                    guard start.isFinite, start < windowEnd + 3600, start > firstStart - 86_400,
                        read < Self.maxBreakEvents,
                        let planned = DASHMarkers.breakStart(event.element, xml: scheme.hasSuffix(":xml"))
                    else { continue }
                    read += 1
                    guard let seconds = event.duration.map({ Double($0) / timescale }) ?? planned.seconds,
                        seconds > 0, seconds < 86_400, start + seconds > firstStart
                    else { continue }
                    // Event ids are unique within one event stream: the period names the rest.
                    let scope = period.id ?? String(Int64((span.start * 1000).rounded()))
                    let id =
                        "dash-scte35-\(scope)-"
                        + (event.id ?? String(Int64(((start - availabilityStart) * 1000).rounded())))
                    guard placed.insert(id).inserted else { continue }
                    var range = DateRange(id: id, startDate: DateTime(secondsSince1970: start))
                    range.plannedDuration = seconds
                    let eventID = event.id.flatMap { UInt32($0) } ?? UInt32(truncatingIfNeeded: Int64(start))
                    range.scte35Out = try? SpliceInfoSectionEncoder().hex(
                        .spliceInsert(.programOut(eventID: eventID, breakDuration: UInt64(seconds * 90_000))))
                    // The segment the event falls in: the last starting at or before it.
                    var low = 0
                    var high = starts.count - 1
                    while low < high {
                        let middle = (low + high + 1) / 2
                        if starts[middle] <= start + 0.001 { low = middle } else { high = middle - 1 }
                    }
                    reference.segments[low].dateRanges.append(range)
                }
            }
        }
    }
}

extension DASHLiveWindow {
    /// The newest period holding video segments, seen as the HLS title it would be
    /// (`DASHConditioning.contentSet`: a variant per video representation, an audio rendition per
    /// audio set, the segments out now): what a live channel reads its ladder, its target
    /// duration and its conditioning from. Nil when it has no video addressed by a template.
    public func contentSet() -> ContentSet? {
        guard let span = periods.last(where: { $0.numbers != nil }), let numbers = span.numbers,
            let period = mpd.periods[safe: span.index]
        else { return nil }
        let firstStart =
            (reference.segments[safe: numbers.lowerBound - reference.mediaSequence]?.programDateTime?
                .secondsSince1970 ?? availabilityStart + span.start) - availabilityStart
        let end = readAt - availabilityStart
        var element = DASHLiveRenderer.contentPeriod(
            period, span: span, window: self, start: firstStart, end: end, id: "live")
        element[attribute: "start"] = nil
        element[attribute: "duration"] = DASHDuration.text(max(0, end - firstStart))
        var document = mpd.document
        document.root.attributes = document.root.attributes.filter {
            !["type", "availabilityStartTime", "publishTime", "minimumUpdatePeriod", "timeShiftBufferDepth"]
                .contains($0.name)
        }
        document.root[attribute: "type"] = "static"
        document.root.children =
            document.root.children.filter { node in
                !["Period", "BaseURL", "Location", "PatchLocation"].contains { node.isElement(named: $0) }
            } + [.element(element)]
        guard let snapshot = try? MPD(document: document) else { return nil }
        return DASHConditioning.contentSet(snapshot, url: url)
    }
}

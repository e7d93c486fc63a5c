import DASH
import Foundation
import HLS

/// Writes a live session's MPD from its `LiveTimeline` and the origin's newest MPD
/// (`DASHLiveWindow`): every run of the timeline — content between breaks, each ad — is one
/// period, in the order the timeline plays them.
///
/// - A period starts where its run's first entry starts on the wall clock (its program
///   date-time less `availabilityStartTime`): content at the origin's own time, an ad where the
///   break began plus the ads before it. A published period never moves: once its first
///   segments are trimmed its start stays (`LiveTimeline.leadingRunStart`), and its id is made
///   from what it plays (`seam-ad-<break>-<ad>`) or its start (`seam-content-<ms>`).
/// - A content period is the origin period its segments come from, every representation's
///   `SegmentTemplate` written out for the segments whose middle falls in the run — one length
///   throughout as that length (`duration`), else an explicit `SegmentTimeline` — its
///   `presentationTimeOffset` moved to the period's start, so each segment address stays the
///   origin's; its events stay at their place.
/// - An ad period is the creative's (`adPeriod`, from `DASHAdPeriod.fitted`), listing the
///   segments the timeline has placed so far: the stitched live edge keeps pace with the origin's.
///   A bumper (`seam-bumper-<break>-<position>`) and each pass through the slate
///   (`seam-slate-<break>-<pass>`) are periods of their own in the same way, at their own
///   addresses.
/// - A content period followed by another lasts until it; the newest says its end too (its
///   listed end and a minute: GStreamer needs one; or the start of a break known ahead); an ad
///   period lasts its ad, and the content after it starts at the origin's time (a break's
///   content cover may end after its ads).
public enum DASHLiveRenderer {
    /// How far past its listed end the newest content period says it runs (seconds).
    static let openPeriodMargin = 60.0

    public enum Refusal: Error, Sendable, Equatable {
        /// Nothing on the timeline falls in the origin's window (the origin went backwards).
        case nothingInWindow
    }

    /// - Parameters:
    ///   - adPeriod: ad `ad` of break `breakNumber` as a period named `id`, listing the ad's
    ///     segments that start within its first `seconds`; nil when its media is not at hand
    ///     (the MPD then ends before it, as the HLS renderer's window does).
    ///   - contentPeriods: where content periods are kept between reloads, by what makes them
    ///     (the origin period and the run's span): the same for every viewer whose run starts and
    ///     ends alike, so a channel's sessions can share them (`ContentPeriodCache`); nil writes
    ///     each anew.
    ///   - upcoming: the wall-clock starts (seconds since 1970) of breaks known ahead besides the
    ///     timeline's upcoming cues (breaks announced on the channel): the newest content period
    ///     ends at the first of them.
    ///   - bumperPeriod: the bumper at `position` in break `breakNumber` as a period named `id`
    ///     (`seam-bumper-<break>-<position>`), listing its segments that start within its first
    ///     `seconds`; nil (or nil from it) when its media is not at hand (the MPD ends before it).
    ///   - slatePeriod: pass `pass` (from 0) through the slate in break `breakNumber` as a period
    ///     named `id`, listing the slate's segments that start within its first `seconds`; nil
    ///     (or nil from it) when the channel has no DASH slate (the MPD then ends before it).
    public static func render(
        _ timeline: LiveTimeline, window: DASHLiveWindow, contentPeriods: ContentPeriodCache? = nil,
        upcoming: [Double] = [],
        slatePeriod: ((_ breakNumber: Int, _ pass: Int, _ id: String, _ seconds: Double) -> XMLElement?)? = nil,
        bumperPeriod: (
            (_ breakNumber: Int, _ position: Bumper.Position, _ id: String, _ seconds: Double) -> XMLElement?
        )? = nil,
        adPeriod: (_ breakNumber: Int, _ ad: Int, _ id: String, _ seconds: Double) -> XMLElement?
    ) -> Result<MPD, Refusal> {
        let entries = timeline.entries
        let first = window.reference.mediaSequence
        let last = first + window.reference.segments.count - 1
        guard let start = entries.firstIndex(where: { $0.anchor >= first && $0.anchor <= last }) else {
            return .failure(.nothingInWindow)
        }
        var periods: [XMLElement] = []
        var isAd: [Bool] = []
        var lastContentEnd: Double?
        var index = start
        let mpdPeriods = window.mpd.periods
        runs: while index < entries.count, entries[index].anchor <= last {
            var end = index + 1
            while end < entries.count, !entries[end].discontinuity, entries[end].anchor <= last { end += 1 }
            let run = entries[index..<end]
            guard let begins = runStart(timeline, at: index) else { break runs }
            let periodStart = begins - window.availabilityStart
            switch run.first?.source {
            case .content?:
                let sequences = run.compactMap { entry -> Int? in
                    if case .content(let sequence) = entry.source { return sequence } else { return nil }
                }
                guard let firstSequence = sequences.first, let span = window.span(ofSegment: firstSequence),
                    let origin = mpdPeriods[safe: span.index], let lastEntry = run.last,
                    let lastTime = timeline.programDateTime(of: lastEntry)
                else { break runs }
                let runEnd = lastTime + lastEntry.duration - window.availabilityStart
                lastContentEnd = runEnd
                let key = ContentPeriodCache.Key(window: window, span: span.index, start: periodStart, end: runEnd)
                if let known = contentPeriods?.period(key) {
                    periods.append(known)
                } else {
                    let written = fixedLength(
                        contentPeriod(
                            origin, span: span, window: window, start: periodStart, end: runEnd,
                            id: "seam-content-\(Int64((periodStart * 1000).rounded()))"))
                    contentPeriods?.keep(written, for: key)
                    periods.append(written)
                }
                isAd.append(false)
            case .breakSlot(let number, let slot)?:
                if let layout = timeline.breakNumbered(Int(number))?.layout,
                    case .slate? = layout.slots[safe: Int(slot)]?.source
                {
                    guard case .breakSlot(_, let lastSlot)? = run.last?.source,
                        var period = slate(
                            layout, number: Int(number), slot: Int(slot), lastSlot: Int(lastSlot), period: slatePeriod)
                    else { break runs }
                    period[attribute: "start"] = DASHDuration.text(periodStart)
                    periods.append(period)
                    isAd.append(true)
                    index = end
                    continue runs
                }
                if let layout = timeline.breakNumbered(Int(number))?.layout,
                    case .bumper(let position, _)? = layout.slots[safe: Int(slot)]?.source
                {
                    // A bumper lists what is placed of it, as an ad does, and lasts its clip.
                    let id = "seam-bumper-\(number)-\(position.rawValue)"
                    guard case .breakSlot(_, let lastSlot)? = run.last?.source,
                        let first = layout.slots.first(where: {
                            if case .bumper(position, _) = $0.source { return true } else { return false }
                        }),
                        let listedEnd = layout.slots[safe: Int(lastSlot)]?.end,
                        var period = bumperPeriod?(Int(number), position, id, listedEnd - (first.end - first.duration))
                    else { break runs }
                    period[attribute: "id"] = id
                    period[attribute: "start"] = DASHDuration.text(periodStart)
                    periods.append(period)
                    isAd.append(true)
                    index = end
                    continue runs
                }
                guard let layout = timeline.breakNumbered(Int(number))?.layout,
                    case .ad(let ad, _)? = layout.slots[safe: Int(slot)]?.source,
                    case .breakSlot(_, let lastSlot)? = run.last?.source,
                    let adStart = layout.slots.first(where: {
                        if case .ad(ad, _) = $0.source { return true } else { return false }
                    }),
                    let listedEnd = layout.slots[safe: Int(lastSlot)]?.end,
                    var period = adPeriod(
                        Int(number), ad, "seam-ad-\(number)-\(ad)", listedEnd - (adStart.end - adStart.duration))
                else { break runs }
                // It lasts as long as the ad (the break's content cover may end a little later:
                // the next period starts at the origin's time, and players go on to it), and
                // lists the ad's segments outright: a player must not look for one past its end
                // while it is the newest period.
                period[attribute: "start"] = DASHDuration.text(periodStart)
                periods.append(period)
                isAd.append(true)
            case nil:
                break runs
            }
            // Only a run written moves on: a `break runs` leaves `index` at the run the MPD ends
            // before.
            index = end
        }
        guard !periods.isEmpty else { return .failure(.nothingInWindow) }
        // The channel ended (`DASHLiveWindow`: its reference ends) and every run is written.
        let ended =
            timeline.isFinished && window.reference.endList && index >= entries.count
            && isAd.last == false
        // Every content period but the last lasts until the next starts, said outright: players
        // look a live position up by the periods' spans.
        for index in periods.indices.dropLast() where !isAd[index] {
            guard let start = periods[index][attribute: "start"].flatMap(DASHDuration.seconds),
                let next = periods[index + 1][attribute: "start"].flatMap(DASHDuration.seconds)
            else { continue }
            periods[index][attribute: "duration"] = DASHDuration.text(next - start)
        }
        // An ad or slate period the next period meets, or the newest (whose end is its own
        // `duration`), is written with fixed-length templates where its segments are of one
        // length: GStreamer 1.22's dashdemux2 places a `SegmentTimeline` whose first `S@t` is 0
        // at the presentation's start, not the period's, so a viewer whose start point falls in
        // such a period found no segment and decoded nothing. One that a gap follows (no slate
        // filled what the ads left) keeps its timeline, which lists its segments exactly: a
        // fixed-length template counts segments to the next period's start, past the ad's last.
        // The switch on the reload that writes the period after it keeps every segment's
        // number, time and address.
        for index in periods.indices where isAd[index] {
            guard let start = periods[index][attribute: "start"].flatMap(DASHDuration.seconds),
                let length = periods[index][attribute: "duration"].flatMap(DASHDuration.seconds)
            else { continue }
            if index + 1 < periods.count {
                guard let next = periods[index + 1][attribute: "start"].flatMap(DASHDuration.seconds),
                    abs(next - (start + length)) < 0.05
                else { continue }
            }
            periods[index] = periods[index].mappingRepresentationTemplates {
                fixedLengthTemplate($0, shorterLastEndingAt: length)
            }
        }
        // The newest period, when content, says how far it runs: to its listed end and a minute
        // beyond, moved on with every reload. GStreamer 1.22's dashdemux2 gives a last period
        // without one the length of the period before it (its `duration` is not reset between
        // periods in gst_mpd_client2_setup_media_presentation), and then finds no period for a
        // live point past that — "Unable to find live period", the stream refused.
        // A break known ahead ends it where the break starts: a player at the live edge, which
        // reckons a fixed-length template's segments by the clock, then waits for the reload
        // that brings the ad period rather than fetch the break's content from the origin.
        // Once the channel has ended it lasts exactly to its end.
        var presentationEnd: Double?
        if let last = periods.indices.last, !isAd[last],
            let start = periods[last][attribute: "start"].flatMap(DASHDuration.seconds), let end = lastContentEnd
        {
            var until = end + (ended ? 0 : Self.openPeriodMargin)
            // Where each opens on the reference's segment grid: a cue at the start of the
            // segment it falls in, an announced break at the first segment from its start.
            let length = window.reference.segments.last?.duration ?? 0
            func onGrid(_ time: Double, up: Bool) -> Double {
                guard length > 0.001, time > end else { return end }
                let steps = (time - end) / length
                return end + (up ? (steps - 0.5 / length).rounded(.up) : (steps + 0.001).rounded(.down)) * length
            }
            // (Those behind the listed end have opened, or never will.)
            let ahead = { (time: Double) in time.isFinite && time > end - 0.5 }
            let cues = (timeline.upcomingCues ?? []).map { $0.start - window.availabilityStart }.filter(ahead)
                .map { onGrid($0, up: false) }
            let announced = upcoming.map { $0 - window.availabilityStart }.filter(ahead).map { onGrid($0, up: true) }
            if !ended, let next = (cues + announced).min() {
                until = min(until, max(end, next))
            }
            periods[last][attribute: "duration"] = DASHDuration.text(until - start)
            presentationEnd = end
        }
        var document = window.mpd.document
        if ended, let presentationEnd {
            end(&document.root, at: presentationEnd, window: window)
        } else {
            live(&document.root, window: window)
        }
        let dropped = ["Period", "BaseURL", "Location", "PatchLocation"]
        var children: [XMLNode] = []
        var placed = false
        for node in document.root.children {
            if node.isElement(named: "Period"), !placed {
                children += periods.map(XMLNode.element)
                placed = true
            }
            if dropped.contains(where: { node.isElement(named: $0) }) { continue }
            children.append(node)
        }
        document.root.children = children
        // Written from periods the origin's MPD and the ads' MPDs were read with.
        return .success(MPD(written: document))
    }

    /// The slate pass holding slot `slot` of `layout` as its period (`seam-slate-<break>-<pass>`),
    /// listing what is placed of it up to `lastSlot` and lasting the pass: the slate's length,
    /// or less for the pass the break's end cuts short.
    static func slate(
        _ layout: LiveBreakLayout, number: Int, slot: Int, lastSlot: Int,
        period: ((_ breakNumber: Int, _ pass: Int, _ id: String, _ seconds: Double) -> XMLElement?)?
    ) -> XMLElement? {
        let slots = layout.slots
        guard let period, slots.indices.contains(slot), slots.indices.contains(lastSlot) else { return nil }
        var first = slot
        while first > 0, !slots[first].discontinuity { first -= 1 }
        var end = first + 1
        while end < slots.count, !slots[end].discontinuity { end += 1 }
        var pass = -1
        for slot in slots[...first] where slot.discontinuity {
            if case .slate = slot.source { pass += 1 }
        }
        let passStart = slots[first].end - slots[first].duration
        let id = "seam-slate-\(number)-\(max(0, pass))"
        guard var element = period(number, max(0, pass), id, slots[lastSlot].end - passStart) else { return nil }
        element[attribute: "id"] = id
        element[attribute: "duration"] = DASHDuration.text(slots[end - 1].end - passStart)
        return element
    }

    /// The session's MPD while it goes on, whatever the origin's says of its own end (an end
    /// announced ahead, a channel ending inside a break, an MPD turned static): dynamic, reloaded
    /// every `minimumUpdatePeriod` (the origin's, else its segments' length), with no
    /// `mediaPresentationDuration` (its periods are the session's, not the origin's).
    static func live(_ root: inout XMLElement, window: DASHLiveWindow) {
        root[attribute: "type"] = "dynamic"
        root[attribute: "mediaPresentationDuration"] = nil
        if root[attribute: "minimumUpdatePeriod"] == nil {
            root[attribute: "minimumUpdatePeriod"] = DASHDuration.text(
                Double(max(1, window.reference.targetDuration)))
        }
        if root[attribute: "availabilityStartTime"] == nil {
            root[attribute: "availabilityStartTime"] = DateTime(secondsSince1970: window.availabilityStart).text
        }
        if root[attribute: "publishTime"] == nil {
            root[attribute: "publishTime"] = DateTime(secondsSince1970: window.readAt).text
        }
    }

    /// The session's MPD as the end of a live presentation (DASH-IF IOP, "Ending a live
    /// presentation"): still dynamic, so a player that follows it keeps its timeline (dash.js
    /// ignores an update that turns static), with a `mediaPresentationDuration` where the last
    /// period ends and no `minimumUpdatePeriod`, so it is not asked for again.
    static func end(_ root: inout XMLElement, at end: Double, window: DASHLiveWindow) {
        root[attribute: "minimumUpdatePeriod"] = nil
        root[attribute: "type"] = "dynamic"
        if root[attribute: "availabilityStartTime"] == nil {
            root[attribute: "availabilityStartTime"] = DateTime(secondsSince1970: window.availabilityStart).text
        }
        if root[attribute: "publishTime"] == nil {
            root[attribute: "publishTime"] = DateTime(secondsSince1970: window.readAt).text
        }
        root[attribute: "mediaPresentationDuration"] = DASHDuration.text(end)
    }

    /// The wall-clock start of the run holding `entries[index]`: the last entry at or before it
    /// that begins a run, else where the timeline's leading run began.
    static func runStart(_ timeline: LiveTimeline, at index: Int) -> Double? {
        let entries = timeline.entries
        var at = index
        while at > 0, !entries[at].discontinuity { at -= 1 }
        if at == 0, let leading = timeline.leadingRunStart { return leading }
        return timeline.programDateTime(of: entries[at])
    }

    /// Content periods written for one origin MPD, shared by the sessions that render from it:
    /// a period depends only on the origin's MPD and the run's start and end, so viewers whose
    /// runs match (all who joined before a run began) get one written copy. A reference type
    /// because every session's reload reads and fills it; the owner keeps one per channel and
    /// lets it go with the window (its key names the window, and it holds at most `capacity`).
    public final class ContentPeriodCache: @unchecked Sendable {
        public struct Key: Hashable {
            var readAt: Double
            var firstSegment: Int
            var span: Int
            var start: Double
            var end: Double

            init(window: DASHLiveWindow, span: Int, start: Double, end: Double) {
                readAt = window.readAt
                firstSegment = window.reference.mediaSequence
                self.span = span
                self.start = start
                self.end = end
            }
        }

        private let lock = NSLock()
        private var periods: [Key: XMLElement] = [:]
        let capacity: Int

        public init(capacity: Int = 64) { self.capacity = capacity }

        func period(_ key: Key) -> XMLElement? {
            lock.lock()
            defer { lock.unlock() }
            return periods[key]
        }

        func keep(_ period: XMLElement, for key: Key) {
            lock.lock()
            defer { lock.unlock() }
            // A new window makes the old ones' periods useless: start again rather than grow.
            if periods.count >= capacity || periods.keys.contains(where: { $0.readAt != key.readAt }) {
                periods.removeAll(keepingCapacity: true)
            }
            periods[key] = period
        }
    }

    // MARK: Addressing

    /// `period` (content) with each `SegmentTemplate` whose timeline is one length throughout
    /// (its last segment may be shorter) and starts a whole number of segments into the period
    /// written as that length (`duration`), numbered from the period's start: the form every
    /// player reads for live. GStreamer 1.22's dashdemux2 places a live `SegmentTimeline` wrongly
    /// in any period not starting at 0 (a first `S@t` of 0 is taken as none, and its seek counts
    /// from the timeline's start as if it were 0), so it found no segment to start a stitched
    /// live MPD at. A timeline of varying lengths stays as it is. (Ad and slate periods too,
    /// when nothing but their own end bounds them: see `render`.)
    static func fixedLength(_ period: XMLElement) -> XMLElement {
        period.mappingRepresentationTemplates { fixedLengthTemplate($0) }
    }

    /// - Parameter shorterLastEndingAt: an ad or slate period's length (seconds): its last
    ///   segment may then be shorter than the rest when it ends there (a fixed-length template
    ///   cuts the last segment at the period's end). Nil: one length throughout.
    static func fixedLengthTemplate(
        _ template: XMLElement, shorterLastEndingAt periodLength: Double? = nil
    )
        -> XMLElement
    {
        guard let timeline = template.elements(named: "SegmentTimeline").first else { return template }
        let entries = timeline.elements(named: "S").map { s in
            SegmentTimelineEntry(
                t: s[attribute: "t"].flatMap { UInt64($0) }, d: s[attribute: "d"].flatMap { UInt64($0) } ?? 0,
                r: s[attribute: "r"].flatMap { Int($0) } ?? 0)
        }
        guard let first = entries.first, let start = first.t, first.d > 0, entries.allSatisfy({ $0.r >= 0 }) else {
            return template
        }
        // One length throughout, no gap. (Not a shorter last segment in a content period: its
        // newest segment would be written as full length, and the template would change form
        // once it is not. An ad's or slate's may be, when it ends the period.)
        let timescale = Double(max(1, template[attribute: "timescale"].flatMap { UInt64($0) } ?? 1))
        var end = start
        for (position, entry) in entries.enumerated() {
            if let t = entry.t, t != end { return template }
            let (count, tooMany) = entry.r.addingReportingOverflow(1)
            guard !tooMany else { return template }
            if entry.d != first.d {
                let offset = Double(template[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0)
                guard let periodLength, position == entries.count - 1, position > 0, entry.r == 0,
                    entry.d < first.d,
                    abs((Double(end) + Double(entry.d) - offset) / timescale - periodLength) < 0.05
                else { return template }
            }
            let (length, overflow) = entry.d.multipliedReportingOverflow(by: UInt64(count))
            guard !overflow else { return template }
            let (next, past) = end.addingReportingOverflow(length)
            guard !past else { return template }
            end = next
        }
        let offset = UInt64(template[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0)
        let number = template[attribute: "startNumber"].flatMap { Int($0) } ?? 1
        guard start >= offset, (start - offset) % first.d == 0 else { return template }
        let before = Int(min((start - offset) / first.d, UInt64(Int.max / 2)))
        guard number - before >= 0 else { return template }
        var written = template
        written[attribute: "duration"] = String(first.d)
        written[attribute: "startNumber"] = String(number - before)
        written.children = []
        return written
    }

    // MARK: Content

    /// `origin` cut to `[start, end)` (seconds from `availabilityStartTime`).
    static func contentPeriod(
        _ origin: Period, span: DASHLiveWindow.PeriodSpan, window: DASHLiveWindow, start: Double, end: Double,
        id: String
    ) -> XMLElement {
        var period = origin.element
        period[attribute: "id"] = id
        period[attribute: "start"] = DASHDuration.text(start)
        period[attribute: "duration"] = nil
        let into = start - span.start
        let until = end - span.start
        let sets = origin.adaptationSets
        var setNumber = 0
        var children: [XMLNode] = []
        for node in period.children {
            guard case .element(let element) = node else {
                if !DASHAdPeriod.isBlank(node) { children.append(node) }
                continue
            }
            switch element.localName {
            case "BaseURL", "SegmentTemplate", "SegmentList", "SegmentBase":
                continue
            case "AdaptationSet":
                defer { setNumber += 1 }
                guard let set = sets[safe: setNumber],
                    let written = contentSet(
                        set, base: span.base, window: window, periodStart: span.start, from: into, until: until)
                else { continue }
                children.append(.element(written))
            case "EventStream":
                children.append(.element(eventStream(element, from: into, until: until)))
            default:
                children.append(node)
            }
        }
        period.children = children
        return period
    }

    /// One adaptation set of a content period: each representation's segments in `[from, until)`
    /// (seconds from the origin period's start), addressed absolutely; nil for a set whose
    /// segments no template names (a sidecar subtitle file has no place in a live run).
    static func contentSet(
        _ set: AdaptationSet, base: String, window: DASHLiveWindow, periodStart: Double, from: Double, until: Double
    ) -> XMLElement? {
        let representations = set.representations
        guard !representations.isEmpty, representations.allSatisfy({ $0.segmentTemplate?.media != nil }) else {
            return nil
        }
        var element = set.element
        var at = base
        if let own = set.baseURLs.first { at = URIReference.resolve(own, against: at) }
        var number = 0
        var children: [XMLNode] = []
        for node in element.children {
            guard case .element(let child) = node else {
                if !DASHAdPeriod.isBlank(node) { children.append(node) }
                continue
            }
            switch child.localName {
            case "BaseURL", "SegmentTemplate", "SegmentList", "SegmentBase":
                continue
            case "Representation":
                defer { number += 1 }
                guard let representation = representations[safe: number],
                    let template = representation.segmentTemplate, let media = template.media
                else { continue }
                var written = child
                var repBase = at
                if let own = representation.baseURLs.first { repBase = URIReference.resolve(own, against: repBase) }
                let segments = DASHLiveWindow.liveSegments(
                    template, representation: representation, periodStart: periodStart, periodLength: nil,
                    availabilityStart: window.availabilityStart, now: window.readAt, earliest: from - 60,
                    addressed: false
                ).filter { segment in
                    let middle = segment.start + segment.duration / 2
                    return middle >= from && middle < until
                }
                written.children.removeAll { node in
                    ["BaseURL", "SegmentTemplate", "SegmentList", "SegmentBase"].contains { node.isElement(named: $0) }
                        || DASHAdPeriod.isBlank(node)
                }
                let timescale = max(1, template.timescale ?? 1)
                let offset = UInt64(max(0, template.presentationTimeOffset ?? 0))
                var out = XMLElement(name: DASHAdPeriod.prefixed("SegmentTemplate", like: set.element))
                out[attribute: "timescale"] = String(timescale)
                out[attribute: "presentationTimeOffset"] = String(Self.moved(offset, by: from, timescale: timescale))
                let id = representation.id ?? ""
                if let initialization = template.initialization {
                    out[attribute: "initialization"] = URIReference.resolve(
                        SegmentTemplate.bindingRepresentation(
                            initialization, representationID: id, bandwidth: representation.bandwidth),
                        against: repBase)
                }
                out[attribute: "media"] = URIReference.resolve(
                    SegmentTemplate.bindingRepresentation(
                        media, representationID: id, bandwidth: representation.bandwidth),
                    against: repBase)
                out[attribute: "startNumber"] = String(segments.first?.number ?? template.startNumber ?? 1)
                out.children = [.element(DASHAdPeriod.timeline(segments, like: set.element))]
                written.children.append(.element(out))
                children.append(.element(written))
            default:
                children.append(node)
            }
        }
        element.children = children
        return element
    }

    /// `offset` (timescale units) moved on by `seconds`, saturating: an origin's timescale and
    /// times are its own, and no sum of them may trap.
    static func moved(_ offset: UInt64, by seconds: Double, timescale: Int) -> UInt64 {
        let ticks = (seconds * Double(max(1, timescale))).rounded()
        guard ticks.isFinite, ticks > 0 else { return offset }
        let (sum, overflow) = offset.addingReportingOverflow(UInt64(min(ticks, 9.2e18)))
        return overflow ? .max : sum
    }

    /// An event stream of a content period: its events in `[from, until)`, at their place.
    static func eventStream(_ stream: XMLElement, from: Double, until: Double) -> XMLElement {
        var stream = stream
        let timescale = Double(max(1, stream[attribute: "timescale"].flatMap { UInt64($0) } ?? 1))
        let offset = stream[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0
        let moved = Self.moved(offset, by: from, timescale: Int(timescale))
        stream[attribute: "presentationTimeOffset"] = String(moved)
        stream.children = stream.children.filter { node in
            guard case .element(let event) = node, event.localName == "Event" else {
                return !DASHAdPeriod.isBlank(node)
            }
            let at = event[attribute: "presentationTime"].flatMap { UInt64($0) } ?? 0
            let time = Double(at &- min(offset, at)) / timescale
            return time >= from - 0.001 && time < until
        }
        return stream
    }
}

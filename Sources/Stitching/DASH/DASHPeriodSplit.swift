import DASH

/// Cuts one DASH period in two at a segment boundary every representation shares, so ad periods
/// can go between the halves — what the HLS splice does with `BreakAligner` — while every
/// segment keeps the origin's address: the second half's templates start their numbering
/// (`startNumber`) and their media time (`presentationTimeOffset`) where the first half stopped,
/// and each `SegmentTimeline` is cut at the boundary (the second half's first entry with an
/// explicit `t`).
///
/// Rules:
/// - Only `SegmentTemplate` addressing is cut (with or without a timeline); a period addressed by
///   `SegmentBase` or `SegmentList` is refused, naming the representation.
/// - The boundary is the segment start common to all representations (within `tolerance`) nearest
///   the asked time, never the period's start or end; none common is refused, naming the time.
/// - The first half keeps the period's id and attributes, with `duration` the boundary; the second
///   is `<id>-<boundary in ms>` (`p-<ms>` without an id), with `start` the first half's start plus
///   the boundary and `duration` what is left (when the period's length is known).
public enum DASHPeriodSplit {
    public struct Halves: Sendable, Equatable {
        public var before: XMLElement
        public var after: XMLElement
        /// Seconds from the period's start.
        public var boundary: Double
    }

    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case notTemplated(path: String)
        case noCommonBoundary(near: Double, path: String)

        public var description: String {
            switch self {
            case .notTemplated(let path):
                return
                    "\(path) is addressed by SegmentBase or SegmentList; Seam splits periods addressed by SegmentTemplate only"
            case .noCommonBoundary(let near, let path):
                return
                    "\(path) has no segment boundary common to all its representations near \(DASHDuration.text(near)); package the title with aligned segments (segmentAlignment) to insert a break there"
            }
        }
    }

    /// - Parameters:
    ///   - period: the period to cut.
    ///   - time: where the break is asked, seconds from the period's start.
    ///   - periodDuration: the period's length, seconds (its `duration`, or what the MPD implies).
    public static func split(
        _ period: Period, at time: Double, periodDuration: Double, tolerance: Double = 0.05
    ) -> Result<Halves, Refusal> {
        // Every representation's segment starts, in seconds.
        var common: [Double]?
        for set in period.adaptationSets {
            // Video and audio decide the cut; a text or image set is cut by its own template where
            // it has one, and one without (a sidecar file) stays with the first half.
            // (A set that does not say its type counts as media.)
            let isMedia = set.contentType.map { $0 == "video" || $0 == "audio" } ?? true
            for representation in set.representations {
                guard let template = representation.segmentTemplate else {
                    if isMedia { return .failure(.notTemplated(path: representation.path)) }
                    continue
                }
                guard isMedia else { continue }
                let starts = template.segments(
                    representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                    periodDuration: periodDuration
                ).map(\.start).filter { $0 > tolerance && $0 < periodDuration - tolerance }
                common = common.map { kept in matching(kept, starts, tolerance: tolerance) } ?? starts
            }
        }
        guard let boundary = (common ?? []).min(by: { abs($0 - time) < abs($1 - time) }) else {
            return .failure(.noCommonBoundary(near: time, path: period.path))
        }
        var before = period.element
        var after = period.element
        before[attribute: "duration"] = DASHDuration.text(boundary)
        after[attribute: "id"] = (period.id ?? "p") + "-" + String(Int64((min(boundary, 9e12) * 1000).rounded()))
        after[attribute: "start"] = DASHDuration.text((period.start ?? 0) + boundary)
        after[attribute: "duration"] = DASHDuration.text(max(0, periodDuration - boundary))
        rewriteTemplates(in: &before, inherited: nil, boundary: boundary, periodDuration: periodDuration, half: .before)
        rewriteTemplates(in: &after, inherited: nil, boundary: boundary, periodDuration: periodDuration, half: .after)
        let untemplated = Set(
            period.adaptationSets.enumerated().filter { _, set in
                set.representations.contains { $0.segmentTemplate == nil }
            }.map(\.offset))
        var setNumber = 0
        after.children = after.children.filter { node in
            guard node.isElement(named: "AdaptationSet") else { return true }
            defer { setNumber += 1 }
            return !untemplated.contains(setNumber)
        }
        cutEvents(in: &before, boundary: boundary, half: .before)
        cutEvents(in: &after, boundary: boundary, half: .after)
        return .success(Halves(before: before, after: after, boundary: boundary))
    }

    /// The starts of `kept` that `starts` has too (within `tolerance`), both ascending: one walk
    /// through each, so a 2-hour title's thousands of segments cost thousands of steps, not millions.
    static func matching(_ kept: [Double], _ starts: [Double], tolerance: Double) -> [Double] {
        var result: [Double] = []
        var next = starts.startIndex
        for start in kept {
            while next < starts.endIndex, starts[next] < start - tolerance { next += 1 }
            if next < starts.endIndex, abs(starts[next] - start) <= tolerance { result.append(start) }
        }
        return result
    }

    enum Half { case before, after }

    /// Rewrites each `SegmentTemplate` under `element` (period, adaptation set, representation) for
    /// its half, each with the template in force at its level (`inherited` merged with its own).
    static func rewriteTemplates(
        in element: inout XMLElement, inherited: SegmentTemplate?, boundary: Double, periodDuration: Double,
        half: Half
    ) {
        let own = element.children.firstIndex { $0.isElement(named: "SegmentTemplate") }
        var inForce = inherited
        if let own, case .element(var template) = element.children[own] {
            let merged = SegmentTemplate.merged(SegmentTemplate(template), over: inherited) ?? SegmentTemplate(template)
            inForce = merged
            rewrite(
                &template, merged: merged, isTop: inherited == nil, boundary: boundary,
                periodDuration: periodDuration, half: half)
            element.children[own] = .element(template)
        }
        for index in element.children.indices {
            guard case .element(var child) = element.children[index],
                child.localName == "AdaptationSet" || child.localName == "Representation"
            else { continue }
            rewriteTemplates(
                in: &child, inherited: inForce, boundary: boundary, periodDuration: periodDuration, half: half)
            element.children[index] = .element(child)
        }
    }

    /// One template element: its timeline cut, and in the second half its numbering and media
    /// time moved to the boundary.
    static func rewrite(
        _ template: inout XMLElement, merged: SegmentTemplate, isTop: Bool, boundary: Double, periodDuration: Double,
        half: Half
    ) {
        let segments = merged.segments(representationID: "", bandwidth: nil, periodDuration: periodDuration)
        let cut = segments.firstIndex { $0.start >= boundary - 0.05 } ?? segments.count
        let timescale = UInt64(max(1, merged.timescale ?? 1))
        let offset = UInt64(max(0, merged.presentationTimeOffset ?? 0))
        let kept = half == .before ? Array(segments[..<cut]) : Array(segments[cut...])
        if let timelineIndex = template.children.firstIndex(where: { $0.isElement(named: "SegmentTimeline") }),
            case .element(var timeline) = template.children[timelineIndex]
        {
            timeline.children = entries(
                kept,
                prefix: timeline.name.hasSuffix("SegmentTimeline")
                    ? String(timeline.name.dropLast("SegmentTimeline".count)) : "")
            template.children[timelineIndex] = .element(timeline)
        }
        guard half == .after else { return }
        // Written where the element writes them, where it defines its own segments (a timeline or
        // a length: its count differs), and on the topmost template, which every other inherits from.
        let defines =
            template[attribute: "duration"] != nil
            || template.children.contains { $0.isElement(named: "SegmentTimeline") }
        if isTop || defines || template[attribute: "startNumber"] != nil {
            let (number, overflow) = (merged.startNumber ?? 1).addingReportingOverflow(cut)
            template[attribute: "startNumber"] = String(overflow ? Int.max : number)
        }
        if isTop || defines || template[attribute: "presentationTimeOffset"] != nil {
            // Saturating: the origin's timescale and offset must not make the sum trap.
            let ticks = UInt64(min(max(0, boundary * Double(timescale)), 9e18))
            let (sum, overflow) = offset.addingReportingOverflow(ticks)
            let boundaryTime = kept.first?.time ?? (overflow ? .max : sum)
            template[attribute: "presentationTimeOffset"] = String(boundaryTime)
        }
    }

    /// Each `EventStream` of a half keeps the events that fall in it; the second half's stream
    /// moves its `presentationTimeOffset` to the boundary, so every event keeps its place on the
    /// stitched timeline.
    static func cutEvents(in period: inout XMLElement, boundary: Double, half: Half) {
        for index in period.children.indices {
            guard case .element(var stream) = period.children[index], stream.localName == "EventStream" else {
                continue
            }
            let timescale = Double(max(1, stream[attribute: "timescale"].flatMap { UInt64($0) } ?? 1))
            let offset = stream[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0
            let cut = UInt64(min(max(0, boundary * timescale), 9e18)) &+ offset
            stream.children = stream.children.filter { node in
                guard case .element(let event) = node, event.localName == "Event" else { return true }
                let time = event[attribute: "presentationTime"].flatMap { UInt64($0) } ?? 0
                return half == .before ? time < cut : time >= cut
            }
            if half == .after { stream[attribute: "presentationTimeOffset"] = String(cut) }
            period.children[index] = .element(stream)
        }
    }

    /// `S` elements for `segments`: the first with its `t`, runs of one length as one `S` with `r`.
    static func entries(_ segments: [DASHSegment], prefix: String) -> [XMLNode] {
        var nodes: [XMLNode] = []
        var index = 0
        while index < segments.count {
            var run = 1
            while index + run < segments.count, segments[index + run].length == segments[index].length,
                segments[index + run].time == segments[index + run - 1].time + segments[index].length
            {
                run += 1
            }
            var entry = XMLElement(name: prefix + "S")
            if index == 0 || segments[index].time != segments[index - 1].time + segments[index - 1].length {
                entry[attribute: "t"] = String(segments[index].time)
            }
            entry[attribute: "d"] = String(segments[index].length)
            if run > 1 { entry[attribute: "r"] = String(run - 1) }
            nodes.append(.element(entry))
            index += run
        }
        return nodes
    }
}

/// Checks an MPD's timing and addressing: what a stitched MPD must get right for a player to play
/// it through, beyond what reading it already requires (`MPD`'s rules). Each finding names its
/// rule, the element and what is wrong, so a report can be filtered and acted on.
public enum MPDValidator {
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public enum Severity: String, Sendable { case error, warning }

        public var rule: Rule
        public var severity: Severity
        public var path: String
        public var message: String

        public var description: String { "\(severity.rawValue) [\(rule.rawValue)] \(path): \(message)" }
    }

    public enum Rule: String, Sendable, CaseIterable {
        /// Static: each period starts where the one before it ends (no gap, no overlap).
        case periodContinuity = "period-continuity"
        /// Period ids are unique; a dynamic MPD gives every period one (players track periods
        /// across reloads by id).
        case periodIDs = "period-ids"
        /// Representation ids are unique within a period.
        case representationIDs = "representation-ids"
        /// A representation's segments cover its period: no hole in its timeline, and as long as the period.
        case segmentCoverage = "segment-coverage"
        /// `mediaPresentationDuration` is where the last period ends (static, or a dynamic MPD
        /// that has ended: DASH-IF's end of a live presentation).
        case presentationDuration = "presentation-duration"
        /// Dynamic, over reloads: a period keeps its start once published, and its segments keep
        /// their numbers and times (a player that fetched one must find the same one again).
        case periodMoved = "period-moved"
        case segmentChanged = "segment-changed"
        /// Dynamic, over reloads: `availabilityStartTime` stays, `publishTime` does not go back.
        case reloadClock = "reload-clock"
    }

    /// Seconds two times may differ by and still meet (encoders round segment lengths).
    public static let tolerance = 0.1

    /// What `current`, a reload of the live MPD `previous`, changed that it must not: a period's
    /// start (by id), a segment's time under its number (by period id, representation id and
    /// number), `availabilityStartTime`, or `publishTime` going back.
    public static func checkReload(previous: MPD, current: MPD) -> [Finding] {
        var findings: [Finding] = []
        if previous.availabilityStartTime != current.availabilityStartTime {
            findings.append(
                Finding(
                    rule: .reloadClock, severity: .error, path: "MPD",
                    message:
                        "availabilityStartTime changed from \(previous.availabilityStartTime ?? "none") to \(current.availabilityStartTime ?? "none"); every segment's time moves with it"
                ))
        }
        if let before = previous.publishTime, let now = current.publishTime, now < before,
            now.count == before.count
        {
            findings.append(
                Finding(
                    rule: .reloadClock, severity: .error, path: "MPD",
                    message: "publishTime went back from \(before) to \(now)"))
        }
        let earlier = Dictionary(
            previous.periods.compactMap { period in period.id.map { ($0, period) } }, uniquingKeysWith: { a, _ in a })
        for period in current.periods {
            guard let id = period.id, let old = earlier[id] else { continue }
            if let start = period.start, let was = old.start, abs(start - was) > 0.001 {
                findings.append(
                    Finding(
                        rule: .periodMoved, severity: .error, path: period.path,
                        message:
                            "period \(id) starts at \(DASHDuration.text(start)), at \(DASHDuration.text(was)) in the previous reload; a published period never moves"
                    ))
            }
            var oldTimes: [String: [Int: UInt64]] = [:]
            for set in old.adaptationSets {
                for representation in set.representations {
                    guard let template = representation.segmentTemplate, let rid = representation.id else { continue }
                    var times: [Int: UInt64] = [:]
                    for segment in template.segments(
                        representationID: rid, bandwidth: representation.bandwidth, periodDuration: nil)
                    {
                        times[segment.number] = segment.time
                    }
                    oldTimes[rid] = times
                }
            }
            for set in period.adaptationSets {
                for representation in set.representations {
                    guard let template = representation.segmentTemplate, let rid = representation.id,
                        let times = oldTimes[rid]
                    else { continue }
                    for segment in template.segments(
                        representationID: rid, bandwidth: representation.bandwidth, periodDuration: nil)
                    {
                        guard let was = times[segment.number], was != segment.time else { continue }
                        findings.append(
                            Finding(
                                rule: .segmentChanged, severity: .error, path: representation.path,
                                message:
                                    "segment \(segment.number) of representation \(rid) in period \(id) starts at \(segment.time), at \(was) in the previous reload"
                            ))
                        break
                    }
                }
            }
        }
        return findings
    }

    public static func check(_ mpd: MPD) -> [Finding] {
        var findings: [Finding] = []
        func add(_ rule: Rule, _ severity: Finding.Severity, _ path: String, _ message: String) {
            findings.append(Finding(rule: rule, severity: severity, path: path, message: message))
        }
        let periods = mpd.periods
        var seenIDs: Set<String> = []
        var expectedStart: Double? = 0
        var end: Double?
        for (index, period) in periods.enumerated() {
            if let id = period.id {
                if !seenIDs.insert(id).inserted {
                    add(.periodIDs, .error, period.path, "id \"\(id)\" is used by an earlier period")
                }
            } else if mpd.isDynamic {
                add(
                    .periodIDs, .error, period.path,
                    "no id; a dynamic MPD names every period so players follow it across reloads")
            }
            let start = period.start ?? (index == 0 ? 0 : expectedStart)
            if !mpd.isDynamic, let start, let expected = expectedStart, abs(start - expected) > tolerance {
                add(
                    .periodContinuity, .error, period.path,
                    start > expected
                        ? "starts at \(DASHDuration.text(start)), \(DASHDuration.text(start - expected)) after the previous period ends (a gap)"
                        : "starts at \(DASHDuration.text(start)), inside the previous period (which ends at \(DASHDuration.text(expected)))"
                )
            }
            let next = periods[safe: index + 1]?.start
            let duration =
                period.duration ?? start.flatMap { start in next.map { $0 - start } }
                ?? (index == periods.count - 1
                    ? start.flatMap { start in mpd.mediaPresentationDuration.map { $0 - start } } : nil)
            expectedStart = start.flatMap { start in duration.map { start + $0 } }
            end = expectedStart
            var representationIDs: Set<String> = []
            for set in period.adaptationSets {
                for representation in set.representations {
                    if let id = representation.id, !representationIDs.insert(id).inserted {
                        add(
                            .representationIDs, .error, representation.path, "id \"\(id)\" is used twice in this period"
                        )
                    }
                    guard let template = representation.segmentTemplate else { continue }
                    checkCoverage(
                        template, representation: representation, periodDuration: duration, dynamic: mpd.isDynamic,
                        add: add)
                }
            }
        }
        if let total = mpd.mediaPresentationDuration, let end, abs(total - end) > tolerance,
            !mpd.isDynamic || mpd.minimumUpdatePeriod == nil
        {
            add(
                .presentationDuration, .error, "MPD",
                "mediaPresentationDuration is \(DASHDuration.text(total)) but the last period ends at \(DASHDuration.text(end))"
            )
        }
        return findings
    }

    static func checkCoverage(
        _ template: SegmentTemplate, representation: Representation, periodDuration: Double?, dynamic: Bool,
        add: (Rule, Finding.Severity, String, String) -> Void
    ) {
        let segments = template.segments(
            representationID: representation.id ?? "", bandwidth: representation.bandwidth,
            periodDuration: periodDuration)
        for (previous, segment) in zip(segments, segments.dropFirst())
        where segment.time != previous.time + previous.length {
            let gap =
                (Double(segment.time) - Double(previous.time + previous.length))
                / Double(max(1, template.timescale ?? 1))
            add(
                .segmentCoverage, .error, representation.path,
                gap > 0
                    ? "a \(DASHDuration.text(gap)) hole in the timeline before segment \(segment.number)"
                    : "segment \(segment.number) overlaps the one before it by \(DASHDuration.text(-gap))")
            return
        }
        // A live period's timeline grows with each reload; only a finished period must be covered.
        guard !dynamic, let periodDuration, let first = segments.first, let last = segments.last else { return }
        if first.start > tolerance {
            add(
                .segmentCoverage, .error, representation.path,
                "its first segment starts \(DASHDuration.text(first.start)) into the period: nothing plays before it")
            return
        }
        let covered = last.start + last.duration
        if covered < periodDuration - tolerance {
            add(
                .segmentCoverage, .error, representation.path,
                "its segments end at \(DASHDuration.text(covered)), before the period's \(DASHDuration.text(periodDuration))"
            )
        }
    }
}

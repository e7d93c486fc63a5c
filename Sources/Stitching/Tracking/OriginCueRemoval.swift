import HLS
import SCTE35

/// Removes the origin's ad signals — cue tags (`EXT-X-CUE-OUT`/`-CONT`/`-IN`, `EXT-X-SCTE35`,
/// `#EXT-OATCLS-SCTE35`, ...) and SCTE-35 date ranges — from the stitched rendering where Seam
/// filled the break they mark (`sessions.removeOriginCues`). A player's own ad logic (or an SDK
/// reading cues) then does not react to a break the viewer is not in: the ads are already there.
/// Breaks that play content keep their signals, so a downstream ad system can still use them.
///
/// Which segments: a filled break's span — from its first content segment through the segment
/// content resumes at — and after it every content segment still marked as inside the origin's
/// break (a continuation signal), through the one that ends it (an in signal); and, anywhere in
/// the window, a signal that names the break (the same id: a date range written ahead of its
/// start). Other date ranges (ad-ID decoration, interstitials, the origin's own metadata) stay.
public enum OriginCueRemoval {
    /// `segment` without its cue tags and SCTE-35 date ranges.
    static func strip(_ segment: inout MediaSegment) {
        if !segment.cues.isEmpty { segment.cues = [] }
        if segment.dateRanges.contains(where: isSignal) { segment.dateRanges.removeAll(where: isSignal) }
    }

    static func isSignal(_ range: DateRange) -> Bool {
        range.scte35Out != nil || range.scte35In != nil || range.scte35Command != nil
    }

    /// Removes the signals of `ids` (cue tags and date ranges naming them) from `segment`.
    static func strip(_ segment: inout MediaSegment, naming ids: Set<String>, options: SCTE35DecodingOptions) {
        guard !ids.isEmpty else { return }
        if !segment.cues.isEmpty {
            segment.cues.removeAll { cue in
                CueDialect.signal(from: cue, options: options)?.id.map(ids.contains) ?? false
            }
        }
        if !segment.dateRanges.isEmpty {
            segment.dateRanges.removeAll { isSignal($0) && ids.contains($0.id) }
        }
    }

    /// The kinds of the signals `segment` carries.
    static func kinds(_ segment: MediaSegment, options: SCTE35DecodingOptions) -> Set<AdOpportunitySignal.Kind> {
        Set(CueDialect.signals(in: segment, options: options).map(\.kind))
    }

    /// Strips the span that starts at content segment `start` of `playlist`: segments up to
    /// `through` (an index, inclusive) whatever they carry, then those carrying a continuation,
    /// through the first that carries an in. `isContent` tells content from ad segments.
    static func stripSpan(
        _ playlist: inout MediaPlaylist, from start: Int, through: Int, isContent: (Int) -> Bool,
        options: SCTE35DecodingOptions
    ) {
        var index = start
        while index < playlist.segments.count {
            defer { index += 1 }
            guard isContent(index) else { continue }
            if index <= through {
                let ended = kinds(playlist.segments[index], options: options).contains(.in)
                strip(&playlist.segments[index])
                if ended && index == through { return }
                continue
            }
            let found = kinds(playlist.segments[index], options: options)
            guard found.contains(.continue) || found.contains(.in) else { return }
            strip(&playlist.segments[index])
            if found.contains(.in) { return }
        }
    }

    // MARK: Live

    /// A stitched live window cut from `timeline`: the signals of each break `isFilled` says
    /// played ads.
    public static func live(
        _ playlist: inout MediaPlaylist, timeline: LiveTimeline, options: SCTE35DecodingOptions = .lenient,
        isFilled: (Int) -> Bool
    ) {
        let offset = playlist.mediaSequence - timeline.firstSequenceNumber
        guard offset >= 0, !playlist.segments.isEmpty else { return }
        let entries = timeline.entries
        let filled = timeline.breaks.filter { item in
            guard let layout = item.layout, !layout.playedAds.isEmpty else { return false }
            return isFilled(item.number)
        }
        guard !filled.isEmpty else { return }
        // The origin sequence each listed segment shows, nil for an ad or slate segment.
        let sequences: [Int?] = playlist.segments.indices.map { index in
            guard let entry = entries[safe: offset + index], case .content(let sequence) = entry.source else {
                return nil
            }
            return sequence
        }
        var lastAnchor: [Int: Int] = [:]
        for entry in entries {
            if case .breakSlot(let number, _) = entry.source {
                lastAnchor[Int(number)] = max(lastAnchor[Int(number)] ?? entry.anchor, entry.anchor)
            }
        }
        let ids = Set(filled.compactMap(\.signalID))
        for item in filled {
            // Content resumes at the segment after the last one the ads started in.
            let resume = (lastAnchor[item.number] ?? item.startSequence) + 1
            guard let start = sequences.firstIndex(where: { ($0 ?? -1) >= item.startSequence }),
                let first = sequences[start]
            else { continue }
            // Listed content of the replaced span, whatever it carries; after it (or from the
            // first content listed, when the span is not), only what is still marked as the break.
            let through =
                first <= resume ? (sequences.lastIndex(where: { ($0 ?? Int.max) <= resume }) ?? start) : start - 1
            stripSpan(
                &playlist, from: start, through: through, isContent: { sequences[$0] != nil }, options: options)
        }
        for index in playlist.segments.indices where sequences[index] != nil {
            strip(&playlist.segments[index], naming: ids, options: options)
        }
    }

    // MARK: VOD

    /// The title with the marker span of each filled break of `plan` stripped from every
    /// rendition: the content segment its pod is spliced before (where the origin's marker sits),
    /// and the continuation that follows it. Applied before splicing, so the pods' own segments
    /// never meet it.
    public static func vod(
        _ content: ContentSet, plan: BreakPlan, options: SCTE35DecodingOptions = .lenient
    ) -> ContentSet {
        var renditions = content.renditions
        let playlists = renditions.map(\.playlist)
        for planned in plan.filled {
            let aligned = BreakAligner.align(cuePoint: planned.position.cuePoint, renditions: playlists)
            for number in renditions.indices {
                let index =
                    aligned.segmentIndices[safe: number]
                    ?? PodPlacement.segmentIndex(forCuePoint: planned.position.cuePoint, in: playlists[number])
                guard index >= 0, index < renditions[number].playlist.segments.count else { continue }
                stripSpan(
                    &renditions[number].playlist, from: index, through: index, isContent: { _ in true },
                    options: options)
            }
        }
        return ContentSet(multivariant: content.multivariant, renditions: renditions) ?? content
    }
}

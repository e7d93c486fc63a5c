/// Rules that must hold across the renditions of one title, which a single playlist
/// cannot show: a stitcher that splices one rendition differently from another breaks
/// players at the next variant switch.
///
/// Date ranges (draft-pantos-hls-rfc8216bis 6.2.4): every media playlist that carries a date
/// range carries it with the same attributes, and an interstitial is in every rendition whose
/// segments cover its `START-DATE` (for a finished playlist: in every rendition), since a player
/// switching rendition (or playing audio from another playlist) must see the same breaks.
/// Live renditions are fetched one after another, so one may be a reload ahead: between live
/// playlists an attribute that only one has, or an `X-PLAYOUT-LIMIT` that differs, is the
/// update the reload rules allow (see `LiveReloadValidator`), not a mismatch.
public enum RenditionSetValidator {
    /// `renditions` are (name, playlist) pairs, typically every media playlist of a multivariant playlist.
    public static func check(_ renditions: [(name: String, playlist: MediaPlaylist)]) -> [PlaylistDiagnostic] {
        guard let first = renditions.first else { return [] }
        var out: [PlaylistDiagnostic] = []
        for (name, playlist) in renditions.dropFirst() {
            if playlist.targetDuration != first.playlist.targetDuration {
                out.append(
                    PlaylistDiagnostic(
                        .error, .renditionTargetDurationMismatch, line: nil,
                        "#EXT-X-TARGETDURATION:\(playlist.targetDuration) differs from \(first.name) (\(first.playlist.targetDuration))",
                        source: name))
            }
        }
        // Discontinuity numbers must agree for every media sequence number both renditions list.
        let numbered = renditions.map { ($0.name, discontinuityNumbers($0.playlist)) }
        let reference = numbered[0]
        for (name, numbers) in numbered.dropFirst() {
            for (sequence, discontinuity) in numbers.sorted(by: { $0.key < $1.key }) {
                if let expected = reference.1[sequence], expected != discontinuity {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .renditionDiscontinuityMismatch, line: nil,
                            "segment \(sequence) is in discontinuity \(discontinuity), but in \(reference.0) it is in discontinuity \(expected)",
                            source: name))
                    break
                }
            }
        }
        out += checkDateRanges(renditions)
        // Finished playlists must have the same number of discontinuities in all.
        let finished = renditions.filter { $0.playlist.isFinished }
        if let base = finished.first {
            let count = base.playlist.segments.reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
            for (name, playlist) in finished.dropFirst() {
                let other = playlist.segments.reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
                if other != count {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .renditionDiscontinuityMismatch, line: nil,
                            "\(other) discontinuities, but \(base.name) has \(count)", source: name))
                }
            }
        }
        return out
    }

    /// Date ranges of one ID agree across renditions; interstitials are in every rendition that
    /// covers them.
    static func checkDateRanges(_ renditions: [(name: String, playlist: MediaPlaylist)]) -> [PlaylistDiagnostic] {
        let merged = renditions.map { rendition -> [String: DateRange] in
            var located: [DateRangeValidator.Located] = []
            for segment in rendition.playlist.segments {
                for range in segment.dateRanges { located.append(.init(range, line: nil)) }
            }
            for range in rendition.playlist.trailer?.dateRanges ?? [] { located.append(.init(range, line: nil)) }
            var byID: [String: DateRange] = [:]
            for item in DateRangeValidator.mergedByID(located) { byID[item.range.id] = item.range }
            return byID
        }
        guard merged.contains(where: { !$0.isEmpty }) else { return [] }
        var out: [PlaylistDiagnostic] = []
        // Where each ID is first found, in rendition order: the reference for the others.
        var reference: [String: Int] = [:]
        var ids: [String] = []
        for (index, byID) in merged.enumerated() {
            for id in byID.keys.sorted() where reference[id] == nil {
                reference[id] = index
                ids.append(id)
            }
        }
        for id in ids {
            guard let base = reference[id], let baseRange = merged[base][id] else { continue }
            let baseName = renditions[base].name
            let baseLive = !renditions[base].playlist.isFinished
            for (index, rendition) in renditions.enumerated() where index != base {
                let live = baseLive || !rendition.playlist.isFinished
                guard let range = merged[index][id] else {
                    if baseRange.isInterstitial, covers(rendition.playlist, baseRange) {
                        out.append(
                            PlaylistDiagnostic(
                                .error, .renditionInterstitialMissing, line: nil,
                                "no interstitial ID=\"\(id)\", which \(baseName) has at \(baseRange.startDate?.text ?? "?"); every rendition covering that time must carry it",
                                source: rendition.name))
                    }
                    continue
                }
                var differences: [String] = []
                var names = baseRange.attributes.items.map(\.name)
                for attribute in range.attributes.items where !names.contains(attribute.name) {
                    names.append(attribute.name)
                }
                // One live rendition a reload ahead may carry a break's shortened limit, and the
                // DURATION / END-DATE that go with it.
                let shortened = baseRange.attributes["X-PLAYOUT-LIMIT"] != range.attributes["X-PLAYOUT-LIMIT"]
                for name in names {
                    let a = baseRange.attributes[name], b = range.attributes[name]
                    guard a != b else { continue }
                    let update =
                        a == nil || b == nil || name == "X-PLAYOUT-LIMIT"
                        || (shortened && (name == "DURATION" || name == "END-DATE"))
                    if live && update && !DateRangeValidator.meaningAttributes.contains(name) {
                        continue
                    }
                    differences.append(
                        "\(name) \(LiveReloadValidator.describe(b)) (\(baseName): \(LiveReloadValidator.describe(a)))")
                }
                if !differences.isEmpty {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .renditionDateRangeMismatch, line: nil,
                            "#EXT-X-DATERANGE ID=\"\(id)\" differs from \(baseName): \(differences.joined(separator: ", ")); every rendition must carry it identically",
                            source: rendition.name))
                }
            }
        }
        return out
    }

    /// Whether `playlist` should carry `range`: always when finished (VOD: every break is in every
    /// rendition) or without program date-times to tell; when live, if its segments' dates cover
    /// the range's start.
    static func covers(_ playlist: MediaPlaylist, _ range: DateRange) -> Bool {
        if playlist.isFinished { return true }
        guard let start = range.startDate?.secondsSince1970 else { return true }
        var current: Double?
        var first: Double?
        for segment in playlist.segments {
            if let date = segment.programDateTime?.secondsSince1970 { current = date }
            if first == nil, let current { first = current }
            if current != nil { current! += segment.duration }
        }
        guard let first, let end = current else { return true }
        return start >= first && start < end
    }

    /// Media sequence number → discontinuity sequence number of each listed segment.
    public static func discontinuityNumbers(_ playlist: MediaPlaylist) -> [Int: Int] {
        var result: [Int: Int] = [:]
        var discontinuity = playlist.discontinuitySequence
        let firstSequence = playlist.mediaSequence + (playlist.skip?.skippedSegments ?? 0)
        for (offset, segment) in playlist.segments.enumerated() {
            if segment.discontinuity { discontinuity += 1 }
            result[firstSequence + offset] = discontinuity
        }
        return result
    }
}

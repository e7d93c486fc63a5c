/// Rules that must hold across the renditions of one title, which a single playlist
/// cannot show: a stitcher that splices one rendition differently from another breaks
/// players at the next variant switch.
public enum RenditionSetValidator {
    /// `renditions` are (name, playlist) pairs, typically every media playlist of a multivariant playlist.
    public static func check(_ renditions: [(name: String, playlist: MediaPlaylist)]) -> [PlaylistDiagnostic] {
        guard let first = renditions.first else { return [] }
        var out: [PlaylistDiagnostic] = []
        for (name, playlist) in renditions.dropFirst() {
            if playlist.targetDuration != first.playlist.targetDuration {
                out.append(PlaylistDiagnostic(.error, .renditionTargetDurationMismatch, line: nil,
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
                    out.append(PlaylistDiagnostic(.error, .renditionDiscontinuityMismatch, line: nil,
                        "segment \(sequence) is in discontinuity \(discontinuity), but in \(reference.0) it is in discontinuity \(expected)",
                        source: name))
                    break
                }
            }
        }
        // Finished playlists must have the same number of discontinuities in all.
        let finished = renditions.filter { $0.playlist.isFinished }
        if let base = finished.first {
            let count = base.playlist.segments.reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
            for (name, playlist) in finished.dropFirst() {
                let other = playlist.segments.reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
                if other != count {
                    out.append(PlaylistDiagnostic(.error, .renditionDiscontinuityMismatch, line: nil,
                        "\(other) discontinuities, but \(base.name) has \(count)", source: name))
                }
            }
        }
        return out
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

import HLS

/// What plays in one break for one rendition: the creative rendition chosen for each ad of
/// the decision (nil when an ad has none for this rendition), the slate's and the bumpers'.
public struct LiveBreakMedia: Sendable {
    public var ads: [MediaPlaylist?]
    public var slate: MediaPlaylist?
    /// The break's bumpers in this rendition, by position.
    public var bumpers: [Bumper.Position: MediaPlaylist]

    public init(ads: [MediaPlaylist?], slate: MediaPlaylist?, bumpers: [Bumper.Position: MediaPlaylist] = [:]) {
        self.ads = ads
        self.slate = slate
        self.bumpers = bumpers
    }
}

/// Names one ad or slate segment of a break for URI rewriting (server-side tracking).
public struct LiveSlotID: Sendable, Hashable {
    public var breakNumber: Int
    public var source: LiveBreakLayout.Slot.Source
}

/// Cuts one rendition's stitched window out of a session's `LiveTimeline`.
///
/// The entries shown are those anchored inside this rendition's origin window, so renditions
/// fetched at different moments show the same numbers for the same media, and a number always
/// names the same segment. LL-HLS parts, preload hints, rendition reports and blocking-reload
/// controls are not carried: stitched sessions are regular-latency HLS (docs/live.md).
public enum LiveWindowRenderer {
    /// - Parameters:
    ///   - window: this rendition's origin window, URIs absolute.
    ///   - targetDuration: the session's, covering ads and slate.
    ///   - media: the ad and slate playlists of a break for this rendition.
    ///   - slotURI: rewrites ad and slate segment URIs (for tracking redirects).
    public static func render(
        _ timeline: LiveTimeline,
        window: MediaPlaylist,
        targetDuration: Int,
        media: (Int) -> LiveBreakMedia?,
        slotURI: (LiveSlotID, String) -> String = { $1 }
    ) -> MediaPlaylist {
        var output = MediaPlaylist(version: window.version, targetDuration: max(targetDuration, window.targetDuration))
        output.hasTargetDurationTag = true
        output.hasMediaSequenceTag = true
        output.hasDiscontinuitySequenceTag = true
        output.independentSegments = window.independentSegments
        output.headerLines = window.headerLines

        let entries = timeline.entries
        let first = window.mediaSequence
        let last = first + window.segments.count - 1
        guard let start = entries.firstIndex(where: { $0.anchor >= first }) else {
            output.mediaSequence = timeline.endSequenceNumber
            output.discontinuitySequence =
                timeline.firstDiscontinuityNumber + entries.reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
            return output
        }
        output.mediaSequence = timeline.firstSequenceNumber + start
        var discontinuities = timeline.firstDiscontinuityNumber
        for entry in entries[..<start] where entry.discontinuity { discontinuities += 1 }
        output.discontinuitySequence = discontinuities

        var contentState: ContentState?
        // A break's media, asked once per render rather than for each of its slots (the caller
        // builds it from the decision: arrays and a dictionary each time).
        var lastMedia: (number: Int, media: LiveBreakMedia?)?
        func breakMedia(_ number: Int) -> LiveBreakMedia? {
            if let lastMedia, lastMedia.number == number { return lastMedia.media }
            let found = media(number)
            lastMedia = (number, found)
            return found
        }
        var encrypted = false
        var previousWasContent = false
        var needsVersion = max(window.version ?? 1, 3)
        var reachedEnd = true
        output.segments.reserveCapacity(min(entries.count - start, window.segments.count * 4))

        placing: for entry in entries[start...] {
            guard entry.anchor <= last else { reachedEnd = false; break placing }
            let isFirst = output.segments.isEmpty
            var segment: MediaSegment
            switch entry.source {
            case .content(let sequence):
                let position = sequence - first
                guard let original = window.segments[safe: position] else { reachedEnd = false; break placing }
                segment = original
                if isFirst || !previousWasContent {
                    // Starting the window or back from a break: the content's key and map in force.
                    let state = contentState ?? ContentState(window)
                    contentState = state
                    segment.keys =
                        state.keys[position].isEmpty && encrypted
                        ? [EncryptionKey(method: .none)] : state.keys[position]
                    segment.map = state.maps[position]
                    if let range = state.ranges[position] { segment.byteRange = range }
                }
                segment.dateRanges = timeline.dateRanges[sequence] ?? []
                segment.parts = []
                previousWasContent = true
            case .breakSlot(let number, let slotIndex):
                guard let slot = timeline.breakNumbered(Int(number))?.layout?.slots[safe: Int(slotIndex)],
                    let breakMedia = breakMedia(Int(number))
                else { reachedEnd = false; break placing }
                let playlist: MediaPlaylist?
                let index: Int
                switch slot.source {
                case .ad(let ad, let segmentIndex):
                    playlist = breakMedia.ads[safe: ad] ?? nil
                    index = segmentIndex
                case .slate(let segmentIndex):
                    playlist = breakMedia.slate
                    index = segmentIndex
                case .bumper(let position, let segmentIndex):
                    playlist = breakMedia.bumpers[position]
                    index = segmentIndex
                }
                guard let playlist, let original = playlist.segments[safe: index] else {
                    reachedEnd = false; break placing
                }
                segment = MediaSegment(
                    uri: slotURI(LiveSlotID(breakNumber: Int(number), source: slot.source), original.uri),
                    duration: original.duration, title: original.title, byteRange: original.byteRange)
                if isFirst || entry.discontinuity || previousWasContent {
                    // Each creative may come from another encoder: its key and map in full.
                    let keys = playlist.effectiveKeys()[index]
                    segment.keys = keys.isEmpty && encrypted ? [EncryptionKey(method: .none)] : keys
                    segment.map = playlist.effectiveMaps()[index]
                    if original.byteRange != nil { segment.byteRange = playlist.resolvedByteRanges()[index] }
                } else {
                    segment.keys = original.keys
                    segment.map = original.map
                }
                previousWasContent = false
            }
            // The first segment keeps its flag: the discontinuity sequence counts it as listed.
            segment.discontinuity = entry.discontinuity
            segment.programDateTime =
                (isFirst || entry.discontinuity)
                ? timeline.programDateTime(of: entry).map(DateTime.init(secondsSince1970:)) : nil
            if !segment.keys.isEmpty { encrypted = segment.keys.contains { $0.method != .none } }
            if segment.map != nil { needsVersion = max(needsVersion, 6) }
            if segment.byteRange != nil { needsVersion = max(needsVersion, 4) }
            output.segments.append(segment)
        }
        if window.version != nil || needsVersion > 3 { output.version = needsVersion }
        output.endList = reachedEnd && timeline.isFinished && window.endList
        return output
    }
}

/// The content window's key, map and byte-range state per segment, computed only when a
/// splice needs it.
private struct ContentState {
    var keys: [[EncryptionKey]]
    var maps: [MediaInitializationSection?]
    var ranges: [ByteRange?]

    init(_ window: MediaPlaylist) {
        keys = window.effectiveKeys()
        maps = window.effectiveMaps()
        ranges = window.resolvedByteRanges()
    }
}

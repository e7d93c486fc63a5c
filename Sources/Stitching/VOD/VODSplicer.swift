import HLS

/// One ad, as spliced into one rendition: the rendition of the creative chosen for it.
public struct SplicedAd: Sendable {
    /// The creative's media playlist for this rendition, URIs absolute.
    public var playlist: MediaPlaylist

    public init(playlist: MediaPlaylist) {
        self.playlist = playlist
    }
}

/// One pod to insert before content segment `segmentIndex`.
public struct SplicedPod: Sendable {
    public var segmentIndex: Int
    public var ads: [SplicedAd]

    public init(segmentIndex: Int, ads: [SplicedAd]) {
        self.segmentIndex = segmentIndex
        self.ads = ads
    }
}

/// Inserts ad pods into a VOD media playlist.
///
/// Rules (SEAM.md "Splicing rules"): every pod is bracketed by `EXT-X-DISCONTINUITY`; after a
/// pod the content's `EXT-X-KEY` and `EXT-X-MAP` in force are written again (`METHOD=NONE`
/// before clear ads in encrypted content); byte ranges next to a splice get explicit offsets;
/// the target duration is the caller's, chosen once for every rendition of the session.
public enum VODSplicer {
    /// Names an ad segment: which pod, which ad, which segment of the creative.
    public struct AdSegmentID: Sendable, Hashable {
        public var pod: Int
        public var ad: Int
        public var segment: Int
    }

    /// - Parameters:
    ///   - content: the content rendition, URIs absolute.
    ///   - pods: in any order (spliced in content order, numbered by their index here); empty pods are ignored.
    ///   - targetDuration: the session's target duration (covers content and ads).
    ///   - adSegmentURI: rewrites each ad segment URI (for server-side tracking redirects).
    public static func splice(
        content: MediaPlaylist,
        pods: [SplicedPod],
        targetDuration: Int,
        adSegmentURI: (AdSegmentID, String) -> String = { $1 }
    ) -> MediaPlaylist {
        var output = content
        output.segments = []
        output.segments.reserveCapacity(
            content.segments.count + pods.reduce(0) { $0 + $1.ads.reduce(0) { $0 + $1.playlist.segments.count } })
        output.targetDuration = max(targetDuration, content.targetDuration)
        output.hasTargetDurationTag = true

        let contentKeys = content.effectiveKeys()
        let contentMaps = content.effectiveMaps()
        let contentRanges = content.resolvedByteRanges()
        // Each pod keeps its index in `pods` as its number (`AdSegmentID.pod`), whatever order it
        // is spliced in and whichever pods are empty in this rendition: the caller's ad-segment
        // table and beacons are keyed by that index, in every rendition alike.
        let activePods = pods.enumerated().filter { _, pod in pod.ads.contains { !$0.playlist.segments.isEmpty } }
            .sorted { $0.element.segmentIndex < $1.element.segmentIndex }
        var podCursor = 0
        var needsVersion = content.version ?? 1

        func appendPod(_ pod: SplicedPod, podNumber: Int, before contentIndex: Int) {
            var first = true
            for (adNumber, ad) in pod.ads.enumerated() where !ad.playlist.segments.isEmpty {
                let adKeys = ad.playlist.effectiveKeys()
                let adMaps = ad.playlist.effectiveMaps()
                let adRanges = ad.playlist.resolvedByteRanges()
                for (index, original) in ad.playlist.segments.enumerated() {
                    var segment = original
                    segment.cues = []
                    segment.dateRanges = []
                    segment.programDateTime = nil
                    if index == 0 {
                        // Every creative may come from another encoder: a discontinuity, and its
                        // own key and map state written out in full.
                        segment.discontinuity = !(first && contentIndex == 0 && output.segments.isEmpty)
                        let keys = adKeys[0]
                        let contentWasEncrypted =
                            contentIndex > 0
                            && contentKeys[safe: contentIndex - 1]?.contains { $0.method != .none } == true
                        if keys.isEmpty {
                            segment.keys =
                                contentWasEncrypted || !output.segments.isEmpty && lastKeysEncrypted(output)
                                ? [EncryptionKey(method: .none)] : []
                        } else {
                            segment.keys = keys
                        }
                        segment.map = adMaps[0]
                    }
                    if let range = adRanges[index] { segment.byteRange = range }
                    if segment.map != nil { needsVersion = max(needsVersion, 6) }
                    if segment.byteRange != nil { needsVersion = max(needsVersion, 4) }
                    segment.uri = adSegmentURI(AdSegmentID(pod: podNumber, ad: adNumber, segment: index), segment.uri)
                    output.segments.append(segment)
                }
                first = false
            }
        }

        for (contentIndex, original) in content.segments.enumerated() {
            var insertedBefore = false
            while podCursor < activePods.count, activePods[podCursor].element.segmentIndex <= contentIndex {
                appendPod(activePods[podCursor].element, podNumber: activePods[podCursor].offset, before: contentIndex)
                podCursor += 1
                insertedBefore = true
            }
            var segment = original
            if insertedBefore {
                // Back to content: restore everything the ads may have changed.
                segment.discontinuity = true
                let keys = contentKeys[contentIndex]
                segment.keys = keys.isEmpty ? (lastKeysEncrypted(output) ? [EncryptionKey(method: .none)] : []) : keys
                segment.map = contentMaps[contentIndex]
                if let range = contentRanges[contentIndex] { segment.byteRange = range }
            }
            output.segments.append(segment)
        }
        while podCursor < activePods.count {
            appendPod(
                activePods[podCursor].element, podNumber: activePods[podCursor].offset, before: content.segments.count)
            podCursor += 1
        }
        if output.segments.contains(where: { $0.duration != $0.duration.rounded() }) {
            needsVersion = max(needsVersion, 3)
        }
        if needsVersion > 1 || content.version != nil { output.version = needsVersion }
        return output
    }

    /// True when the keys in force at the end of `playlist` encrypt.
    static func lastKeysEncrypted(_ playlist: MediaPlaylist) -> Bool {
        for segment in playlist.segments.reversed() where !segment.keys.isEmpty {
            return segment.keys.contains { $0.method != .none }
        }
        return false
    }

    /// The largest target duration any of these playlists needs (rounded segment durations).
    public static func targetDuration(covering playlists: [MediaPlaylist]) -> Int {
        var target = 1
        for playlist in playlists {
            target = max(target, playlist.targetDuration)
            for segment in playlist.segments { target = max(target, PlaylistLimits.wholeSeconds(segment.duration)) }
        }
        return target
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}

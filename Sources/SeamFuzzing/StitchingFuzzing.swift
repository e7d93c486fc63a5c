import HLS
import Stitching

/// The Stitching target, fed playlists parsed from the input the way the service feeds it.
/// The input's first byte picks the path: `L` (or `S`, with a break schedule instead of cues) is
/// a live channel whose successive windows are the input's parts; anything else is a VOD title
/// (the first part) with one pod per further part, placed at cue points taken from the input.
enum StitchingFuzzing {
    static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let parts = FuzzTarget.parts(Array(bytes.dropFirst()), limit: 6)
        let playlists = parts.compactMap { try? MediaPlaylist.parse(String(decoding: $0, as: UTF8.self)).playlist }
        guard let first = playlists.first else { return }
        switch mode {
        case UInt8(ascii: "L"): live(playlists, schedule: nil)
        case UInt8(ascii: "S"): live(playlists, schedule: BreakSchedule(every: 30, offset: 4, duration: 12))
        default: vod(content: first, ads: Array(playlists.dropFirst()), cues: bytes)
        }
    }

    static func vod(content: MediaPlaylist, ads: [MediaPlaylist], cues: [UInt8]) {
        let pods = ads.enumerated().map { index, ad in
            // -1 (post-roll), 0 (pre-roll) or seconds into the content, from the input's bytes.
            let byte = cues.count > index + 1 ? cues[index + 1] : 0
            let cuePoint = byte == 255 ? -1 : Double(byte) / 2
            return SplicedPod(
                segmentIndex: PodPlacement.segmentIndex(forCuePoint: cuePoint, in: content),
                ads: [SplicedAd(playlist: ad)])
        }
        let target = VODSplicer.targetDuration(covering: [content] + ads)
        let stitched = VODSplicer.splice(content: content, pods: pods, targetDuration: target) { id, uri in
            "https://seam.example/ad/\(id.pod)/\(id.ad)/\(id.segment)?u=\(uri.utf8.count)"
        }
        let written = stitched.serialized()
        invariant((try? MediaPlaylist.parse(written)) != nil, "a stitched VOD playlist does not parse")
        _ = PlaylistValidator.validate(written)
        let timeline = AvailTimeline(content: content, pods: pods)
        _ = timeline.totalDuration
        for avail in timeline.avails { _ = PodPlacement.contentTime(atSegment: avail.pod, in: content) }
        for ad in ads {
            for index in ad.segments.indices { _ = AdProgressEvent.due(atSegment: index, of: ad) }
        }
    }

    static func live(_ windows: [MediaPlaylist], schedule: BreakSchedule?) {
        guard let first = windows.first else { return }
        var timeline = LiveTimeline(
            configuration: .init(
                defaultBreakSeconds: 30, schedule: schedule,
                targetDuration: max(1, first.targetDuration)))
        let ad: [Double] = [5, 5, 4.5]
        let adPlaylist = playlist(durations: ad, prefix: "https://ads.example/ad")
        let slate = playlist(durations: Array(repeating: 1, count: 8), prefix: "https://ads.example/slate")
        for window in windows {
            var rounds = 0
            while case .needsDecision(let pending) = timeline.advance(with: window), rounds < 16 {
                let layout = LiveBreakLayout.make(
                    breakDuration: pending.duration, ads: rounds % 2 == 0 ? [ad] : [],
                    slate: rounds % 3 == 2 ? nil : slate.segments.map(\.duration))
                timeline.resolve(breakNumber: pending.number, layout: layout)
                rounds += 1
            }
            let snapshot = timeline
            let rendered = LiveWindowRenderer.render(
                snapshot, window: window, targetDuration: max(window.targetDuration, 6)
            ) { number in
                snapshot.breakNumbered(number) == nil ? nil : LiveBreakMedia(ads: [adPlaylist], slate: slate)
            }
            let written = rendered.serialized()
            invariant((try? MediaPlaylist.parse(written)) != nil, "a stitched live window does not parse")
            // The same timeline as HLS Interstitials: parses, and every break id reads back.
            let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "F")
            let breaks = InterstitialRenderer.liveBreaks(of: snapshot) { _ in true }
            let primary = InterstitialRenderer.live(
                window: window, breaks: breaks, targetDuration: max(1, window.targetDuration),
                urls: urls, policy: InterstitialPolicy()
            ).serialized()
            invariant((try? MediaPlaylist.parse(primary)) != nil, "a live interstitials playlist does not parse")
            for item in breaks {
                invariant(InterstitialBreakID(item.id.text) == item.id, "a live break id does not read back")
            }
        }
    }

    static func playlist(durations: [Double], prefix: String) -> MediaPlaylist {
        var playlist = MediaPlaylist(targetDuration: 6, playlistType: .vod, endList: true)
        playlist.segments = durations.enumerated().map {
            MediaSegment(uri: "\(prefix)/\($0.offset).ts", duration: $0.element)
        }
        return playlist
    }
}

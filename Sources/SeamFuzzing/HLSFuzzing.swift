import HLS
import SCTE35

/// The HLS target: what Seam does with every playlist it fetches, and `seam validate`.
enum HLSFuzzing {
    static func run(_ bytes: [UInt8]) {
        let parts = FuzzTarget.parts(bytes, limit: 4)
        var reloads = LiveReloadValidator(source: "fuzz")
        for (index, part) in parts.enumerated() {
            let text = String(decoding: part, as: UTF8.self)
            _ = PlaylistValidator.validate(text)
            guard let parsed = try? Playlist.parse(text, recordingLines: true) else { continue }
            // The proxy's own entry point agrees with the lenient parse about what it refuses.
            let usable = try? Playlist(parsing: text)
            invariant(
                (usable == nil) == (parsed.outOfRangeValue != nil) || usable == nil,
                "init(parsing:) and parse disagree about the numbers policy")
            switch parsed.playlist {
            case .media(let media):
                roundTrip(media)
                reloads.observe(media, at: Double(index) * 6)
                readCues(media)
                _ = media.duration
                _ = media.resolvedByteRanges()
                _ = media.effectiveKeys()
                _ = media.effectiveMaps()
                var resolved = media
                resolved.resolveURIs(against: "https://origin.example/a/b/index.m3u8?token=1")
                _ = resolved.serialized()
            case .multivariant(let multivariant):
                let written = multivariant.serialized()
                invariant(
                    (try? MultivariantPlaylist.parse(written)) != nil, "a written multivariant playlist does not parse")
                var resolved = multivariant
                resolved.resolveURIs(against: "https://origin.example/a/master.m3u8")
                _ = resolved.serialized()
                for variant in multivariant.variants {
                    _ = (
                        variant.bandwidth, variant.averageBandwidth, variant.codecs, variant.resolution,
                        variant.frameRate
                    )
                }
            }
        }
    }

    /// Writing a parsed playlist and reading it back gives a playlist that writes the same bytes.
    static func roundTrip(_ media: MediaPlaylist) {
        let written = media.serialized()
        guard let again = try? MediaPlaylist.parse(written) else {
            invariant(false, "a written media playlist does not parse")
            return
        }
        invariant(again.playlist.segments.count == media.segments.count, "a round trip changed the segment count")
        let rewritten = again.playlist.serialized()
        invariant(
            rewritten == written, "writing is not stable across a round trip: \(firstDifference(written, rewritten))")
    }

    /// The first line where two texts differ, both versions, for a finding's message.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) where left[safe: index] != right[safe: index] {
            return
                "line \(index + 1): \(String(reflecting: left[safe: index].map(String.init))) then \(String(reflecting: right[safe: index].map(String.init)))"
        }
        return "no line differs"
    }

    static func readCues(_ media: MediaPlaylist) {
        for segment in media.segments {
            for cue in segment.cues {
                let signal = CueDialect.signal(from: cue, options: .lenient)
                _ = signal?.remaining
                _ = CueDialect.signal(from: cue, options: .strict)
            }
            for range in segment.dateRanges {
                _ = CueDialect.signals(from: range, options: .lenient)
                _ = (
                    range.duration, range.plannedDuration, range.startDate?.secondsSince1970,
                    range.endDate?.secondsSince1970
                )
            }
            if let date = segment.programDateTime?.secondsSince1970 {
                _ = DateTime(secondsSince1970: date + segment.duration).text
            }
            for part in segment.parts { _ = (part.duration, part.byteRange) }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

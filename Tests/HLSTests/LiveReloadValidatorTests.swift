import Testing
@testable import HLS

// `LiveReloadValidator` fed one window at a time, as `seam validate --duration` does.

/// A segment on a live timeline: its media sequence number is its index.
private struct TimelineSegment {
    var uri: String
    var discontinuity: Bool
}

/// A live window as text: media sequence `first`, the given discontinuity sequence,
/// the timeline's segments `first..<end`. Parsed back, so the parser is part of the test.
private func window(
    _ timeline: [TimelineSegment], from first: Int, to end: Int, discontinuitySequence: Int,
    target: Int = 6, type: String? = nil, endList: Bool = false
) -> MediaPlaylist {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
    text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)\n"
    if let type { text += "#EXT-X-PLAYLIST-TYPE:\(type)\n" }
    for segment in timeline[first..<end] {
        if segment.discontinuity { text += "#EXT-X-DISCONTINUITY\n" }
        text += "#EXTINF:\(target).000,\n\(segment.uri)\n"
    }
    if endList { text += "#EXT-X-ENDLIST\n" }
    let parsed = try? MediaPlaylist.parse(text)
    precondition(parsed != nil && parsed!.diagnostics.isEmpty, "test window does not parse cleanly:\n\(text)")
    return parsed!.playlist
}

/// Discontinuity sequence a correct server writes for a window starting at `first`:
/// the discontinuities of every segment that already left (RFC 8216bis 6.2.2).
private func correctDiscontinuitySequence(_ timeline: [TimelineSegment], first: Int) -> Int {
    timeline[..<first].reduce(0) { $0 + ($1.discontinuity ? 1 : 0) }
}

/// Content, a two-segment ad pod at 4...5, content again from 6, another pod at 10...11, content from 12.
private let adTimeline: [TimelineSegment] = (0..<16).map { i in
    let isAd = (4...5).contains(i) || (10...11).contains(i)
    return TimelineSegment(uri: isAd ? "ad/\(i).ts" : "content/\(i).ts", discontinuity: [4, 6, 10, 12].contains(i))
}

private func rules(_ validator: LiveReloadValidator) -> [PlaylistRule] {
    validator.diagnostics.map(\.rule)
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, good enough to drive test cases.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Live reload checks")
struct LiveReloadValidatorTests {
    @Test("a correct sliding window, discontinuities leaving and DISCONTINUITY-SEQUENCE following: no findings")
    func correctSlidingWindow() {
        var validator = LiveReloadValidator(source: "live.m3u8")
        var time = 0.0
        // A window of four segments advancing one segment per target duration, through both pods.
        for first in 0...12 {
            let ds = correctDiscontinuitySequence(adTimeline, first: first)
            validator.observe(window(adTimeline, from: first, to: first + 4, discontinuitySequence: ds), at: time)
            time += 6
        }
        #expect(validator.reloads == 13)
        #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics.map(\.description))")
        // The sequence really went up: four discontinuities left the window on the way.
        #expect(correctDiscontinuitySequence(adTimeline, first: 12) == 3)
    }

    @Test("a window that starts on a segment carrying EXT-X-DISCONTINUITY has not lost that discontinuity yet")
    func windowStartingOnDiscontinuity() {
        var validator = LiveReloadValidator(source: "live.m3u8")
        // 3 → 4: the window now starts on ad/4.ts, whose discontinuity tag is still listed: stays 0.
        validator.observe(window(adTimeline, from: 3, to: 7, discontinuitySequence: 0), at: 0)
        validator.observe(window(adTimeline, from: 4, to: 8, discontinuitySequence: 0), at: 6)
        // 4 → 5: ad/4.ts and its tag left: 1.
        validator.observe(window(adTimeline, from: 5, to: 9, discontinuitySequence: 1), at: 12)
        #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics.map(\.description))")
    }

    @Test("several segments (and discontinuities) leaving in one reload, and windows that grow and shrink")
    func jumps() {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 2, to: 5, discontinuitySequence: 0), at: 0)
        validator.observe(window(adTimeline, from: 2, to: 9, discontinuitySequence: 0), at: 6)
        validator.observe(window(adTimeline, from: 7, to: 11, discontinuitySequence: 2), at: 12)
        validator.observe(window(adTimeline, from: 11, to: 13, discontinuitySequence: 3), at: 18)
        #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics.map(\.description))")
    }

    @Test("media-sequence-backwards")
    func mediaSequenceBackwards() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 1, to: 4, discontinuitySequence: 0), at: 0)
        validator.observe(window(adTimeline, from: 2, to: 5, discontinuitySequence: 0), at: 6)
        #expect(validator.diagnostics.isEmpty)
        validator.observe(window(adTimeline, from: 1, to: 4, discontinuitySequence: 0), at: 12)
        #expect(rules(validator) == [.mediaSequenceWentBackwards])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.severity == .error)
        #expect(finding.source == "live.m3u8")
        #expect(finding.message.contains("#EXT-X-MEDIA-SEQUENCE"))
        #expect(finding.message.contains("from 2 to 1"))
        #expect(finding.message.hasPrefix("reload 3:"))
    }

    @Test("segment-changed: one media sequence number naming another URI")
    func sameSequenceDifferentURI() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0), at: 0)
        var replaced = adTimeline
        replaced[3].uri = "content/3-reencoded.ts"
        validator.observe(window(replaced, from: 1, to: 5, discontinuitySequence: 0), at: 6)
        #expect(rules(validator) == [.segmentChangedUnderSequenceNumber])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.message.contains("media sequence 3"))
        #expect(finding.message.contains("content/3.ts"))
        #expect(finding.message.contains("content/3-reencoded.ts"))
    }

    @Test("discontinuity-sequence-wrong: not incremented when a discontinuity leaves the window")
    func discontinuitySequenceNotIncremented() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 4, to: 8, discontinuitySequence: 0), at: 0)
        // ad/4.ts (with its discontinuity) leaves; the server forgets to count it.
        validator.observe(window(adTimeline, from: 5, to: 9, discontinuitySequence: 0), at: 6)
        #expect(rules(validator).contains(.discontinuitySequenceWrong))
        #expect(Set(rules(validator)) == [.discontinuitySequenceWrong])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.message.contains("#EXT-X-DISCONTINUITY-SEQUENCE"))
        #expect(finding.message.contains("expected 1"))
    }

    @Test("discontinuity-sequence-wrong: incremented although no discontinuity left")
    func discontinuitySequenceIncrementedWithoutReason() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0), at: 0)
        validator.observe(window(adTimeline, from: 1, to: 5, discontinuitySequence: 1), at: 6)
        #expect(Set(rules(validator)) == [.discontinuitySequenceWrong])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.message.contains("is 1"))
        #expect(finding.message.contains("expected 0"))
        // Also when nothing left the window at all.
        var still = LiveReloadValidator(source: "live.m3u8")
        still.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0), at: 0)
        still.observe(window(adTimeline, from: 0, to: 5, discontinuitySequence: 1), at: 6)
        #expect(Set(rules(still)) == [.discontinuitySequenceWrong])
        #expect(still.diagnostics.first?.message.contains("no segment left") == true)
    }

    @Test("event-segments-removed: an EVENT playlist drops its oldest segments")
    func eventDroppingSegments() throws {
        var validator = LiveReloadValidator(source: "event.m3u8")
        validator.observe(window(adTimeline, from: 0, to: 3, discontinuitySequence: 0, type: "EVENT"), at: 0)
        validator.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0, type: "EVENT"), at: 6)
        #expect(validator.diagnostics.isEmpty)
        validator.observe(window(adTimeline, from: 2, to: 5, discontinuitySequence: 0, type: "EVENT"), at: 12)
        #expect(rules(validator) == [.segmentsRemovedFromEvent])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.message.contains("EVENT"))
        #expect(finding.message.contains("0 → 2"))
    }

    @Test("playlist-type-changed: #EXT-X-ENDLIST disappears")
    func endListDisappearing() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0), at: 0)
        validator.observe(window(adTimeline, from: 0, to: 5, discontinuitySequence: 0, endList: true), at: 6)
        #expect(validator.diagnostics.isEmpty)
        validator.observe(window(adTimeline, from: 0, to: 5, discontinuitySequence: 0), at: 12)
        #expect(rules(validator) == [.playlistTypeChanged])
        #expect(validator.diagnostics.first?.message.contains("#EXT-X-ENDLIST") == true)
    }

    @Test("playlist-stale: no new segment for more than three target durations")
    func stalePlaylist() throws {
        var validator = LiveReloadValidator(source: "live.m3u8")
        let frozen = window(adTimeline, from: 0, to: 4, discontinuitySequence: 0, target: 6)
        validator.observe(frozen, at: 0)
        validator.observe(frozen, at: 6)
        validator.observe(frozen, at: 12)
        validator.observe(frozen, at: 18)  // exactly three target durations: still allowed
        #expect(validator.diagnostics.isEmpty)
        validator.observe(frozen, at: 19)
        #expect(rules(validator) == [.playlistStale])
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.message.contains("19 s"))
        // A new segment resets the clock.
        var moving = LiveReloadValidator(source: "live.m3u8")
        moving.observe(window(adTimeline, from: 0, to: 4, discontinuitySequence: 0), at: 0)
        moving.observe(window(adTimeline, from: 0, to: 5, discontinuitySequence: 0), at: 15)
        moving.observe(window(adTimeline, from: 0, to: 5, discontinuitySequence: 0), at: 30)
        #expect(moving.diagnostics.isEmpty)
        // A finished playlist is never stale.
        var ended = LiveReloadValidator(source: "vod.m3u8")
        let finished = window(adTimeline, from: 0, to: 4, discontinuitySequence: 0, endList: true)
        ended.observe(finished, at: 0)
        ended.observe(finished, at: 100)
        #expect(ended.diagnostics.isEmpty)
    }

    // MARK: Property test

    /// A random long timeline and a random sequence of windows over it that a correct
    /// server could publish: starts and ends never go back, every reload adds at least
    /// one segment, and a window never starts beyond the end of the previous one.
    fileprivate struct Scenario {
        var timeline: [TimelineSegment]
        /// (first, end) of each window.
        var windows: [(first: Int, end: Int)]

        init(seed: UInt64) {
            var random = SplitMix64(seed: seed)
            let length = Int.random(in: 60...300, using: &random)
            let density = Double.random(in: 0.02...0.4, using: &random)
            timeline = (0..<length).map { i in
                TimelineSegment(
                    uri: "s\(seed)-\(i).ts", discontinuity: i > 0 && Double.random(in: 0..<1, using: &random) < density)
            }
            var first = 0
            var end = Int.random(in: 1...8, using: &random)
            windows = [(first, end)]
            while true {
                let newEnd = min(length, end + Int.random(in: 1...4, using: &random))
                guard newEnd > end else { break }
                let size = Int.random(in: 1...12, using: &random)
                // Never past the old end, so every segment that leaves was seen in some window.
                let newFirst = min(max(first, newEnd - size), end)
                first = newFirst
                end = newEnd
                windows.append((first, end))
            }
        }

        func playlist(_ index: Int, discontinuityOffset: Int = 0) -> MediaPlaylist {
            let (first, end) = windows[index]
            let ds = correctDiscontinuitySequence(timeline, first: first) + discontinuityOffset
            return window(timeline, from: first, to: end, discontinuitySequence: ds)
        }
    }

    @Test("property: random correct windows give no findings", arguments: UInt64(1)...UInt64(150))
    func randomCorrectWindows(seed: UInt64) {
        let scenario = Scenario(seed: seed)
        var validator = LiveReloadValidator(source: "seed \(seed)")
        for index in scenario.windows.indices {
            validator.observe(scenario.playlist(index), at: Double(index) * 6)
        }
        #expect(validator.reloads == scenario.windows.count)
        #expect(validator.diagnostics.isEmpty, "seed \(seed): \(validator.diagnostics.map(\.description))")
    }

    @Test(
        "property: a discontinuity sequence off by ±1 at one random reload is always caught",
        arguments: UInt64(1)...UInt64(150))
    func randomCorruptedReload(seed: UInt64) throws {
        let scenario = Scenario(seed: seed)
        try #require(scenario.windows.count >= 2)
        var random = SplitMix64(seed: seed ^ 0xC0FF_EE00_DEAD_BEEF)
        let corrupted = Int.random(in: 1..<scenario.windows.count, using: &random)
        let correct = correctDiscontinuitySequence(scenario.timeline, first: scenario.windows[corrupted].first)
        // -1 only where the result stays a legal (non-negative) value.
        let offset = correct == 0 || Bool.random(using: &random) ? 1 : -1
        var validator = LiveReloadValidator(source: "seed \(seed)")
        for index in scenario.windows.indices {
            validator.observe(
                scenario.playlist(index, discontinuityOffset: index == corrupted ? offset : 0),
                at: Double(index) * 6)
        }
        let wrong = validator.diagnostics.filter { $0.rule == .discontinuitySequenceWrong }
        #expect(
            !wrong.isEmpty,
            "seed \(seed): offset \(offset) at reload \(corrupted + 1) of \(scenario.windows.count) went unnoticed")
        // Found at the reload that was corrupted, not before, and nothing else was blamed.
        #expect(
            wrong.first?.message.hasPrefix("reload \(corrupted + 1):") == true,
            "seed \(seed): \(validator.diagnostics.map(\.description))")
        #expect(validator.diagnostics.allSatisfy { $0.rule == .discontinuitySequenceWrong })
    }
}

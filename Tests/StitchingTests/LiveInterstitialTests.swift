import Foundation
import HLS
import Testing
@testable import Stitching

/// Live interstitials as a table of reloads: a timeline fed with origin windows, decided as the
/// tests say, rendered as the interstitials primary. No sockets, no sleeps.
@Suite struct LiveInterstitialTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "L1")

    /// Feeds windows up to `last` (one reload per segment), deciding each break with two ads (10 s and 15 s).
    static func drive(_ timeline: inout LiveTimeline, _ channel: LiveChannelFixture, through last: Int, from first: Int)
    {
        for end in first...last {
            while case .needsDecision(let item) = timeline.advance(with: channel.window("v0", last: end)) {
                timeline.resolve(
                    breakNumber: item.number,
                    layout: LiveBreakLayout.make(breakDuration: item.duration, ads: [[5, 5], [5, 5, 5]], slate: nil))
            }
        }
    }

    func render(
        _ timeline: LiveTimeline, _ channel: LiveChannelFixture, rendition: String = "v0", last: Int,
        policy: InterstitialPolicy = InterstitialPolicy()
    ) -> MediaPlaylist {
        InterstitialRenderer.live(
            window: channel.window(rendition, last: last),
            breaks: InterstitialRenderer.liveBreaks(of: timeline) { _ in true },
            targetDuration: 6, urls: urls, policy: policy)
    }

    func dateRanges(_ playlist: MediaPlaylist) -> [(segment: Int, range: DateRange)] {
        playlist.segments.enumerated().flatMap { index, segment in
            segment.dateRanges.map { (playlist.mediaSequence + index, $0) }
        }
    }

    static func timeline() -> LiveTimeline {
        LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6))
    }

    @Test func aBreakIsSignalledWithLiveRulesAndAStableID() throws {
        let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])
        var timeline = Self.timeline()
        Self.drive(&timeline, channel, through: 12, from: 8)
        #expect(dateRanges(render(timeline, channel, last: 12)).isEmpty)
        Self.drive(&timeline, channel, through: 14, from: 13)
        let playlist = render(timeline, channel, last: 14)
        let ranges = dateRanges(playlist)
        try #require(ranges.count == 1)
        let start = DateTime(secondsSince1970: 1_800_000_000 + 13 * 6)
        #expect(ranges[0].segment == 13)
        let line = playlist.serialized().split(separator: "\n").first { $0.hasPrefix("#EXT-X-DATERANGE") }
        #expect(
            line.map(String.init)
                == #"#EXT-X-DATERANGE:ID="at-1800000078000",CLASS="com.apple.hls.interstitial",START-DATE="\#(start.text)",PLANNED-DURATION=30,CUE="ONCE",X-ASSET-LIST="https://seam.example/v1/sessions/L1/assets/at-1800000078000.json",X-PLAYOUT-LIMIT=30,X-TIMELINE-OCCUPIES="RANGE",X-RESTRICT="SKIP,JUMP""#
        )
        #expect(
            !playlist.serialized().contains("CUE-OUT"), "the origin's cue tags stay out of the interstitials rendering")
        #expect(!playlist.serialized().contains("X-RESUME-OFFSET"))
        // Breaks that play every time a viewer passes them: no CUE at all.
        let everyTime = render(timeline, channel, last: 14, policy: InterstitialPolicy(playOnce: false))
        #expect(dateRanges(everyTime).first?.range.cue == [])
        // Content passes through untouched: the origin's own numbers and URIs.
        let origin = channel.window("v0", last: 14)
        #expect(
            playlist.mediaSequence == origin.mediaSequence && playlist.segments.map(\.uri) == origin.segments.map(\.uri)
        )
        // Reloads: the same ID with the same attributes until the break is over, then DURATION is added.
        var seen: [String] = []
        for last in 15...24 {
            Self.drive(&timeline, channel, through: last, from: last)
            let now = dateRanges(render(timeline, channel, last: last))
            if let range = now.first?.range {
                #expect(range.id == "at-1800000078000")
                #expect(range.startDate == start && range.attributes.double("X-PLAYOUT-LIMIT") == 30)
                seen.append(range.duration.map { "ended \($0)" } ?? "open")
            } else {
                seen.append("gone")
            }
        }
        // Window of 6 segments: the break (13-17, 30 s) is listed on the window's first segment
        // while that segment starts before the break's end, and left out once the window is past it.
        #expect(seen == ["open", "open", "open"] + Array(repeating: "ended 30.0", count: 5) + ["gone", "gone"])
    }

    @Test func anEarlyReturnResendsTheSameIDWithTheShorterLimit() throws {
        let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 16)])
        var timeline = Self.timeline()
        Self.drive(&timeline, channel, through: 15, from: 10)
        let before = try #require(dateRanges(render(timeline, channel, last: 15)).first?.range)
        #expect(before.attributes.double("X-PLAYOUT-LIMIT") == 30 && before.duration == nil)
        Self.drive(&timeline, channel, through: 16, from: 16)
        let after = try #require(dateRanges(render(timeline, channel, last: 16)).first?.range)
        #expect(after.id == before.id && after.startDate == before.startDate && after.assetList == before.assetList)
        #expect(after.attributes.double("X-PLAYOUT-LIMIT") == 18)
        #expect(after.duration == 18 && after.plannedDuration == 30)
    }

    @Test func aViewerJoiningMidBreakGetsTheRemainingTime() throws {
        var channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])
        channel.windowSize = 2
        var timeline = Self.timeline()
        Self.drive(&timeline, channel, through: 15, from: 15)
        let range = try #require(dateRanges(render(timeline, channel, last: 15)).first)
        // Joined at segment 14, 6 s into the 30 s break: 24 s remain, from segment 14's date.
        #expect(range.segment == 14)
        #expect(range.range.attributes.double("X-PLAYOUT-LIMIT") == 24)
        #expect(range.range.startDate == DateTime(secondsSince1970: 1_800_000_000 + 14 * 6))
    }

    @Test func everyRenditionCarriesTheSameDateRange() throws {
        let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])
        var timeline = Self.timeline()
        Self.drive(&timeline, channel, through: 15, from: 10)
        let video = dateRanges(render(timeline, channel, rendition: "v0", last: 15)).map(\.range)
        let audio = dateRanges(render(timeline, channel, rendition: "a0", last: 15)).map(\.range)
        #expect(video.count == 1 && video == audio)
    }

    @Test func idsComeFromTheCueNotTheWindow() {
        func item(signal: String?, date: Double?, sequence: Int = 7) -> LiveBreak {
            LiveBreak(
                number: 3, signalID: signal, startSequence: sequence, duration: 30, elapsedAtJoin: 0,
                programDateTime: date)
        }
        #expect(InterstitialBreakID(liveBreak: item(signal: "1234", date: 5)).text == "scte-1234-5000")
        // An encoder that counts its event ids from 1 again names a new break: the start tells them apart.
        #expect(InterstitialBreakID(liveBreak: item(signal: "1234", date: 905)).text == "scte-1234-905000")
        #expect(InterstitialBreakID(liveBreak: item(signal: "1234", date: nil, sequence: 42)).text == "scte-1234-s42")
        #expect(InterstitialBreakID(liveBreak: item(signal: "break-99", date: 5)).text == "cue-break-99-5000")
        #expect(InterstitialBreakID(liveBreak: item(signal: "schedule-12", date: nil)).text == "cue-schedule-12-s7")
        let odd = InterstitialBreakID(liveBreak: item(signal: "ad break #1 \"x\"", date: 5)).text
        #expect(odd.hasPrefix("cue-x") && odd.hasSuffix("-5000") && odd.count == 26)
        #expect(
            odd.dropLast(5)
                == InterstitialBreakID(liveBreak: item(signal: "ad break #1 \"x\"", date: 9)).text.dropLast(5))
        #expect(InterstitialBreakID(liveBreak: item(signal: nil, date: 1_800_000_078.5)).text == "at-1800000078500")
        #expect(InterstitialBreakID(liveBreak: item(signal: nil, date: nil, sequence: 42)).text == "seq-42")
        for text in [
            "scte-1234-5000", "scte-1234-s42", "cue-break-99-5000", "cue-schedule-12-s7", odd, "at-1800000078500",
            "seq-42",
        ] {
            #expect(InterstitialBreakID(text)?.text == text, "\(text)")
        }
        for hostile in [
            "cue-", "cue-12", "cue-a b", "cue-" + String(repeating: "a", count: 65), "cue-abc-", "cue--5", "cue-abc-x1",
            "scte-1-", "scte-1-s", "scte-1-01", "scte-4294967296-5", "at-01", "seq--1", "cue-../x",
        ] {
            #expect(InterstitialBreakID(hostile) == nil, "\(hostile)")
        }
    }

    @Test func anOriginWithoutProgramDateTimesGetsStableSyntheticOnes() throws {
        var channel = LiveChannelFixture(breaks: [])
        channel.cues = false
        var stripped = channel.window("v0", last: 20)
        for index in stripped.segments.indices { stripped.segments[index].programDateTime = nil }
        let breaks = [
            LiveInterstitial(
                id: InterstitialBreakID(
                    liveBreak: LiveBreak(
                        number: 0, signalID: nil, startSequence: 17, duration: 12,
                        elapsedAtJoin: 0, programDateTime: nil)),
                breakNumber: 0, startSequence: 17,
                startDate: InterstitialRenderer.syntheticDate(sequence: 17, targetDuration: 6),
                plannedDuration: 12, coveredDuration: nil)
        ]
        let out = InterstitialRenderer.live(
            window: stripped, breaks: breaks, targetDuration: 6, urls: urls, policy: InterstitialPolicy())
        #expect(out.segments.allSatisfy { $0.programDateTime != nil })
        let segment = try #require(out.segments.first { !$0.dateRanges.isEmpty })
        #expect(segment.programDateTime == segment.dateRanges.first?.startDate)
        #expect(segment.dateRanges.first?.id == "seq-17")
        #expect(
            PlaylistValidator.validate(out.serialized()).errors.isEmpty,
            "\(PlaylistValidator.validate(out.serialized()).errors)")
    }

    @Test func theLiveAssetListListsThePlayedAdsWithTheirLength() {
        let layout = LiveBreakLayout.make(breakDuration: 20, ads: [[5, 5], [5, 5, 5], [4]], slate: nil)
        let ads: [PlannedAd?] = [
            TitleFixture.ad("a", duration: 10), TitleFixture.ad("b", duration: 15), TitleFixture.ad("c", duration: 4),
        ]
        let list = InterstitialRenderer.liveAssetList(
            breakNumber: 4, layout: layout, ads: ads, skipOffset: { _ in 5 }, urls: urls,
            tracking: .server)
        // The 15 s ad does not fit after the first; the 4 s one is not tried after a trim.
        #expect(list.assets.map(\.uri) == ["https://seam.example/v1/sessions/L1/adplaylist/4/0/master.m3u8"])
        #expect(list.assets.map(\.duration) == [10])
        #expect(list.skipControl?.offset == 5)
        #expect(list.assets.first?.signaling != nil)
    }
}

@Suite struct LiveInterstitialLowLatencyTests {
    @Test func lowLatencyTagsAreNotCarried() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-MEDIA-SEQUENCE:10
            #EXT-X-PROGRAM-DATE-TIME:2026-03-01T12:00:00.000Z
            #EXT-X-PART:DURATION=1.0,URI="https://origin.example/p10.0.mp4",INDEPENDENT=YES
            #EXTINF:4.0,
            https://origin.example/s10.mp4
            #EXTINF:4.0,
            https://origin.example/s11.mp4
            #EXT-X-PART:DURATION=1.0,URI="https://origin.example/p12.0.mp4",INDEPENDENT=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="https://origin.example/p12.1.mp4"
            #EXT-X-RENDITION-REPORT:URI="https://origin.example/a.m3u8",LAST-MSN=11,LAST-PART=0

            """
        let window = try MediaPlaylist(parsing: text)
        let out = InterstitialRenderer.live(
            window: window, breaks: [], targetDuration: 4,
            urls: SessionURLs(baseURL: "https://seam.example", sessionID: "L"), policy: InterstitialPolicy())
        let written = out.serialized()
        for tag in ["EXT-X-SERVER-CONTROL", "EXT-X-PART", "EXT-X-PRELOAD-HINT", "EXT-X-RENDITION-REPORT"] {
            #expect(!written.contains("#" + tag), "\(tag) in:\n\(written)")
        }
        #expect(out.segments.map(\.uri) == ["https://origin.example/s10.mp4", "https://origin.example/s11.mp4"])
        #expect(PlaylistValidator.validate(written).errors.isEmpty, "\(PlaylistValidator.validate(written).errors)")
    }
}

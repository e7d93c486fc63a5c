import DASH
import Foundation
import HLS
import SCTE35
import Testing

@testable import Stitching

/// A live MPD read as the live timeline's reference window (`DASHLiveWindow`) and a session's
/// MPD written from its timeline (`DASHLiveRenderer`): no network, the origin is written here —
/// 6 s video segments numbered from the start of the channel in a `SegmentTimeline`, audio by a
/// fixed-length template, SCTE-35 splice outs in an `EventStream`.
@Suite struct DASHLiveTests {
    static let url = "https://origin.example/live/manifest.mpd"
    /// 2026-01-01T00:00:00Z.
    static let epoch = 1_767_225_600.0

    /// The origin's MPD listing video segments `numbers` (segment n starts at 6·(n-1) s), with a
    /// splice out of `breakSeconds` at each of `breaks` (segment numbers).
    static func origin(_ numbers: ClosedRange<Int>, breaks: [Int] = [], breakSeconds: Int = 12) -> MPD {
        let events = breaks.map { number in
            let section =
                (try? SpliceInfoSectionEncoder().base64(
                    .spliceInsert(.programOut(eventID: UInt32(number), breakDuration: UInt64(breakSeconds * 90_000)))))
                ?? ""
            return """
                <Event presentationTime="\((number - 1) * 6)" duration="\(breakSeconds)" id="\(number)"><Signal xmlns="http://www.scte.org/schemas/35/2016"><Binary>\(section)</Binary></Signal></Event>
                """
        }.joined()
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" availabilityStartTime="2026-01-01T00:00:00Z" publishTime="2026-01-01T00:10:00Z" minimumUpdatePeriod="PT6S" timeShiftBufferDepth="PT36S" minBufferTime="PT12S">
              <BaseURL>https://cdn.example/live/</BaseURL>
              <Period id="p0" start="PT0S">
                <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1">\(events)</EventStream>
                <AdaptationSet id="1" contentType="video" mimeType="video/mp4" codecs="avc1.4d401f" segmentAlignment="true">
                  <SegmentTemplate timescale="90000" initialization="v-$RepresentationID$/init.mp4" media="v-$RepresentationID$/$Number$.m4s" startNumber="\(numbers.lowerBound)">
                    <SegmentTimeline><S t="\((numbers.lowerBound - 1) * 540_000)" d="540000" r="\(numbers.count - 1)"/></SegmentTimeline>
                  </SegmentTemplate>
                  <Representation id="720" bandwidth="2000000" width="1280" height="720"/>
                  <Representation id="360" bandwidth="600000" width="640" height="360"/>
                </AdaptationSet>
                <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">
                  <SegmentTemplate timescale="48000" duration="288000" initialization="a/init.mp4" media="a/$Number$.m4s" startNumber="1"/>
                  <Representation id="a" bandwidth="128000"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """
        return try! MPD(parsing: text)
    }

    /// When segment `number` ends: the origin lists it from then on.
    static func endOf(_ number: Int) -> Double { epoch + Double(number * 6) }

    static func window(_ numbers: ClosedRange<Int>, breaks: [Int] = []) throws -> DASHLiveWindow {
        try DASHLiveWindow.make(origin(numbers, breaks: breaks), url: url, now: endOf(numbers.upperBound) + 1).get()
    }

    @Test func theVideoIsTheReferenceWindowNumberedByNumberAndDatedOnTheWallClock() throws {
        let window = try Self.window(101...106, breaks: [104])
        let playlist = window.reference
        #expect(playlist.mediaSequence == 101)
        #expect(playlist.segments.count == 6)
        #expect(playlist.segments.allSatisfy { $0.duration == 6 })
        #expect(playlist.segments[0].uri == "https://cdn.example/live/v-720/101.m4s")
        #expect(playlist.segments[0].map?.uri == "https://cdn.example/live/v-720/init.mp4")
        #expect(playlist.segments[0].programDateTime?.secondsSince1970 == Self.epoch + 600)
        // The splice out at segment 104 is a date range on that segment, read as a cue out.
        let cue = try #require(playlist.segments[3].dateRanges.first)
        #expect(cue.startDate?.secondsSince1970 == Self.epoch + 618)
        #expect(cue.plannedDuration == 12)
        let signals = CueDialect.signals(in: playlist.segments[3], options: .strict)
        #expect(signals.map(\.kind) == [.out])
        #expect(playlist.segments.enumerated().allSatisfy { $0.offset == 3 || $0.element.dateRanges.isEmpty })
    }

    /// A window that starts with a period's first segment, the period before already gone: still
    /// a new period (a session that reloads it then starts a new run there).
    @Test func aPeriodsFirstSegmentIsADiscontinuityEvenWithThePeriodBeforeGone() throws {
        func mpd(_ periods: [(start: Int, first: Int, count: Int, startNumber: Int)]) throws -> MPD {
            var body = ""
            for (index, period) in periods.enumerated() {
                body += "<Period id=\"p\(index)\" start=\"PT\(period.start)S\">"
                body += "<AdaptationSet contentType=\"video\" mimeType=\"video/mp4\" codecs=\"avc1.4d401f\">"
                body += "<SegmentTemplate timescale=\"1\" media=\"$Number$.m4s\" startNumber=\"\(period.startNumber)\">"
                if period.count > 0 {
                    body +=
                        "<SegmentTimeline><S t=\"\(period.first * 6)\" d=\"6\" r=\"\(period.count - 1)\"/></SegmentTimeline>"
                } else {
                    body += "<SegmentTimeline/>"
                }
                body += "</SegmentTemplate><Representation id=\"v\" bandwidth=\"1000\"/></AdaptationSet></Period>"
            }
            return try MPD(
                parsing: "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"dynamic\" "
                    + "availabilityStartTime=\"2026-01-01T00:00:00Z\">" + body + "</MPD>")
        }
        // Both periods listed: the second's first segment is a discontinuity.
        let both = try DASHLiveWindow.make(mpd([(0, 8, 2, 9), (60, 0, 3, 11)]), url: Self.url, now: Self.epoch + 90)
            .get()
        #expect(both.reference.segments.map(\.discontinuity) == [false, false, true, false, false])
        // Only the second, from its first segment: still one.
        let alone = try DASHLiveWindow.make(mpd([(0, 0, 0, 1), (60, 0, 3, 11)]), url: Self.url, now: Self.epoch + 90)
            .get()
        #expect(alone.reference.mediaSequence == 11)
        #expect(alone.reference.segments.first?.discontinuity == true)
        // A window starting inside a period is no discontinuity.
        let inside = try DASHLiveWindow.make(mpd([(60, 1, 3, 11)]), url: Self.url, now: Self.epoch + 90).get()
        #expect(inside.reference.segments.first?.discontinuity == false)
    }

    @Test func aBreakAheadOfTheWindowIsOnItsLastSegmentAndOneUnderWayOnItsFirst() throws {
        let ahead = try Self.window(101...103, breaks: [105])
        #expect(ahead.reference.segments[2].dateRanges.first?.startDate?.secondsSince1970 == Self.epoch + 624)
        let underWay = try Self.window(102...107, breaks: [101])
        #expect(underWay.reference.segments[0].dateRanges.count == 1)
        let over = try Self.window(104...109, breaks: [101])
        #expect(over.reference.segments.allSatisfy { $0.dateRanges.isEmpty })
    }

    @Test func fixedLengthSegmentsAreThoseCompleteByNowWithinTheTimeShiftBuffer() throws {
        let text = Self.origin(101...106).serialized()
            .replacingOccurrences(
                of: #"<SegmentTimeline><S t="54000000" d="540000" r="5"/></SegmentTimeline>"#, with: ""
            )
            .replacingOccurrences(of: #"startNumber="101""#, with: #"duration="540000" startNumber="1""#)
        let mpd = try MPD(parsing: text)
        let window = try DASHLiveWindow.make(mpd, url: Self.url, now: Self.endOf(106) + 3).get()
        // 36 s of buffer: the six segments complete by now, numbered from the channel's start.
        #expect(window.reference.mediaSequence == 101)
        #expect(window.reference.segments.count == 6)
        #expect(window.reference.segments.last?.uri == "https://cdn.example/live/v-720/106.m4s")
    }

    @Test func refusalsNameWhatTheMPDLacks() throws {
        let text = Self.origin(1...3).serialized()
        let noStart = try MPD(
            parsing: text.replacingOccurrences(of: #"availabilityStartTime="2026-01-01T00:00:00Z""#, with: ""))
        #expect(throws: DASHLiveWindow.Refusal.noAvailabilityStart(url: Self.url)) {
            try DASHLiveWindow.make(noStart, url: Self.url, now: Self.epoch).get()
        }
        let staticMPD = try MPD(parsing: text.replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#))
        #expect(throws: DASHLiveWindow.Refusal.notDynamic(url: Self.url)) {
            try DASHLiveWindow.make(staticMPD, url: Self.url, now: Self.epoch).get()
        }
        let audioOnly = try MPD(
            parsing: text.replacingOccurrences(of: #"contentType="video""#, with: #"contentType="text""#))
        let refusal = DASHLiveWindow.make(audioOnly, url: Self.url, now: Self.epoch)
        #expect(refusal.failure?.description.contains("no video representation") == true)
    }

    /// A channel that ends, either way an origin says so (DASH-IF's: still dynamic, with a
    /// `mediaPresentationDuration`; or turned static): the window's reference ends, the timeline
    /// finishes, and the session's MPD ends with it — still dynamic, so a player following it
    /// keeps its place, with no `minimumUpdatePeriod` and the presentation's end said.
    @Test(arguments: ["dynamic", "static"]) func aChannelThatEndsEndsTheSessionsMPD(form: String) throws {
        var timeline = try Self.filledTimeline(through: [101...104, 101...106, 103...108])
        // Segments through 110 are out, and the channel ends with it, 660 s after the epoch.
        var text = Self.origin(103...110, breaks: [104]).serialized()
            .replacingOccurrences(of: #"minimumUpdatePeriod="PT6S""#, with: #"mediaPresentationDuration="PT660S""#)
        if form == "static" { text = text.replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#) }
        let mpd = try MPD(parsing: text)
        if form == "dynamic" {
            // Before its end, the channel is live.
            let before = try DASHLiveWindow.make(mpd, url: Self.url, now: Self.endOf(109) + 1, following: true).get()
            #expect(!before.reference.endList)
        }
        let window = try DASHLiveWindow.make(mpd, url: Self.url, now: Self.endOf(110) + 30, following: true).get()
        #expect(window.reference.endList)
        #expect(window.reference.segments.last?.uri.hasSuffix("/110.m4s") == true)
        // A static MPD is read as a live window would be: its last 36 s (timeShiftBufferDepth).
        #expect(window.reference.mediaSequence == (form == "static" ? 105 : 103))
        _ = timeline.advance(with: window.reference)
        #expect(timeline.isFinished)
        let ended = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
        #expect(ended.isDynamic)
        #expect(ended.root[attribute: "minimumUpdatePeriod"] == nil)
        #expect(ended.mediaPresentationDuration == 660)
        // (The static window starts inside the break: its first content period has left it.)
        #expect(
            Self.periods(ended).map(\.id)
                == (form == "static" ? [] : ["seam-content-600000"]) + ["seam-ad-0-0", "seam-content-630000"])
        // The last period lasts to the end, not a minute past what it lists.
        #expect(ended.periods.last?.duration == 30)
        let errors = MPDValidator.check(ended).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func aStaticReloadThatCannotBePlacedSaysTheChannelEnded() throws {
        let text = Self.origin(101...106).serialized().replacingOccurrences(
            of: #"type="dynamic""#, with: #"type="static""#)
        // No end: neither mediaPresentationDuration nor a last period with a duration.
        let refusal = DASHLiveWindow.make(try MPD(parsing: text), url: Self.url, now: Self.endOf(106), following: true)
        #expect(refusal.failure == .ended(url: Self.url))
        #expect(refusal.failure?.description.contains("mediaPresentationDuration") == true)
    }

    /// Numbers, times and durations an origin may write that arithmetic must not trap on.
    @Test func hostileNumbersAndTimesAreRefusedOrSkippedNeverTrapped() throws {
        let text = Self.origin(101...106, breaks: [104]).serialized()
        let huge = try MPD(
            parsing: text.replacingOccurrences(of: #"startNumber="101""#, with: #"startNumber="9223372036854775807""#))
        #expect(throws: DASHLiveWindow.Refusal.numberTooLarge(path: "MPD/Period[1]")) {
            try DASHLiveWindow.make(huge, url: Self.url, now: Self.endOf(106)).get()
        }
        // A segment or a period that starts centuries away: refused, not summed into a trap.
        let far = try MPD(
            parsing: text.replacingOccurrences(
                of: #"<S t="54000000" d="540000" r="5"/>"#, with: #"<S t="18446744073709000000" d="540000" r="5"/>"#))
        #expect(throws: DASHLiveWindow.Refusal.timeOutOfRange(path: "MPD/Period[1]")) {
            try DASHLiveWindow.make(far, url: Self.url, now: Self.endOf(106)).get()
        }
        let late = try MPD(parsing: text.replacingOccurrences(of: #"start="PT0S""#, with: #"start="P99999999999999D""#))
        #expect(throws: DASHLiveWindow.Refusal.timeOutOfRange(path: "MPD/Period[1]")) {
            try DASHLiveWindow.make(late, url: Self.url, now: Self.endOf(106)).get()
        }
        let fixed = text.replacingOccurrences(
            of: #"<SegmentTimeline><S t="54000000" d="540000" r="5"/></SegmentTimeline>"#, with: "")
        for variant in [
            fixed.replacingOccurrences(
                of: #"startNumber="101""#, with: #"duration="540000" startNumber="9007199254740990""#),
            fixed.replacingOccurrences(of: #"startNumber="101""#, with: #"duration="1" startNumber="1""#)
                .replacingOccurrences(of: #"timescale="90000""#, with: #"timescale="9000000000000000000""#),
            fixed.replacingOccurrences(of: #"startNumber="101""#, with: #"duration="540000""#)
                .replacingOccurrences(
                    of: #"timeShiftBufferDepth="PT36S""#, with: #"timeShiftBufferDepth="PT99999999999999999999S""#),
            text.replacingOccurrences(
                of: #"presentationTime="618""#, with: #"presentationTime="18446744073709551615""#),
            text.replacingOccurrences(
                of: #"<Event presentationTime="618" duration="12" id="104">"#,
                with: #"<Event presentationTime="618" duration="12">"#
            )
            .replacingOccurrences(of: #"timescale="1">"#, with: #"timescale="1" presentationTimeOffset="0">"#),
        ] {
            guard let mpd = try? MPD(parsing: variant) else { continue }
            for now in [Self.endOf(106), 1e15, -1e15] {
                guard case .success(let window) = DASHLiveWindow.make(mpd, url: Self.url, now: now) else { continue }
                var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
                while case .needsDecision(let open) = timeline.advance(with: window.reference) {
                    timeline.resolve(
                        breakNumber: open.number,
                        layout: LiveBreakLayout.make(breakDuration: open.duration, ads: [[6, 6]], slate: nil))
                }
                _ = DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).map { $0.serialized() }
            }
        }
        // A huge timescale moves an offset by saturating, not trapping.
        #expect(DASHLiveRenderer.moved(10, by: 1e10, timescale: Int.max) > 9_000_000_000_000_000_000)
        #expect(DASHLiveRenderer.moved(10, by: -5, timescale: 90_000) == 10)
    }

    // MARK: Rendering

    /// A stand-in ad period: its id, and how many seconds of it were listed (as an attribute).
    static func adPeriod(_ breakNumber: Int, _ ad: Int, _ id: String, _ seconds: Double) -> XMLElement? {
        XMLElement(
            name: "Period",
            attributes: [
                XMLAttribute(name: "id", value: id), XMLAttribute(name: "duration", value: "PT12S"),
                XMLAttribute(name: "listed", value: String(seconds)),
            ])
    }

    /// A timeline that met the break at 104 and filled it with one 12 s ad of two segments.
    static func filledTimeline(through numbers: [ClosedRange<Int>]) throws -> LiveTimeline {
        var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
        for numbers in numbers {
            while case .needsDecision(let open) = timeline.advance(with: try window(numbers, breaks: [104]).reference) {
                timeline.resolve(
                    breakNumber: open.number,
                    layout: LiveBreakLayout.make(breakDuration: open.duration, ads: [[6, 6]], slate: nil))
            }
        }
        return timeline
    }

    static func periods(_ mpd: MPD) -> [(id: String, start: String, listed: String?)] {
        mpd.periods.map { ($0.id ?? "", $0.element[attribute: "start"] ?? "", $0.element[attribute: "listed"]) }
    }

    @Test func eachRunIsAPeriodAtItsWallClockStartAndTheAdListsWhatIsPlaced() throws {
        let timeline = try Self.filledTimeline(through: [101...104])
        let window = try Self.window(101...104, breaks: [104])
        let mpd = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
        // Content from segment 101 (600 s after the epoch), the ad where the break starts (618 s),
        // one of its two segments placed with the origin's one.
        let listed = Self.periods(mpd)
        #expect(listed.map(\.id) == ["seam-content-600000", "seam-ad-0-0"])
        #expect(listed.map(\.start) == ["PT600S", "PT618S"])
        #expect(listed[1].listed == "6.0")
        // An ad period lasts as long as its ad.
        #expect(mpd.periods[1].duration == 12)
        #expect(mpd.periods[0].duration == 18)
        #expect(mpd.isDynamic)
        #expect(mpd.baseURLs.isEmpty)
    }

    @Test func contentAfterTheBreakStartsAtTheOriginsTimeAndEveryAddressIsTheOrigins() throws {
        let timeline = try Self.filledTimeline(through: [101...104, 101...106, 103...108])
        let window = try Self.window(103...108, breaks: [104])
        let mpd = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
        let listed = Self.periods(mpd)
        #expect(listed.map(\.id) == ["seam-content-600000", "seam-ad-0-0", "seam-content-630000"])
        #expect(listed.map(\.start) == ["PT600S", "PT618S", "PT630S"])
        #expect(listed[1].listed == "12.0")
        // The first period keeps its start though segments 101 and 102 left the window.
        let before = mpd.periods[0]
        // One length throughout: written as that length, numbered from the period's start.
        let video = try #require(before.adaptationSets.first?.representations.first?.segmentTemplate)
        #expect(video.startNumber == 101)
        #expect(video.duration == 540_000)
        #expect(video.timeline == nil)
        #expect(video.media == "https://cdn.example/live/v-720/$Number$.m4s")
        #expect(video.presentationTimeOffset == 600 * 90_000)
        let after = mpd.periods[2]
        // The newest content period runs a minute past what it lists (GStreamer needs its end).
        #expect(after.duration == 78)
        let resumed = try #require(after.adaptationSets.first?.representations.last?.segmentTemplate)
        #expect(resumed.media == "https://cdn.example/live/v-360/$Number$.m4s")
        #expect(resumed.startNumber == 106)
        #expect(resumed.presentationTimeOffset == 630 * 90_000)
        #expect(resumed.duration == 540_000)
        // Audio is cut at the same instants.
        let audio = try #require(after.adaptationSets.last?.representations.first?.segmentTemplate)
        #expect(audio.startNumber == 106)
        #expect(audio.presentationTimeOffset == 630 * 48_000)
        #expect(audio.duration == 288_000)
        // The splice out marked where the ad period starts: the ads took its place, and no
        // content period carries it.
        #expect(before.eventStreams.first?.events.isEmpty == true)
        #expect(after.eventStreams.first?.events.isEmpty == true)
        // Periods start where the one before ends, and the MPD passes the validator.
        let errors = MPDValidator.check(mpd).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A break known ahead ends the newest content period where it starts, so a player reckoning
    /// segments by the clock at the live edge waits for the ad period instead of fetching the
    /// break's content from the origin: a SCTE-35 event ahead of the window, or a break announced
    /// on the channel (`upcoming`). Without one, the period runs a minute past what it lists.
    @Test func theNewestContentPeriodEndsAtABreakKnownAhead() throws {
        func newestDuration(breaks: [Int], upcoming: [Double] = []) throws -> Double? {
            var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
            let window = try Self.window(101...103, breaks: breaks)
            #expect(timeline.advance(with: window.reference) == .upToDate)
            let mpd = try DASHLiveRenderer.render(
                timeline, window: window, upcoming: upcoming, adPeriod: Self.adPeriod
            ).get()
            #expect(mpd.periods.map(\.id) == ["seam-content-600000"])
            return mpd.periods.last?.duration
        }
        // Segments 101-103 list 600-618 s; the cue at segment 106 starts at 630 s.
        #expect(try newestDuration(breaks: []) == 78)
        #expect(try newestDuration(breaks: [106]) == 30)
        #expect(try newestDuration(breaks: [], upcoming: [Self.epoch + 624]) == 24)
        // An announced break opens at the first segment from its start: on the 6 s grid.
        #expect(try newestDuration(breaks: [], upcoming: [Self.epoch + 620]) == 24)
        // The earlier of the two; a break already behind the listed end changes nothing.
        #expect(try newestDuration(breaks: [106], upcoming: [Self.epoch + 624, Self.epoch + 300]) == 24)
    }

    /// A break the ads leave part of plays the channel's DASH slate: each pass through it a
    /// period (`seam-slate-<break>-<pass>`) where the ad period ends, lasting the part of the
    /// pass the break holds, so the content after it starts where the slate ends — no gap.
    @Test func whatTheAdsLeaveOfABreakIsASlatePeriodAndTheContentFollowsWithoutAGap() throws {
        var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
        for numbers in [101...104, 101...106, 103...108] {
            while case .needsDecision(let open) = timeline.advance(
                with: try Self.window(numbers, breaks: [104]).reference)
            {
                // One 6 s ad, then 3 s slate segments for the 6 s left: one pass of 9 s cut to 6.
                timeline.resolve(
                    breakNumber: open.number,
                    layout: LiveBreakLayout.make(breakDuration: open.duration, ads: [[6]], slate: [3, 3, 3]))
            }
        }
        var asked: [(pass: Int, id: String, seconds: Double)] = []
        let mpd = try DASHLiveRenderer.render(
            timeline, window: try Self.window(103...108, breaks: [104]),
            slatePeriod: { _, pass, id, seconds in
                asked.append((pass, id, seconds))
                return XMLElement(name: "Period", attributes: [XMLAttribute(name: "duration", value: "PT9S")])
            }, adPeriod: Self.adPeriod
        ).get()
        let listed = Self.periods(mpd)
        #expect(listed.map(\.id) == ["seam-content-600000", "seam-ad-0-0", "seam-slate-0-0", "seam-content-630000"])
        #expect(listed.map(\.start) == ["PT600S", "PT618S", "PT624S", "PT630S"])
        #expect(asked.map(\.pass) == [0])
        #expect(asked.map(\.seconds) == [6])
        // The pass lasts what the break holds of it, not the slate's 9 s.
        #expect(mpd.periods[2].duration == 6)
        // Without a slate period at hand the MPD ends before the slate, as for an ad.
        let cut = try DASHLiveRenderer.render(
            timeline, window: try Self.window(103...108, breaks: [104]), slatePeriod: { _, _, _, _ in nil },
            adPeriod: Self.adPeriod
        ).get()
        #expect(Self.periods(cut).map(\.id) == ["seam-content-600000", "seam-ad-0-0"])

        // A 3 s slate fills the same 6 s in two passes, a period each.
        var looped = LiveTimeline(configuration: .init(targetDuration: 6))
        for numbers in [101...104, 101...106, 103...108] {
            while case .needsDecision(let open) = looped.advance(
                with: try Self.window(numbers, breaks: [104]).reference)
            {
                looped.resolve(
                    breakNumber: open.number,
                    layout: LiveBreakLayout.make(breakDuration: open.duration, ads: [[6]], slate: [3]))
            }
        }
        var passes: [Int] = []
        let twice = try DASHLiveRenderer.render(
            looped, window: try Self.window(103...108, breaks: [104]),
            slatePeriod: { _, pass, _, _ in
                passes.append(pass)
                return XMLElement(name: "Period", attributes: [XMLAttribute(name: "duration", value: "PT3S")])
            }, adPeriod: Self.adPeriod
        ).get()
        #expect(
            Self.periods(twice).map(\.id) == [
                "seam-content-600000", "seam-ad-0-0", "seam-slate-0-0", "seam-slate-0-1", "seam-content-630000",
            ])
        #expect(Self.periods(twice).map(\.start) == ["PT600S", "PT618S", "PT624S", "PT627S", "PT630S"])
        #expect(passes == [0, 1])
    }

    /// An origin that says where it will end before it gets there (a `mediaPresentationDuration`
    /// while it still updates), or that ends inside a break: the session's MPD goes on as live —
    /// dynamic, reloaded, with no end of its own until its timeline finishes.
    @Test func theSessionsMPDStaysLiveUntilItsOwnEnd() throws {
        let timeline = try Self.filledTimeline(through: [101...104])
        let text = Self.origin(101...104, breaks: [104]).serialized()
            .replacingOccurrences(
                of: #"minimumUpdatePeriod="PT6S""#,
                with: #"minimumUpdatePeriod="PT6S" mediaPresentationDuration="PT900S""#)
        let window = try DASHLiveWindow.make(try MPD(parsing: text), url: Self.url, now: Self.endOf(104) + 1).get()
        #expect(!window.reference.endList)
        let mpd = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
        #expect(mpd.isDynamic)
        #expect(mpd.mediaPresentationDuration == nil)
        #expect(mpd.minimumUpdatePeriod == 6)
        // Even past that end, a duration on an MPD still updated is no end.
        let late = try DASHLiveRenderer.render(
            timeline,
            window: try DASHLiveWindow.make(try MPD(parsing: text), url: Self.url, now: Self.epoch + 1000).get(),
            adPeriod: Self.adPeriod
        ).get()
        #expect(late.mediaPresentationDuration == nil)
        #expect(late.minimumUpdatePeriod == 6)
    }

    /// A replica taking the session up from its record renders the same periods: the leading
    /// run's start is in the record.
    @Test func theRecordKeepsWhereTheLeadingPeriodStarted() throws {
        let timeline = try Self.filledTimeline(through: [101...104, 101...106, 103...108, 105...110])
        #expect(timeline.leadingRunStart == Self.epoch + 600)
        let read = try JSONDecoder().decode(LiveTimeline.self, from: JSONEncoder().encode(timeline))
        #expect(read == timeline)
        let window = try Self.window(105...110, breaks: [104])
        let rendered = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
        let again = try DASHLiveRenderer.render(read.resumed(), window: window, adPeriod: Self.adPeriod).get()
        #expect(Self.periods(again).map(\.start) == Self.periods(rendered).map(\.start))
        #expect(again.serialized() == rendered.serialized())
        // A record written before the field reads as none.
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        object["leadingRunStart"] = nil
        let old = try JSONDecoder().decode(LiveTimeline.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.leadingRunStart == nil)
    }

    @Test func aTimelineOfVaryingLengthsStaysATimeline() throws {
        var template = XMLElement(
            name: "SegmentTemplate",
            attributes: [
                XMLAttribute(name: "timescale", value: "1000"), XMLAttribute(name: "startNumber", value: "7"),
                XMLAttribute(name: "presentationTimeOffset", value: "1000"),
            ])
        func timeline(_ entries: [(UInt64?, UInt64, Int)]) -> XMLElement {
            var timeline = XMLElement(name: "SegmentTimeline")
            timeline.children = entries.map { t, d, r in
                var s = XMLElement(name: "S", attributes: [XMLAttribute(name: "d", value: String(d))])
                if let t { s[attribute: "t"] = String(t) }
                if r > 0 { s[attribute: "r"] = String(r) }
                return .element(s)
            }
            return timeline
        }
        template.children = [.element(timeline([(5000, 2000, 3)]))]
        let fixed = DASHLiveRenderer.fixedLengthTemplate(template)
        #expect(fixed[attribute: "duration"] == "2000")
        #expect(fixed[attribute: "startNumber"] == "5")
        #expect(fixed.elements(named: "SegmentTimeline").isEmpty)
        for kept in [
            [(UInt64(5000), UInt64(2000), 1), (nil, 2002, 0), (nil, 2000, 0)],  // lengths vary
            [(5000, 2000, 1), (9500, 2000, 0)],  // a gap
            [(5500, 2000, 2)],  // not a whole number of segments into the period
            [(5000, 2000, 3), (nil, 1500, 0)],  // a shorter last one (the newest, it would change form)
        ] as [[(UInt64?, UInt64, Int)]] {
            template.children = [.element(timeline(kept))]
            #expect(DASHLiveRenderer.fixedLengthTemplate(template) == template)
        }
        // An ad's or slate's shorter last segment that ends its period is what a fixed-length
        // template cut by the period's end writes: 4 × 2 s + 1.5 s from the PTO (1 s) is 9.5 s.
        template.children = [.element(timeline([(1000, 2000, 3), (nil, 1500, 0)]))]
        let cut = DASHLiveRenderer.fixedLengthTemplate(template, shorterLastEndingAt: 9.5)
        #expect(cut[attribute: "duration"] == "2000")
        #expect(cut[attribute: "startNumber"] == "7")
        #expect(DASHLiveRenderer.fixedLengthTemplate(template, shorterLastEndingAt: 12) == template)
    }

    @Test func aPeriodNeverMovesAcrossReloads() throws {
        var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
        var published: [String: String] = [:]
        for last in 104...130 {
            let numbers = max(101, last - 5)...last
            let window = try Self.window(numbers, breaks: [104, 116])
            while case .needsDecision(let open) = timeline.advance(with: window.reference) {
                timeline.resolve(
                    breakNumber: open.number,
                    layout: LiveBreakLayout.make(breakDuration: open.duration, ads: [[6, 6]], slate: nil))
            }
            let mpd = try DASHLiveRenderer.render(timeline, window: window, adPeriod: Self.adPeriod).get()
            for period in Self.periods(mpd) {
                if let start = published[period.id] { #expect(start == period.start, "\(period.id) at \(last)") }
                published[period.id] = period.start
            }
        }
        #expect(
            published.keys.sorted() == [
                "seam-ad-0-0", "seam-ad-1-0", "seam-content-600000", "seam-content-630000", "seam-content-702000",
            ])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

import Foundation
import HLS
import Testing
@testable import Stitching

/// Drives a `LiveTimeline` the way a session does, without a network: the reference window
/// advances it, pending breaks get a layout from `decide`, and each rendition is rendered from
/// its own (possibly older) window.
struct LiveSessionDriver {
    var channel: LiveChannelFixture
    var timeline: LiveTimeline
    var decide: (LiveBreak) -> LiveBreakLayout
    /// Ads per break number, in layout order: (name, segment durations).
    var ads: (LiveBreak) -> [(String, [Double])] = { _ in [("ad0", [5, 5]), ("ad1", [5, 5, 5])] }
    var hasSlate = true

    init(
        channel: LiveChannelFixture, schedule: BreakSchedule? = nil, hasSlate: Bool = true,
        completesAdOnEarlyReturn: Bool = false,
        ads: @escaping (LiveBreak) -> [(String, [Double])] = { _ in [("ad0", [5, 5]), ("ad1", [5, 5, 5])] }
    ) {
        self.channel = channel
        self.hasSlate = hasSlate
        self.ads = ads
        timeline = LiveTimeline(
            configuration: .init(
                defaultBreakSeconds: 30, schedule: schedule, targetDuration: 6,
                completesAdOnEarlyReturn: completesAdOnEarlyReturn))
        let slate: [Double]? = hasSlate ? Array(repeating: 1, count: 10) : nil
        decide = { item in LiveBreakLayout.make(breakDuration: item.duration, ads: ads(item).map(\.1), slate: slate) }
    }

    /// Advances with the reference window ending at `last`; decisions come at once unless `hold` says the break is still waiting.
    mutating func advance(last: Int, hold: (LiveBreak) -> Bool = { _ in false }) {
        let window = channel.window("v0", last: last)
        while case .needsDecision(let pending) = timeline.advance(with: window) {
            if hold(pending) { return }
            timeline.resolve(breakNumber: pending.number, layout: decide(pending))
        }
    }

    func render(_ rendition: String, last: Int) -> MediaPlaylist {
        let timeline = self.timeline
        let slate = hasSlate ? LiveChannelFixture.slate(rendition) : nil
        return LiveWindowRenderer.render(
            timeline, window: channel.window(rendition, last: last), targetDuration: 6,
            media: { number in
                guard let item = timeline.breakNumbered(number) else { return nil }
                return LiveBreakMedia(ads: ads(item).map { LiveChannelFixture.ad($0.0, rendition, $0.1) }, slate: slate)
            })
    }
}

@Suite struct LiveTimelineTests {
    /// Every live session keeps a few dozen entries for its whole life (BENCHMARKS.md, issue 26:
    /// the timeline's entries are the largest part of a live session's heap).
    @Test func anEntryTakesThreeWords() {
        #expect(MemoryLayout<LiveEntry>.stride <= 24)
    }

    /// A timeline and its breaks are held by every live session: their fields pack without holes.
    @Test func aTimelineAndABreakPackTheirFields() {
        #expect(MemoryLayout<LiveTimeline>.stride <= 136)
        #expect(MemoryLayout<LiveBreak>.stride <= 128)
    }

    @Test(
        "An entry gives back what it was made with: sources, the discontinuity flag (an empty one too), a content segment's date; a slot keeps no date"
    )
    func anEntryKeepsItsFields() {
        let rows: [(LiveEntry.Source, Int, Double, Bool, Double?)] = [
            (.content(17), 17, 6.006, false, nil),
            (.content(0), 0, 4, true, 1_700_000_000.5),
            (.content(-3), -3, 1, false, -86_400.25),
            (.content(Int.max), Int.max, 2, true, nil),
            (.breakSlot(breakNumber: 0, slot: 0), 12, 0, true, nil),
            (.breakSlot(breakNumber: 3, slot: 24_999), 40, 5.5, false, 1_800_000_000),
            (.breakSlot(breakNumber: Int32.max, slot: LiveEntry.maxSlot), -1, 0, false, nil),
            (.breakSlot(breakNumber: Int32.max, slot: 0), Int.min, 7, true, nil),
        ]
        for (source, anchor, duration, discontinuity, date) in rows {
            var entry = LiveEntry(
                source: source, anchor: anchor, duration: duration, discontinuity: discontinuity,
                programDateTime: date)
            #expect(entry.source == source)
            #expect(entry.anchor == anchor)
            #expect(entry.duration == duration && entry.duration.sign == .plus)
            #expect(entry.discontinuity == discontinuity)
            if case .content = source {
                #expect(entry.contentProgramDateTime == date)
            } else {
                #expect(entry.contentProgramDateTime == nil)
            }
            entry.discontinuity.toggle()
            #expect(entry.discontinuity == !discontinuity && entry.duration == duration)
            #expect(entry.source == source)
        }
        // Infinite or NaN dates are no slot's numbers.
        for date in [Double.infinity, -Double.infinity, -Double.nan, .nan] {
            let entry = LiveEntry(
                source: .content(5), anchor: 5, duration: 2, discontinuity: false, programDateTime: date)
            #expect(entry.source == .content(5))
            #expect(date.isNaN ? entry.contentProgramDateTime == nil : entry.contentProgramDateTime == date)
        }
    }

    @Test(
        "A break slot's date is its break's plus where the slot starts in the layout, written to the record as before")
    func aSlotsDateIsItsBreaks() throws {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)], windowSize: 10))
        for last in 10...16 { driver.advance(last: last) }
        let timeline = driver.timeline
        let item = try #require(timeline.breaks.last)
        let breakStart = try #require(item.programDateTime)
        let layout = try #require(item.layout)
        var slotsSeen = 0
        for entry in timeline.entries {
            guard case .breakSlot(let number, let slot) = entry.source else { continue }
            #expect(Int(number) == item.number)
            let placed = layout.slots[Int(slot)]
            #expect(timeline.programDateTime(of: entry) == breakStart + (placed.end - placed.duration))
            slotsSeen += 1
        }
        #expect(slotsSeen > 1)
        let object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        let columns = try #require(object["entries"] as? [String: Any])
        let dates = try #require(columns["programDateTime"] as? [Any])
        #expect(dates.count == timeline.entries.count)
        for (index, entry) in timeline.entries.enumerated() {
            #expect((dates[index] as? Double) == timeline.programDateTime(of: entry))
        }
        #expect(try JSONDecoder().decode(LiveTimeline.self, from: JSONEncoder().encode(timeline)) == timeline)
    }

    @Test(
        "A pod of many tiny ads stops at the layout's slot cap: the rest are left out, and no slot number outgrows an entry"
    )
    func aPodOfManyTinyAdsIsCappedAtTheLayoutsSlots() {
        let ads = Array(repeating: Array(repeating: 0.001, count: AdCreative.maxSegments), count: 200)
        let layout = LiveBreakLayout.make(breakDuration: 60, ads: ads, slate: [1])
        #expect(layout.slots.count <= LiveBreakLayout.maxSlots + 60)
        #expect(layout.playedAds == Array(0..<12))
        #expect(layout.trimmedAds == Array(12..<200))
        #expect(layout.slots.count - 1 <= Int(LiveEntry.maxSlot))
    }

    @Test("A record whose break number no timeline makes lists none of that break's slots, and nothing traps")
    func aDamagedBreakNumberListsNoSlots() throws {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)], windowSize: 10))
        for last in 10...13 { driver.advance(last: last) }
        var object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(driver.timeline)) as? [String: Any])
        var breaks = try #require(object["breaks"] as? [[String: Any]])
        #expect(breaks.last?["phase"] != nil)
        breaks[breaks.count - 1]["number"] = -7
        object["breaks"] = breaks
        driver.timeline = try JSONDecoder().decode(
            LiveTimeline.self, from: JSONSerialization.data(withJSONObject: object))
        for last in 14...20 { driver.advance(last: last) }
        #expect(
            !driver.timeline.entries.contains {
                if case .breakSlot(let number, _) = $0.source { number < 0 } else { false }
            })
        _ = driver.render("v0", last: 20)
    }

    @Test func aCuedBreakIsReplacedByAdsAndSlateWithDiscontinuities() throws {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)], windowSize: 10))
        for last in 10...20 { driver.advance(last: last) }
        let window = driver.render("v0", last: 20)
        let uris = window.segments.map(\.uri)
        // 30 s break: ad0 (10 s) + ad1 (15 s) + 5 s of slate, then content from segment 18.
        let breakURIs = uris.filter { $0.contains("ads.example") }
        #expect(breakURIs.count == 2 + 3 + 5)
        #expect(uris.last == "https://origin.example/v0/seg_20.ts")
        #expect(!uris.contains("https://origin.example/v0/seg_13.ts"))
        #expect(!uris.contains("https://origin.example/v0/seg_17.ts"))
        let returnIndex = try #require(uris.firstIndex(of: "https://origin.example/v0/seg_18.ts"))
        #expect(window.segments[returnIndex].discontinuity)
        // Ad segments carry a program date-time continuing the content's clock.
        let firstAd = try #require(window.segments.first { $0.uri.contains("ad0/v0/0.ts") })
        if let time = firstAd.programDateTime?.secondsSince1970 {
            #expect(abs(time - (1_800_000_000 + 13 * 6)) < 0.01)
        }
        let item = try #require(driver.timeline.breakNumbered(0))
        #expect(item.phase == .ended)
        #expect(!item.endedEarly)
    }

    @Test func aReplacedBreakKeepsPaceWithTheContentLiveEdge() {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)]))
        for last in 10...14 { driver.advance(last: last) }
        // Two content segments (12 s) of the break are out: the ads that start by then are
        // listed, so the stitched edge is at or just ahead of the origin's, never behind.
        let window = driver.render("v0", last: 14)
        let adSeconds = window.segments.filter { $0.uri.contains("ads.example") }.reduce(0) { $0 + $1.duration }
        #expect(adSeconds == 15)
    }

    @Test func anEarlyCueInEndsTheBreakAtTheNextSegment() throws {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 60, returnAt: 16)], windowSize: 10))
        for last in 10...19 { driver.advance(last: last) }
        let window = driver.render("v0", last: 19)
        let uris = window.segments.map(\.uri)
        let returnIndex = try #require(uris.firstIndex(of: "https://origin.example/v0/seg_16.ts"))
        #expect(window.segments[returnIndex].discontinuity)
        // 18 s of content went by: the ads starting before 18 s had been listed (20 s); the rest of the pod is dropped.
        let adSeconds = window.segments[..<returnIndex].filter { $0.uri.contains("ads.example") }.reduce(0) {
            $0 + $1.duration
        }
        #expect(adSeconds == 20)
        #expect(try #require(driver.timeline.breakNumbered(0)).endedEarly)
    }

    @Test(
        "live.earlyReturn complete: the ad in play at an early return finishes, then content resumes, as in every rendition"
    )
    func anEarlyCueInLetsTheAdInPlayFinish() throws {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 60, returnAt: 16)], windowSize: 10),
            completesAdOnEarlyReturn: true)
        for last in 10...19 { driver.advance(last: last) }
        for rendition in ["v0", "v1"] {
            let window = driver.render(rendition, last: 19)
            let uris = window.segments.map(\.uri)
            let returnIndex = try #require(uris.firstIndex(of: "https://origin.example/\(rendition)/seg_16.ts"))
            #expect(window.segments[returnIndex].discontinuity)
            // 20 s had been listed when the return came, inside ad1 (10–25 s): ad1's last 5 s follow, no slate.
            let ads = window.segments[..<returnIndex].filter { $0.uri.contains("ads.example") }
            #expect(ads.reduce(0) { $0 + $1.duration } == 25, "\(rendition)")
            #expect(ads.last?.uri.contains("ad1/\(rendition)/2.ts") == true, "\(ads.map(\.uri))")
        }
        let item = try #require(driver.timeline.breakNumbered(0))
        #expect(item.endedEarly)
        // The interstitials rendering lets the same ad finish: its playout limit reaches ad1's end.
        let breaks = InterstitialRenderer.liveBreaks(of: driver.timeline) { _ in true }
        #expect(breaks.first?.playoutLimit(policy: InterstitialPolicy()) == 25)
        // Cut (the default): the limit is the content the break covered.
        var cut = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 60, returnAt: 16)], windowSize: 10))
        for last in 10...19 { cut.advance(last: last) }
        #expect(
            InterstitialRenderer.liveBreaks(of: cut.timeline) { _ in true }.first?.playoutLimit(
                policy: InterstitialPolicy()) == 18)
    }

    @Test func aViewerJoiningMidBreakGetsTheRestOfIt() throws {
        // The session starts while the break has 12 s of 30 s behind it (CUE-OUT-CONT on the first segment).
        var channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])
        channel.windowSize = 4
        var driver = LiveSessionDriver(channel: channel)
        driver.advance(last: 18)  // window 15...18: 15, 16, 17 are in the break
        let item = try #require(driver.timeline.breakNumbered(0))
        #expect(item.elapsedAtJoin == 12)
        #expect(item.duration == 18)
        #expect(item.startSequence == 15)
        let window = driver.render("v0", last: 18)
        // 18 s to fill: ad0 (10 s) fits, ad1 (15 s) does not, 8 s of slate.
        let uris = window.segments.map(\.uri)
        #expect(uris.filter { $0.contains("/ad0/") }.count == 2)
        #expect(uris.filter { $0.contains("/ad1/") }.isEmpty)
        #expect(uris.filter { $0.contains("/slate/") }.count == 8)
        #expect(uris.last == "https://origin.example/v0/seg_18.ts")
    }

    @Test func anUnfilledBreakPlaysContentWithItsCues() {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 24, returnAt: 17)]), hasSlate: false,
            ads: { _ in [] })
        for last in 10...18 { driver.advance(last: last) }
        let window = driver.render("v0", last: 18)
        #expect(window.segments.allSatisfy { $0.uri.contains("origin.example") })
        #expect(window.segments.contains { $0.cues.contains { $0.kind == .cueOut } })
        #expect(driver.timeline.breakNumbered(0)?.phase == .ended)
    }

    @Test func noSegmentAfterAPendingBreakIsListedUntilItsDecision() {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)]))
        driver.advance(last: 12)
        driver.advance(last: 14, hold: { _ in true })
        #expect(driver.render("v0", last: 14).segments.last?.uri == "https://origin.example/v0/seg_12.ts")
        driver.advance(last: 14)
        #expect(driver.render("v0", last: 14).segments.contains { $0.uri.contains("ads.example") })
    }

    @Test func scheduledBreaksWithoutCues() throws {
        var channel = LiveChannelFixture()
        channel.cues = false
        // Every 60 s of program time, 24 s long, 12 s into each minute.
        let epoch = channel.epoch
        var driver = LiveSessionDriver(
            channel: channel,
            schedule: BreakSchedule(
                every: 60,
                offset: (12 - epoch.truncatingRemainder(dividingBy: 60) + 60).truncatingRemainder(dividingBy: 60),
                duration: 24))
        var starts: Set<Int> = []
        for last in 5...30 {
            driver.advance(last: last)
            starts.formUnion(driver.timeline.breaks.map(\.startSequence))
        }
        #expect(starts.sorted() == [2, 12, 22])
        #expect(driver.timeline.breaks.allSatisfy { $0.duration == 24 })
    }

    @Test func renditionsAgreeOnNumbersWhenFetchedAtDifferentMoments() {
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)]))
        for last in 10...22 {
            driver.advance(last: last)
            let video = driver.render("v0", last: last)
            let audio = driver.render("a0", last: last - 1)
            let other = driver.render("v1", last: last - 2)
            #expect(RenditionSetValidator.check([("v0", video), ("a0", audio), ("v1", other)]).isEmpty)
        }
    }

    @Test func dateRangesComeFromTheReferenceForEveryRendition() throws {
        var channel = LiveChannelFixture()
        channel.cues = false
        var driver = LiveSessionDriver(channel: channel)
        // A reference window with a date range on segment 8 that the audio window lacks.
        var reference = channel.window("v0", last: 10)
        reference.segments[3].dateRanges = [
            DateRange(id: "chapter-1", startDate: DateTime(secondsSince1970: channel.epoch + 48))
        ]
        _ = driver.timeline.advance(with: reference)
        let audio = driver.render("a0", last: 10)
        #expect(audio.segments[3].dateRanges.map(\.id) == ["chapter-1"])
    }
}

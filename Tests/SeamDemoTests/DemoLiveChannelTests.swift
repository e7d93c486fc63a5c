import Foundation
import HLS
import NIOCore
import SCTE35
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoLiveChannel: the demo origin's looping live channel with SCTE-35 cues")
struct DemoLiveChannelTests {
    /// 2023-11-14T22:13:20Z.
    static let epoch: Double = 1_700_000_000
    static let channel = DemoLiveChannel(epoch: epoch)
    static let renditions = ["360p", "540p", "720p"]

    /// The moment the newest complete segment is `last` (a little after it ended).
    static func now(newest last: Int) -> Double { epoch + Double(6 * (last + 1)) + 0.5 }

    static func media(_ dialect: DemoLiveChannelDialect, newest last: Int, rendition: String = "360p") throws -> String
    {
        try #require(try channel.mediaPlaylist(rendition: rendition, dialect: dialect, now: now(newest: last)))
    }

    static func parse(_ text: String) throws -> MediaPlaylist {
        guard case .media(let playlist) = try Playlist(parsing: text) else {
            Issue.record("not a media playlist:\n\(text)")
            throw CancellationError()
        }
        return playlist
    }

    // MARK: Timeline

    @Test func windowNumbersURIsAndDates() throws {
        // Newest 19: window 14...19, sample segments 4...9, one discontinuity (k = 10) before it.
        let playlist = try Self.parse(try Self.media(.none, newest: 19))
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 14)
        #expect(playlist.discontinuitySequence == 1)
        #expect(playlist.hasDiscontinuitySequenceTag)
        #expect(playlist.playlistType == nil)
        #expect(!playlist.endList)
        #expect(playlist.segments.map(\.uri) == (4...9).map { "/media/content/360p/seg_00\($0).ts" })
        #expect(playlist.segments.allSatisfy { $0.duration == 6 && !$0.discontinuity })
        #expect(playlist.segments.first?.programDateTime?.text == "2023-11-14T22:14:44.000Z")
        #expect(
            playlist.segments.map { $0.programDateTime?.secondsSince1970 }
                == (14...19).map { Self.epoch + Double(6 * $0) })

        // Newest 23: window 18...23 crosses the loop point at k = 20.
        let crossing = try Self.parse(try Self.media(.none, newest: 23))
        #expect(crossing.mediaSequence == 18)
        #expect(crossing.discontinuitySequence == 1)
        #expect(crossing.segments.map(\.discontinuity) == [false, false, true, false, false, false])
        #expect(
            crossing.segments.map(\.uri).map { String($0.suffix(10)) }
                == ["seg_008.ts", "seg_009.ts", "seg_000.ts", "seg_001.ts", "seg_002.ts", "seg_003.ts"])
        // Once k = 20 has left the window it is counted.
        #expect(try Self.parse(try Self.media(.none, newest: 26)).discontinuitySequence == 2)
    }

    @Test func discontinuitySequenceCountsEveryFlaggedSegmentBeforeTheWindow() {
        for first in 0..<100 {
            let flagged = (0..<first).filter(DemoLiveChannel.isDiscontinuity).count
            #expect(DemoLiveChannel.discontinuitySequence(firstSegment: first) == flagged, "first \(first)")
        }
    }

    @Test func windowIsFullFromTheFirstRequestWithTheDefaultEpoch() throws {
        let start = Date().timeIntervalSince1970
        let origin = try DemoOrigin(mediaRoot: DemoTestSupport.mediaRoot)
        let epoch = origin.live.channel.epoch
        #expect(epoch <= start - 119 && epoch >= start - 122)
        #expect(origin.live.channel.window(at: start)?.count == DemoLiveChannel.windowSegments)
        // Before the first segment completed there is nothing to list, and no crash.
        #expect(Self.channel.window(at: Self.epoch + 5) == nil)
        #expect(Self.channel.window(at: Self.epoch + 6)?.count == 1)
        let early = try Self.parse(
            try #require(try Self.channel.mediaPlaylist(rendition: "360p", dialect: .none, now: Self.epoch + 1)))
        #expect(early.segments.isEmpty)
    }

    @Test func breaksStartEverySeventhSegmentAtThreeAndLastFour() {
        let positions = (0..<15).map(DemoLiveChannel.breakPosition(of:))
        #expect(
            positions == [
                .content, .content, .content,
                .start(eventID: 3), .inside(eventID: 3, elapsed: 6), .inside(eventID: 3, elapsed: 12),
                .inside(eventID: 3, elapsed: 18), .end(eventID: 3, startSegment: 3),
                .content, .content,
                .start(eventID: 10), .inside(eventID: 10, elapsed: 6), .inside(eventID: 10, elapsed: 12),
                .inside(eventID: 10, elapsed: 18), .end(eventID: 10, startSegment: 10),
            ])
    }

    // MARK: Cues, read back with Seam's own readers

    /// Window 16...21: segment 17 starts a break, 18–20 are inside it, 21 returns.
    @Test("every dialect's cues read back as out, continue and in", arguments: CueDialect.allCases)
    func cuesReadBack(_ dialect: CueDialect) throws {
        let playlist = try Self.parse(try Self.media(.cues(dialect), newest: 21))
        #expect(playlist.mediaSequence == 16)
        let signals = playlist.segments.map { CueDialect.signals(in: $0) }
        #expect(signals[0].isEmpty)

        let out = signals[1]
        #expect(out.count == 1)
        #expect(out.first?.kind == .out)
        #expect(out.first?.dialect == dialect)
        #expect(out.first?.plannedDuration == 24)
        #expect(out.allSatisfy { $0.payloadError == nil })

        let hasContinuations = dialect == .cueOutIn || dialect == .scte35
        for (index, elapsed) in [(2, 6.0), (3, 12.0), (4, 18.0)] {
            if hasContinuations {
                #expect(signals[index].map(\.kind) == [.continue], "segment \(16 + index)")
                #expect(signals[index].first?.elapsed == elapsed)
                #expect(signals[index].first?.plannedDuration == 24)
            } else {
                #expect(signals[index].isEmpty, "segment \(16 + index)")
            }
        }

        let back = signals[5]
        #expect(back.map(\.kind) == (dialect == .dateRange ? [.out, .in] : [.in]))
        #expect(back.allSatisfy { $0.payloadError == nil })

        // The same break id from start to return, in the dialect's own terms.
        let expectedID: String? =
            switch dialect {
            case .cueOutIn: nil
            case .dateRange: "break-17"
            default: "17"
            }
        #expect(Set((out + back).map(\.id)) == [expectedID])
        // Every carried section is the one the brief asks for.
        for signal in out + back + signals[2...4].joined() {
            guard let section = signal.section else { continue }
            #expect(section.eventID == 17)
            #expect(section.warnings.isEmpty)
            if let insert = section.spliceInsert {
                #expect(insert.programSpliceFlag)
                if insert.outOfNetworkIndicator {
                    #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 24 * 90_000))
                }
            }
        }
        let carriesSections: Set<CueDialect> = [.oatcls, .scte35, .splicepoint, .dateRange]
        #expect((out.first?.section != nil) == carriesSections.contains(dialect))
        if dialect == .splicepoint {
            #expect(
                out.first?.section?.segmentationDescriptors.map(\.segmentationType) == [
                    .providerPlacementOpportunityStart
                ])
            #expect(
                back.first?.section?.segmentationDescriptors.map(\.segmentationType) == [
                    .providerPlacementOpportunityEnd
                ])
        }
        if dialect == .adobe {
            #expect(out.first?.time == Self.epoch + 6 * 17)
            #expect(back.first?.time == Self.epoch + 6 * 21)
        }
    }

    @Test func noneCarriesNoCues() throws {
        for last in 5..<30 {
            let playlist = try Self.parse(try Self.media(.none, newest: last))
            #expect(playlist.segments.allSatisfy { $0.cues.isEmpty && $0.dateRanges.isEmpty })
        }
    }

    @Test func cueOutInExampleWindow() throws {
        #expect(
            try Self.media(.cues(.cueOutIn), newest: 21) == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:16
                #EXT-X-DISCONTINUITY-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:14:56.000Z
                #EXTINF:6.000,
                /media/content/360p/seg_006.ts
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:15:02.000Z
                #EXT-X-CUE-OUT:24
                #EXTINF:6.000,
                /media/content/360p/seg_007.ts
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:15:08.000Z
                #EXT-X-CUE-OUT-CONT:ElapsedTime=6,Duration=24
                #EXTINF:6.000,
                /media/content/360p/seg_008.ts
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:15:14.000Z
                #EXT-X-CUE-OUT-CONT:ElapsedTime=12,Duration=24
                #EXTINF:6.000,
                /media/content/360p/seg_009.ts
                #EXT-X-DISCONTINUITY
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:15:20.000Z
                #EXT-X-CUE-OUT-CONT:ElapsedTime=18,Duration=24
                #EXTINF:6.000,
                /media/content/360p/seg_000.ts
                #EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:15:26.000Z
                #EXT-X-CUE-IN
                #EXTINF:6.000,
                /media/content/360p/seg_001.ts

                """)
    }

    @Test func dateRangeEndRepeatsTheStartAndAddsDurationAndIn() throws {
        let playlist = try Self.parse(try Self.media(.cues(.dateRange), newest: 21))
        let start = try #require(playlist.segments[1].dateRanges.first)
        let end = try #require(playlist.segments[5].dateRanges.first)
        #expect(start.id == "break-17" && end.id == "break-17")
        #expect(start.startDate?.text == "2023-11-14T22:15:02.000Z")
        #expect(start.plannedDuration == 24 && start.duration == nil && start.scte35In == nil)
        for item in start.attributes.items {
            #expect(end.attributes[item.name] == item.value, "\(item.name)")
        }
        #expect(end.duration == 24)
        let section = try SpliceInfoSection(hex: try #require(end.scte35In))
        #expect(section.isAdEnd && section.eventID == 17)
        #expect(try #require(start.scte35Out).hasPrefix("0xFC30"))
    }

    // MARK: Validity across reloads and renditions

    @Test("every dialect validates and reloads cleanly over 40 windows", arguments: DemoLiveChannelDialect.all)
    func validatesAcrossReloads(_ dialect: DemoLiveChannelDialect) throws {
        var reloads = Dictionary(uniqueKeysWithValues: Self.renditions.map { ($0, LiveReloadValidator(source: $0)) })
        for last in 5..<45 {
            let now = Self.now(newest: last)
            var texts: [String: String] = [:]
            for rendition in Self.renditions {
                let text = try #require(
                    try Self.channel.mediaPlaylist(rendition: rendition, dialect: dialect, now: now))
                texts[rendition] = text
                let report = PlaylistValidator.validate(text, source: "\(dialect.word) \(rendition) @\(last)")
                #expect(report.errors.isEmpty, "\(report.errors)")
                reloads[rendition]?.observe(try Self.parse(text), at: now - Self.epoch)
            }
            // Same numbers, dates and cues everywhere: only the folder in the URIs differs.
            let reference = try #require(texts["360p"])
            for rendition in Self.renditions {
                #expect(texts[rendition]?.replacingOccurrences(of: "/\(rendition)/", with: "/360p/") == reference)
            }
        }
        for (rendition, validator) in reloads {
            #expect(validator.reloads == 40)
            #expect(validator.diagnostics.isEmpty, "\(rendition): \(validator.diagnostics)")
        }
    }

    @Test func multivariantAdvertisesTheSampleVariants() throws {
        let sampleText = try String(contentsOfFile: DemoTestSupport.mediaRoot + "/content/master.m3u8", encoding: .utf8)
        let sample = try MultivariantPlaylist(parsing: sampleText)
        let rendered = try MultivariantPlaylist(parsing: Self.channel.multivariantPlaylist())
        #expect(rendered.variants.map(\.attributes) == sample.variants.map(\.attributes))
        #expect(rendered.variants.map(\.uri) == Self.renditions.map { "\($0)/index.m3u8" })
        #expect(PlaylistValidator.validate(Self.channel.multivariantPlaylist()).errors.isEmpty)
    }

    @Test func dialectWords() {
        #expect(
            DemoLiveChannelDialect.all.map(\.word) == [
                "cueOutIn", "oatcls", "scte35", "splicepoint", "adobe", "dateRange", "none",
            ])
        #expect(DemoLiveChannelDialect(word: "scte35") == .cues(.scte35))
        #expect(DemoLiveChannelDialect(word: "SCTE35") == nil)
        #expect(DemoLiveChannelDialect(word: "") == nil)
    }

    // MARK: Over HTTP

    @Test func servesTheChannelOverHTTP() async throws {
        var configuration = DemoTestSupport.configuration()
        configuration.liveEpoch = Date().timeIntervalSince1970 - 300
        try await DemoServers.withRunning(configuration) { servers in
            #expect(servers.liveURL(dialect: "scte35") == servers.origin.baseURL + "/live/scte35/master.m3u8")
            #expect(servers.liveChannel.epoch == configuration.liveEpoch)

            let master = try await DemoTestSupport.request(servers.liveURL(dialect: "scte35"))
            #expect(master.status == 200)
            #expect(master.header("content-type") == "application/vnd.apple.mpegurl")
            #expect(master.header("cache-control") == "max-age=1")
            #expect(master.header("access-control-allow-origin") == "*")
            let variants = try MultivariantPlaylist(parsing: master.text).variants
            let first = try #require(variants.first?.uri)

            let mediaURL = servers.origin.baseURL + "/live/scte35/" + first
            // The window moves with the wall clock: what it may be is read from the clock on both
            // sides of the request (a busy machine took long enough for a third window, seen).
            let before = Date().timeIntervalSince1970
            let media = try await DemoTestSupport.request(mediaURL)
            let after = Date().timeIntervalSince1970
            #expect(media.status == 200)
            #expect(media.header("content-type") == "application/vnd.apple.mpegurl")
            #expect(media.header("cache-control") == "max-age=1")
            #expect(media.header("access-control-allow-origin") == "*")
            let playlist = try Self.parse(media.text)
            #expect(playlist.segments.count == 6)
            // 300 s after the epoch the newest complete segment is 49: the window starts at 44.
            #expect(servers.liveChannel.window(at: servers.liveChannel.epoch + 300)?.lowerBound == 44)
            let earliest = try #require(servers.liveChannel.window(at: before)?.lowerBound)
            let latest = try #require(servers.liveChannel.window(at: after)?.lowerBound)
            #expect(
                (earliest...latest).contains(playlist.mediaSequence),
                "window \(playlist.mediaSequence), between \(earliest) and \(latest)")
            #expect(PlaylistValidator.validate(media.text).errors.isEmpty)

            let segmentPath = try #require(playlist.segments.last?.uri)
            #expect(segmentPath.hasPrefix("/media/content/360p/seg_"))
            let segment = try await DemoTestSupport.request(servers.origin.baseURL + segmentPath)
            #expect(segment.status == 200)
            #expect(segment.header("content-type") == "video/mp2t")
            #expect(segment.body.readableBytes > 188)
            #expect(segment.body.getInteger(at: segment.body.readerIndex, as: UInt8.self) == 0x47)

            let head = try await DemoTestSupport.request(mediaURL, method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.readableBytes == 0)
            #expect(Int(head.header("content-length") ?? "") ?? 0 > 0)

            for path in ["/live/klingon/master.m3u8", "/live/klingon/360p/index.m3u8", "/live/none/1080p/index.m3u8"] {
                let missing = try await DemoTestSupport.request(servers.origin.baseURL + path)
                #expect(missing.status == 404, "\(path)")
                #expect(missing.header("content-type") == "application/json; charset=utf-8")
                #expect(missing.text.contains("\"NOT_FOUND\""))
                #expect(missing.header("access-control-allow-origin") == "*")
            }
        }
    }
}

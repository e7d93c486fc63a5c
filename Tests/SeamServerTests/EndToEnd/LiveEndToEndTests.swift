import Foundation
import HLS
import Testing
import SeamTesting
import Stitching
@testable import SeamServer

/// Live ad replacement as a viewer gets it: the demo origin's live channel (the 60 s sample title
/// looped as a 6-segment sliding window of 6 s segments, a 24 s break every 42 s) through Seam,
/// configured as `seam demo` configures it (the 20 s mid-roll ad3 plus 4 s of slate fill each
/// break), checked by `seam validate` in every cue dialect and played by Chromium and ffmpeg.
///
/// The three tests are not serialized: they wait on the clock (60–100 s of live stream each), so
/// they run side by side, each on its own stack, and the seven validations run concurrently.
@Suite(.heavyLong) struct LiveEndToEndTests {
    /// Every cue dialect the demo origin emits; `none` has no cues and gets a schedule instead.
    static let dialects = ["cueOutIn", "oatcls", "scte35", "splicepoint", "adobe", "dateRange", "none"]
    /// The channel's target duration: no stall may be longer.
    static let targetDuration = 6.0
    /// The longest stall allowed: a player that reaches the live edge waits for the origin's next
    /// segment, up to one target duration, plus the round trip of the reload that brings it
    /// (seen: 6.045 s on a loaded 2-core machine). Anything longer is a stream problem.
    static let maxStall = targetDuration + 0.5

    /// Rules about media and discontinuity sequence numbers (over reloads) and about renditions
    /// agreeing with each other.
    static let sequenceAndRenditionRules: Set<String> = [
        PlaylistRule.mediaSequenceWentBackwards.rawValue,
        PlaylistRule.segmentChangedUnderSequenceNumber.rawValue,
        PlaylistRule.discontinuitySequenceWrong.rawValue,
        PlaylistRule.mediaSequenceAfterSegments.rawValue,
        PlaylistRule.discontinuitySequenceAfterSegments.rawValue,
        PlaylistRule.discontinuitySequenceWithoutMediaSequence.rawValue,
        PlaylistRule.negativeSequence.rawValue,
        PlaylistRule.renditionTargetDurationMismatch.rawValue,
        PlaylistRule.renditionDiscontinuityMismatch.rawValue,
        PlaylistRule.renditionFetchFailed.rawValue,
    ]

    /// Seam with `seam demo`'s live settings: slate after the ads, and a schedule for the
    /// channel without cues (a 24 s break every 42 s, like the cued channel's).
    static func withLiveStack(_ body: @escaping @Sendable (SeamStack) async throws -> Void) async throws {
        try await SeamStack.run(
            configure: { configuration, demo in
                configuration.ads.trackingMode = "server"
                configuration.live.slateURL = demo.origin.baseURL + "/media/slate/master.m3u8"
                let cueless = demo.liveURL(dialect: "none").replacingOccurrences(of: "/master.m3u8", with: "/")
                configuration.live.schedules = [cueless + " every=42 offset=18 duration=24"]
            }, body)
    }

    struct Avail: CustomStringConvertible {
        var id: String
        var ads: [String]
        var skipReason: String?
        var description: String { "break \(id): ads \(ads)\(skipReason.map { ", skipped: \($0)" } ?? "")" }
    }

    /// The breaks the session's tracking JSON lists.
    static func avails(_ stack: SeamStack, session: [String: Any]) async throws -> [Avail] {
        let tracking = try await stack.request(try #require(session["trackingUrl"] as? String))
        #expect(tracking.status == 200, "\(tracking.body)")
        let avails = tracking.json["avails"] as? [[String: Any]] ?? []
        return avails.map { avail in
            Avail(
                id: avail["availId"] as? String ?? "?",
                ads: (avail["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } ?? [],
                skipReason: avail["skipReason"] as? String)
        }
    }

    /// Ad server beacons for `path`, waiting a little for those still being sent.
    static func beaconCount(_ stack: SeamStack, path: String, atLeast wanted: Int) async throws -> Int {
        var count = 0
        for _ in 0..<50 {
            count = try await stack.beacons().filter { $0 == path }.count
            if count >= wanted { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        return count
    }

    // MARK: seam validate, every dialect

    /// `seam validate --duration 60` on a live session of each dialect: no media-sequence,
    /// discontinuity-sequence or cross-rendition error (nor any other error) while breaks are
    /// replaced, and the session's tracking shows it did replace one with ad3.
    @Test(.timeLimit(HeavyTier.timeLimit)) func seamValidateFollowsLiveSessionsOfEveryDialectWithoutErrors()
        async throws
    {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record(
                "the seam executable is not built next to the tests (swift build --build-tests builds it; or set SEAM_BINARY)"
            )
            return
        }
        try await Self.withLiveStack { stack in
            struct Outcome: Sendable {
                var dialect: String
                var manifest: String
                var run: PlayerTools.Run
                var seconds: Double
            }
            let started = Date()
            var sessions: [String: [String: Any]] = [:]
            for (index, dialect) in Self.dialects.enumerated() {
                // Every other one with ad-ID decoration: its ranges must keep their values reload after reload.
                sessions[dialect] = try await stack.createSession(
                    ["adIdDecoration": index % 2 == 0], url: stack.demo.liveURL(dialect: dialect))
            }
            let manifests = try Self.dialects.map { ($0, try #require(sessions[$0]?["manifestUrl"] as? String)) }
            // Each validation mostly waits for the next reload: all seven at once.
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for (dialect, manifest) in manifests {
                    group.addTask {
                        let start = Date()
                        let run = try await PlayerTools.runAsync(
                            seam, ["validate", manifest, "--duration", "60", "--json"], timeout: 240)
                        return Outcome(
                            dialect: dialect, manifest: manifest, run: run, seconds: Date().timeIntervalSince(start))
                    }
                }
                var all: [Outcome] = []
                for try await outcome in group { all.append(outcome) }
                return all.sorted { $0.dialect < $1.dialect }
            }
            #expect(outcomes.count == Self.dialects.count)
            for outcome in outcomes {
                let json = outcome.run.json
                let findings = json["findings"] as? [[String: Any]] ?? []
                let errors = findings.filter { $0["severity"] as? String == "error" }
                let sequenceOrRendition = errors.filter {
                    Self.sequenceAndRenditionRules.contains($0["rule"] as? String ?? "")
                }
                let context =
                    "\(outcome.dialect) \(outcome.manifest): exit \(outcome.run.status)\n\(outcome.run.output.prefix(4000))"
                #expect(
                    sequenceOrRendition.isEmpty, "media/discontinuity sequence or cross-rendition errors: \(context)")
                #expect(errors.isEmpty, "\(context)")
                #expect(outcome.run.status == 0, "\(context)")
                #expect(json["valid"] as? Bool == true, "\(context)")
                // The multivariant playlist and its three renditions, followed for the whole minute.
                #expect((json["playlists"] as? [String])?.count == 4, "\(context)")
                #expect((json["reloads"] as? Int ?? 0) >= 10, "\(context)")

                // 60 s of a channel with a break every 42 s: the validator saw at least one
                // break start after the session began, and Seam filled it with ad3.
                let avails = try await Self.avails(stack, session: sessions[outcome.dialect] ?? [:])
                #expect(avails.contains { $0.ads == ["ad3"] && $0.skipReason == nil }, "\(outcome.dialect): \(avails)")
                print(
                    "live e2e: seam validate \(outcome.dialect): exit \(outcome.run.status), \(json["reloads"] ?? "?") reloads, "
                        + "\(errors.count) errors, \(findings.count) findings, \(String(format: "%.0f", outcome.seconds)) s; \(avails)"
                )
            }
            print("live e2e: 7 validations in \(String(format: "%.0f", Date().timeIntervalSince(started))) s")
        }
    }

    // MARK: Chromium

    /// Chromium's native HLS player watches a live session for 95 s through at least two
    /// replaced breaks: no error, no stall longer than the target duration, and ad segments of
    /// two different breaks fetched through Seam, and ad3's impression fired once for each break
    /// the player entered at ad3's first segment.
    @Test(.timeLimit(HeavyTier.timeLimit)) func chromiumPlaysALiveSessionAcrossTwoBreaks() async throws {
        guard PlayerTools.require("chromium", for: "Chromium live playback") else { return }
        try await Self.withLiveStack { stack in
            // With ad-ID decoration: its date ranges ride along, and play as the plain playlists do.
            let session = try await stack.createSession(
                ["trackingMode": "server", "adIdDecoration": true], url: stack.demo.liveURL(dialect: "cueOutIn"))
            let manifest = try #require(session["manifestUrl"] as? String)
            let sessionID = try #require(session["sessionId"] as? String)
            let trace = FileManager.default.temporaryDirectory.appendingPathComponent(
                "seam-live-chromium-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: trace) }
            // --gap-jump: Chromium's native player does not step over the few-millisecond audio gaps
            // AAC leaves at every splice; hls.js and Shaka do (see VODEndToEndTests).
            let run = try await PlayerTools.withChromium(realTime: true) {
                try await PlayerTools.runAsync(
                    "python3",
                    [
                        "scripts/players/chromium_play.py", manifest, "--live", "--watch", "95",
                        "--max-stall", String(Self.maxStall), "--gap-jump", "0.5", "--timeout", "240",
                        "--trace", trace.path, "--json",
                    ], timeout: 300)
            }
            let json = run.json
            let summary =
                "ok \(json["ok"] ?? "?"), reason \(json["reason"] ?? "?"), advanced \(json["advanced"] ?? "?") s, "
                + "longest stall \(json["longest_stall"] ?? "?") s, stalls \(json["stalls"] ?? "?"), freezes \(json["freezes"] ?? "?"), "
                + "gap jumps \((json["gap_jumps"] as? [Any])?.count ?? 0), media errors \(json["media_errors"] ?? "?")"
            #expect(run.status == 0, "\(summary)\n\(run.output.suffix(3000))")
            #expect(json["ok"] as? Bool == true, "\(summary)")
            #expect((json["errors"] as? [Any])?.isEmpty == true, "\(summary)")
            #expect((json["network_errors"] as? [Any])?.isEmpty == true, "\(summary)")
            #expect(json["ended"] as? Bool == false, "\(summary)")
            let longestStall = try #require(json["longest_stall"] as? Double, "\(summary)")
            #expect(longestStall <= Self.maxStall, "\(summary)")
            // The script's own live rule (currentTime advanced >= 80 % of the watch), as a number.
            let advanced = try #require(json["advanced"] as? Double, "\(summary)")
            #expect(advanced >= 0.8 * 95, "\(summary)")

            // Which breaks' ad segments the player fetched through this session.
            let requested = Self.requestedURLs(trace: trace)
            let fetched = Self.adSegmentsFetched(in: requested, sessionID: sessionID)
            let adBreaks = Set(fetched.keys)
            let avails = try await Self.avails(stack, session: session)
            #expect(
                adBreaks.count >= 2,
                "ad segments of breaks \(adBreaks.sorted()) among \(requested.count) requests; \(avails); \(summary)")
            // The tracking JSON lists the session's recent breaks (older ones leave it with the
            // live window); each fetched break it still lists played ad3.
            let listed = adBreaks.filter { number in avails.contains { $0.id == String(number) } }
            #expect(!listed.isEmpty, "none of the breaks \(adBreaks.sorted()) is in the tracking JSON: \(avails)")
            for number in listed {
                let avail = avails.first { $0.id == String(number) }
                #expect(avail?.ads == ["ad3"] && avail?.skipReason == nil, "break \(number): \(avails)")
            }
            // Server-side tracking: the ad server heard ad3's impression once per break whose first
            // ad3 segment the player fetched (the impression's moment). A player that joins the
            // channel inside a break starts past that segment, and that break rightly has none.
            // ad3 is each break's only ad (index 0); the slate after it is not an ad.
            let started = fetched.filter { $0.value.contains { $0.ad == 0 && $0.segment == 0 } }.keys.sorted()
            let fetchedText = fetched.keys.sorted().map { number in
                "break \(number): \(fetched[number, default: []].map { "\($0.ad)/\($0.rendition.path)/\($0.segment)" }.sorted())"
            }
            #expect(!started.isEmpty, "no break's first ad3 segment was fetched: \(fetchedText)")
            let impressions = try await Self.beaconCount(stack, path: "/track/ad3/impression", atLeast: started.count)
            #expect(
                impressions == started.count,
                "ad3 impressions: \(impressions); breaks entered at ad3's first segment: \(started); ad segments fetched: \(fetchedText)"
            )
            print(
                "live e2e: chromium: \(summary); ad segments of breaks \(adBreaks.sorted()); ad3 impressions \(impressions); "
                    + "\(avails); wall \(json["wall_seconds"] ?? "?") s")
        }
    }

    /// Every request URL in a chromium_play.py `--trace` (DevTools events as JSON lines).
    static func requestedURLs(trace: URL) -> [String] {
        guard let text = try? String(contentsOf: trace, encoding: .utf8) else { return [] }
        var urls: [String] = []
        for line in text.split(separator: "\n") where line.contains("\"Network.requestWillBeSent\"") {
            guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let params = event["params"] as? [String: Any],
                let request = params["request"] as? [String: Any],
                let url = request["url"] as? String
            else { continue }
            urls.append(url)
        }
        return urls
    }

    /// The session's ad segments among `urls`, by break number, read as Seam's routes read them
    /// (`SessionURLs.resource(atPath:)`).
    static func adSegmentsFetched(in urls: [String], sessionID: String) -> [Int: Set<AdSegmentAddress>] {
        var fetched: [Int: Set<AdSegmentAddress>] = [:]
        for url in urls {
            guard let path = URLComponents(string: url)?.path,
                let (id, resource) = SessionURLs.resource(atPath: path[...]), id == sessionID,
                case .adSegment(let address) = resource
            else { continue }
            fetched[address.pod, default: []].insert(address)
        }
        return fetched
    }

    // MARK: ffmpeg

    /// ffmpeg's HLS demuxer (ffprobe) reads 90 s of a live session without a fatal error, and
    /// sees the splices: timestamp discontinuities into and out of at least two breaks, whose
    /// ad3 segments it fetched through Seam.
    @Test(.timeLimit(HeavyTier.timeLimit)) func ffmpegReadsALiveSessionAcrossTwoBreaks() async throws {
        guard PlayerTools.require("ffprobe", for: "ffprobe live demux") else { return }
        try await Self.withLiveStack { stack in
            let session = try await stack.createSession(
                ["trackingMode": "server"], url: stack.demo.liveURL(dialect: "cueOutIn"))
            let manifest = try #require(session["manifestUrl"] as? String)
            let run = try await PlayerTools.runAsync(
                "python3",
                [
                    "scripts/players/ffprobe_check.py", manifest, "--live-seconds", "90", "--timeout", "240",
                ], timeout: 300)
            let json = run.json
            let variant = (json["variants_analysed"] as? [[String: Any]])?.first ?? [:]
            let summary =
                "ok \(json["ok"] ?? "?"), reason \(json["reason"] ?? "?"), demuxed \(json["demuxed_duration"] ?? "?") s, "
                + "discontinuities \(json["discontinuities"] ?? "?"), stopped \(variant["stopped_early"] ?? "?"), "
                + "segment errors \(variant["segment_errors"] ?? "?"), jumps \((variant["stream_analysis"] as? [String: [String: Any]])?.values.first { $0["codec_type"] as? String == "video" }?["jumps"] ?? "?")"
            #expect(run.status == 0, "\(summary)\n\(run.output.suffix(3000))")
            #expect(json["ok"] as? Bool == true, "\(summary)")
            #expect(json["live"] as? Bool == true, "\(summary)")
            #expect((variant["segment_errors"] as? [Any])?.isEmpty == true, "\(summary)")
            #expect(variant["stopped_early"] as? String == "live-seconds", "\(summary)")
            let demuxed = try #require(json["demuxed_duration"] as? Double, "\(summary)")
            #expect(demuxed >= 89, "\(summary)")
            // Each replaced break is entered and left with a jump in timestamps (ad3, then slate,
            // then content again); 90 s hold at least two break starts.
            let discontinuities = try #require(json["discontinuities"] as? Int, "\(summary)")
            #expect(discontinuities >= 4, "\(summary)")

            let impressions = try await Self.beaconCount(stack, path: "/track/ad3/impression", atLeast: 2)
            let avails = try await Self.avails(stack, session: session)
            #expect(impressions >= 2, "ad3 impressions \(impressions); \(avails); \(summary)")
            print(
                "live e2e: ffprobe: \(summary); ad3 impressions \(impressions); \(avails); wall \(json["wall_seconds"] ?? "?") s"
            )
        }
    }
}

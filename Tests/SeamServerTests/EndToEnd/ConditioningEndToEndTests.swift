import DASH
import Foundation
import HLS
import NIOCore
import SeamDemo
import SeamTesting
import Testing
@testable import SeamServer

/// Issue 14 end to end on loopback: the demo ad server answers a VAST whose only creative is an
/// MP4 (1280x720 at 30 fps, 44.1 kHz mono; `Samples/vast/vast-no-hls.xml`), Seam conditions it
/// with the real ffmpeg for the demo title's ladder (three muxed MPEG-TS variants at 25 fps, AAC
/// 48 kHz stereo). The first session skips the break with `TRANSCODE_IN_PROGRESS` (or fills it,
/// if conditioning beat the budget); a later one plays the ad in every rendition, each ad
/// rendition as its content rendition is (ffprobe), Chromium plays the title to the end without a
/// stall at the splices (no freeze of a second, no gap to jump), and the
/// interstitials rendering's asset is the conditioned ad, valid and played.
@Suite(.heavyLong, .serialized) struct ConditioningEndToEndTests {
    static func run(_ body: @escaping @Sendable (SeamStack, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioning-e2e-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // ffmpeg and Chromium are the heavy work the Chromium gate keeps to one at a time on 2 cores.
        try await ChromiumGate.withChromium {
            try await SeamStack.run(
                adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" },
                { configuration in
                    configuration.conditioning.directory = directory
                    configuration.conditioning.niceness = 19
                }
            ) { stack in try await body(stack, directory) }
        }
    }

    /// The session's only avail, from its tracking JSON.
    /// The picture freezes `chromium_play.py` saw once the title was under way. A freeze on the
    /// first frame (the playhead still at 0) is Chromium starting up on a loaded machine (seen
    /// under `scripts/stress-suite.sh`: 1.0 s at 0 before the first frame moved); what these
    /// tests look for is a freeze where content and ads meet.
    static func freezesUnderWay(_ json: [String: Any]) -> [[String: Any]]? {
        guard let freezes = json["freezes"] as? [[String: Any]] else { return nil }
        return freezes.filter { (($0["currentTime"] as? Double) ?? 1) > 0.05 }
    }

    static func avail(_ stack: SeamStack, _ session: [String: Any]) async throws -> [String: Any] {
        let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
        return try #require((tracking["avails"] as? [[String: Any]])?.first)
    }

    /// Conditions the ad tag's MP4 for `content`'s ladder through the prefetch route, waiting up
    /// to 120 s for the job (the request's time-out is a hang guard beyond that wait).
    static func prefetchTheMP4Ad(_ stack: SeamStack, for content: String) async throws -> SeamStack.Answer {
        try await stack.request(
            "/v1/creatives/prefetch", method: .POST,
            json: [
                "contentUrl": content, "adTagUrl": stack.demo.adServer.baseURL + "/vast/vast-no-hls.xml",
                "waitSeconds": 120,
            ], timeout: .seconds(150))
    }

    /// Sessions until one has the ad (conditioning runs in the background), at most 120 s.
    static func sessionWithTheAd(_ stack: SeamStack, url: String? = nil) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(120)
        while true {
            let session = try await stack.createSession(["trackingMode": "server"], url: url)
            let avail = try await avail(stack, session)
            if (avail["ads"] as? [Any])?.isEmpty == false { return session }
            #expect(avail["skipReason"] as? String == "TRANSCODE_IN_PROGRESS", "\(avail)")
            guard Date() < deadline else {
                Issue.record("no session got the conditioned ad within 120 s: \(avail)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    @Test(
        "A DASH title: the MP4-only ad is conditioned for the ladder its MPD declares and plays as a period; GStreamer plays every frame, each beacon once"
    )
    func dashTitleGetsTheConditionedAd() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning"),
            PlayerTools.require("gst-launch-1.0", for: "GStreamer DASH playback")
        else { return }
        try await Self.run { stack, _ in
            // Conditioned ahead through the prefetch route, for the MPD's ladder: the first session plays it.
            let prefetched = try await Self.prefetchTheMP4Ad(stack, for: stack.demo.dashContentURL)
            #expect(prefetched.status == 200, "\(prefetched.body)")
            let creative = try #require((prefetched.json["creatives"] as? [[String: Any]])?.first, "\(prefetched.body)")
            #expect(creative["status"] as? String == "conditioned", "\(creative)")
            let session = try await stack.createSession(["trackingMode": "server"], url: stack.demo.dashContentURL)
            #expect((try await Self.avail(stack, session)["ads"] as? [Any])?.count == 1)
            let manifest = try #require(session["manifestUrl"] as? String)
            let mpd = try MPD(parsing: try await stack.request(manifest).body)
            let ad = try #require(mpd.periods.first)
            #expect(ad.id == "seam-ad-preroll-0-0")
            #expect(abs((ad.duration ?? 0) - 15) < 0.1, "\(ad.duration ?? 0)")
            // The ad's ladder is the content's: the same sizes, codecs and bandwidths per rung.
            let content = try MPD(parsing: try await stack.request(stack.demo.dashContentURL).body)
            let rungs = { (period: Period) in
                period.adaptationSets.first { $0.contentType == "video" }?.representations.map {
                    "\($0.width ?? 0)x\($0.height ?? 0) \($0.codecs ?? "")"
                } ?? []
            }
            #expect(rungs(ad) == rungs(try #require(content.periods.first)))
            #expect(ad.adaptationSets.map(\.contentType) == ["video", "audio"])
            #expect(MPDValidator.check(mpd).isEmpty, "\(MPDValidator.check(mpd))")
            let run = try await PlayerTools.runAsync(
                "bash",
                [
                    "scripts/players/gst_play.sh", manifest, "--playbin3", "--by-frames", "--timeout", "120",
                    "--expect-duration", "75", "--json",
                ])
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(run.json["video_frames"] as? Int == 1875, "\(run.output.suffix(1000))")
            let expected = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                "/track/nohls/\($0)"
            }
            await stack.drainBeacons()
            let played = try await stack.beacons().filter { path in expected.contains(path) }
            #expect(played.sorted() == expected.sorted())
        }
    }

    @Test(
        "An MP4-only ad: TRANSCODE_IN_PROGRESS first, then in every rendition matched to it (ffprobe); Chromium plays the title to the end, and the interstitial asset"
    )
    func conditionedAdPlays() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning")
        else { return }
        try await Self.run { stack, directory in
            let first = try await stack.createSession(["trackingMode": "server"])
            let firstAvail = try await Self.avail(stack, first)
            if (firstAvail["ads"] as? [Any])?.isEmpty != false {
                #expect(firstAvail["skipReason"] as? String == "TRANSCODE_IN_PROGRESS", "\(firstAvail)")
            }

            let session = try await Self.sessionWithTheAd(stack)
            let manifest = try #require(session["manifestUrl"] as? String)
            let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            #expect(master.variants.count == 3)
            let content = try MultivariantPlaylist(parsing: try await stack.request(stack.demo.contentURL).body)
            for (variant, contentVariant) in zip(master.variants, content.variants) {
                let media = try MediaPlaylist(parsing: try await stack.request(variant.uri).body)
                // The pre-roll: content starts after a discontinuity, the ad's segments before it.
                let splice = try #require(media.segments.firstIndex { $0.discontinuity }, "no splice in \(variant.uri)")
                #expect(splice > 0)
                let adSeconds = media.segments[..<splice].map(\.duration).reduce(0, +)
                #expect(abs(adSeconds - 15) < 0.6, "the ad lasts \(adSeconds) s in \(variant.uri)")
                #expect(media.segments.allSatisfy { $0.duration <= Double(media.targetDuration) + 0.5 })
                // ffprobe on the ad's first segment, fetched as the player would (through Seam).
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "seam-ad-\(UUID().uuidString).ts")
                defer { try? FileManager.default.removeItem(at: file) }
                var segment = try await stack.rawRequest(media.segments[0].uri)
                if (300..<400).contains(segment.status),
                    let location = segment.headers.first(where: { $0.0.lowercased() == "location" })?.1
                {
                    segment = try await stack.rawRequest(location)
                }
                #expect(segment.status == 200)
                try Data(segment.body.readableBytesView).write(to: file)
                let probe = try await FFmpegConditioningTests.probe(file.path)
                let video = try #require(FFmpegConditioningTests.streams(probe, type: "video").first)
                let resolution = try #require(contentVariant.resolution)
                #expect(video["codec_name"] as? String == "h264")
                #expect((video["width"] as? Int, video["height"] as? Int) == (resolution.width, resolution.height))
                #expect(video["r_frame_rate"] as? String == "25/1")
                let level = (video["level"] as? Int).map { String($0, radix: 16) }
                #expect(
                    contentVariant.codecs.first?.lowercased().hasSuffix(level ?? "?") == true,
                    "level \(level ?? "?") vs \(contentVariant.codecs)")
                let audio = try #require(FFmpegConditioningTests.streams(probe, type: "audio").first)
                #expect(audio["codec_name"] as? String == "aac")
                #expect(audio["sample_rate"] as? String == "48000")
                #expect(audio["channels"] as? Int == 2)
            }
            #expect(FileManager.default.fileExists(atPath: directory), "conditioned creatives are kept on disk")
            // One more session: found on disk (the session above may have waited for the job itself).
            let fromDisk = try await Self.avail(stack, try await stack.createSession(["trackingMode": "server"]))
            #expect((fromDisk["ads"] as? [Any])?.count == 1, "\(fromDisk)")
            // /metrics: the lookups (the first misses, the last hits), the job's time, the bytes on disk.
            let metrics = try await stack.request("/metrics").body.split(separator: "\n")
            func value(_ prefix: String) -> Double? {
                metrics.first { $0.hasPrefix(prefix) }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
            }
            #expect(value("seam_conditioning_lookups_total{result=\"hit\"}") ?? 0 >= 1)
            #expect(value("seam_conditioning_lookups_total{result=\"miss\"}") ?? 0 >= 1)
            #expect(value("seam_conditioning_job_duration_seconds_count{outcome=\"conditioned\"}") == 1)
            #expect(value("seam_conditioning_bytes_on_disk") ?? 0 > 100_000)

            guard PlayerTools.require("chromium", for: "Chromium playback of a conditioned ad") else { return }
            // At 4x, as the other conditioned plays: 8x froze the picture on a busy 2-core machine.
            let run = try await PlayerTools.runAsync(
                "python3",
                [
                    "scripts/players/chromium_play.py", manifest, "--rate", "4", "--gap-jump", "0.5",
                    "--expect-duration", "75", "--tolerance", "0.6", "--json",
                ])
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(run.json["ended"] as? Bool == true)
            #expect((run.json["errors"] as? [Any])?.isEmpty == true)
            // No stall at the splices: the playhead never stood still for a second, and no hole in
            // the buffered ranges needed jumping.
            let playback =
                "stalls \(run.json["stalls"] ?? "?"), freezes \(run.json["freezes"] ?? "?"), gap jumps \(run.json["gap_jumps"] ?? "?")"
            #expect(Self.freezesUnderWay(run.json)?.isEmpty == true, "\(playback)")
            #expect((run.json["gap_jumps"] as? [Any])?.isEmpty == true, "\(playback)")

            // The same session as HLS Interstitials: the break's asset is the conditioned ad,
            // valid by `seam validate` and played by Chromium to its end.
            let avail = try await Self.avail(stack, session)
            let list = try await InterstitialsEndToEndTests.assetList(
                stack, try #require(avail["assetListUrl"] as? String))
            let asset = try #require(list.assets.first)
            #expect(abs(asset.duration - 15) < 0.6)
            let checked = try await InterstitialsEndToEndTests.validate(asset.uri)
            #expect(
                checked.run.status == 0 && checked.errors.isEmpty, "\(asset.uri): \(checked.run.output.prefix(3000))")
            let played = try await InterstitialsEndToEndTests.play(asset.uri, duration: asset.duration)
            #expect(
                played.status == 0 && played.json["ended"] as? Bool == true,
                "\(asset.uri): \(played.output.suffix(2000))")
        }
    }

    /// A cold title on a slow origin: its segments take 4 s, longer than the whole ad budget
    /// (2 s), so the probes that measure its ladder cannot end within the first sessions' starts.
    /// Those sessions skip the break with `TRANSCODE_IN_PROGRESS` (not "cannot be conditioned for");
    /// the probes go on, joined by both sessions (each probed segment is downloaded once), and the
    /// job they make possible starts with no further session; the session after it has the ad.
    /// No time limit: the Chromium gate (held by live watches of a minute and more) may keep it
    /// waiting; every wait inside is bounded (the origin's 4 s, the 120 s poll for the job).
    @Test
    func coldSlowTitleStartsTheJobAfterItsProbes() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning")
        else { return }
        let origin = FaultServer()
        let content = URL(fileURLWithPath: "Samples/media/content")
        origin.route(
            "/title/master.m3u8",
            .text(try String(contentsOf: content.appendingPathComponent("master.m3u8"), encoding: .utf8)))
        let renditions = ["360p", "540p", "720p"]
        for rendition in renditions {
            let folder = content.appendingPathComponent(rendition)
            origin.route(
                "/title/\(rendition)/index.m3u8",
                .text(try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)))
            origin.route(
                "/title/\(rendition)/seg_000.ts",
                .init(
                    body: ByteBuffer(bytes: try Data(contentsOf: folder.appendingPathComponent("seg_000.ts"))),
                    delay: .seconds(4), contentType: "video/mp2t"))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioning-cold-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await ChromiumGate.withChromium {
            try await origin.run { originURL in
                try await SeamStack.run(
                    adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" },
                    { configuration in
                        configuration.conditioning.directory = directory
                        configuration.conditioning.niceness = 19
                        configuration.ads.totalBudgetSeconds = 2
                    }
                ) { stack in
                    let title = originURL + "/title/master.m3u8"
                    async let one = stack.createSession(["trackingMode": "server"], url: title)
                    async let two = stack.createSession(["trackingMode": "server"], url: title)
                    for session in try await [one, two] {
                        let avail = try await Self.avail(stack, session)
                        #expect((avail["ads"] as? [Any])?.isEmpty == true, "\(avail)")
                        #expect(avail["skipReason"] as? String == "TRANSCODE_IN_PROGRESS", "\(avail)")
                    }

                    // No more sessions: the probes end, and the job they allow runs to its end.
                    let deadline = Date().addingTimeInterval(120)
                    var conditioned = 0.0
                    while conditioned < 1, Date() < deadline {
                        try await Task.sleep(for: .milliseconds(500))
                        let metrics = try await stack.request("/metrics").body.split(separator: "\n")
                        conditioned =
                            metrics.first {
                                $0.hasPrefix("seam_conditioning_job_duration_seconds_count{outcome=\"conditioned\"}")
                            }
                            .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
                    }
                    #expect(conditioned == 1, "the job the first sessions' probes allowed did not end within 120 s")
                    for rendition in renditions {
                        #expect(
                            origin.requests("/title/\(rendition)/seg_000.ts") == 1,
                            "\(rendition): probed once for both sessions")
                    }

                    let later = try await Self.avail(
                        stack, try await stack.createSession(["trackingMode": "server"], url: title))
                    #expect((later["ads"] as? [Any])?.count == 1, "\(later)")
                }
            }
        }
    }

    /// Issue 14's prefetch, with the directory published by a web server: the demo media is
    /// copied to a temporary root whose `conditioned/` is `conditioning.directory`, and the demo
    /// origin serving that root stands in for the CDN (`conditioning.publicBaseURL`).
    @Test(
        "Prefetch conditions the ad tag's MP4 before any session; the first session has it in every rendition, fetched from conditioning.publicBaseURL; Chromium plays it"
    )
    func prefetchedAdPlaysFromPublicBaseURL() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning")
        else { return }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-prefetch-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let media = root.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "Samples/media"), to: media)
        let directory = media.appendingPathComponent("conditioned").path
        try await ChromiumGate.withChromium {
            try await SeamStack.run(
                adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" }, demo: { $0.mediaRoot = media.path },
                configure: { configuration, demo in
                    configuration.conditioning.directory = directory
                    configuration.conditioning.niceness = 19
                    configuration.conditioning.publicBaseURL = demo.origin.baseURL + "/media/conditioned"
                }
            ) { stack in
                let publicBase = stack.demo.origin.baseURL + "/media/conditioned/"
                let prefetched = try await Self.prefetchTheMP4Ad(stack, for: stack.demo.contentURL)
                #expect(prefetched.status == 200, "\(prefetched.body)")
                let creative = try #require(
                    (prefetched.json["creatives"] as? [[String: Any]])?.first, "\(prefetched.body)")
                #expect(creative["status"] as? String == "conditioned", "\(creative)")
                #expect(creative["identity"] as? String == "seam-demo:SEAM-NOHLS")
                let manifest = try #require(creative["manifestUrl"] as? String)
                #expect(manifest.hasPrefix(publicBase), "\(manifest)")
                // The same creative by URL and universal ad id: the same result, at once.
                let byURL = try await stack.request(
                    "/v1/creatives/prefetch", method: .POST,
                    json: [
                        "contentUrl": stack.demo.contentURL,
                        "creatives": [
                            [
                                "url": stack.demo.adServer.baseURL + "/media/ads/nohls/nohls-720p.mp4",
                                "universalAdId": "seam-demo:SEAM-NOHLS",
                            ]
                        ],
                    ])
                #expect(byURL.status == 200, "\(byURL.body)")
                #expect((byURL.json["creatives"] as? [[String: Any]])?.first?["manifestUrl"] as? String == manifest)

                // The very first session has the ad: no TRANSCODE_IN_PROGRESS.
                let session = try await stack.createSession(["trackingMode": "server"])
                let avail = try await Self.avail(stack, session)
                #expect((avail["ads"] as? [Any])?.count == 1, "\(avail)")
                let sessionManifest = try #require(session["manifestUrl"] as? String)
                let master = try MultivariantPlaylist(parsing: try await stack.request(sessionManifest).body)
                #expect(master.variants.count == 3)
                for variant in master.variants {
                    let playlist = try MediaPlaylist(parsing: try await stack.request(variant.uri).body)
                    let splice = try #require(
                        playlist.segments.firstIndex { $0.discontinuity }, "no splice in \(variant.uri)")
                    // Each ad segment: Seam's beacon redirect, to the published directory.
                    for segment in playlist.segments[..<splice] {
                        let redirect = try await stack.rawRequest(segment.uri)
                        let location = try #require(
                            redirect.headers.first { $0.0.lowercased() == "location" }?.1,
                            "\(segment.uri): \(redirect.status)")
                        #expect(location.hasPrefix(publicBase), "\(location)")
                        let fetched = try await stack.rawRequest(location)
                        #expect(fetched.status == 200 && fetched.body.readableBytes > 1000, "\(location)")
                    }
                }

                guard PlayerTools.require("chromium", for: "Chromium playback of a prefetched ad") else { return }
                // At 4x, not 8x: decoding eight times faster than real time froze the picture for a
                // second on a 2-core machine with one core busy (scripts/stress-suite.sh).
                let run = try await PlayerTools.runAsync(
                    "python3",
                    [
                        "scripts/players/chromium_play.py", sessionManifest, "--rate", "4", "--gap-jump", "0.5",
                        "--expect-duration", "75", "--tolerance", "0.6", "--json",
                    ])
                #expect(run.status == 0, "\(run.output.suffix(2000))")
                #expect(run.json["ended"] as? Bool == true)
                #expect((run.json["errors"] as? [Any])?.isEmpty == true)
                #expect(Self.freezesUnderWay(run.json)?.isEmpty == true, "\(run.json["freezes"] ?? "?")")
                #expect((run.json["gap_jumps"] as? [Any])?.isEmpty == true, "\(run.json["gap_jumps"] ?? "?")")
            }
        }
    }

    /// Live: the demo channel (a 24 s break on segments 3 + 7m, 6 s each) with the MP4-only ad
    /// and an ad budget (4 s) shorter than the conditioning under load. The first break is
    /// skipped with `TRANSCODE_IN_PROGRESS` while the job runs (or has the ad, if the job beat the
    /// budget); the next one (42 s later) has the conditioned ad in every rendition, its segments
    /// from `/v1/conditioned/`.
    @Test(.timeLimit(HeavyTier.timeLimit))
    func liveBreakGetsTheConditionedAd() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning")
        else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioning-live-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Gated whole (the job is the heavy part; the rest about 10 s): the channel's clock below
        // must start once the gate is given, not before a wait for it.
        try await ChromiumGate.withChromium {
            // The session starts with segment 71 the newest: the window opens on the break of segment
            // 66 (decided at once: the job starts), and the break of segment 73 reaches the window
            // about 10 s later.
            let firstBreak = 3 + 7 * 10
            let epoch = Date().timeIntervalSince1970 - Double(firstBreak * 6) + 4
            try await SeamStack.run(
                adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" }, demo: { $0.liveEpoch = epoch },
                configure: { configuration, _ in
                    configuration.conditioning.directory = directory
                    configuration.conditioning.niceness = 19
                    configuration.ads.totalBudgetSeconds = 4
                    configuration.ads.trackingMode = "server"
                }
            ) { stack in
                let live = stack.demo.liveURL(dialect: "cueOutIn")
                let session = try await stack.createSession(url: live)
                let master = try MultivariantPlaylist(
                    parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
                #expect(master.variants.count == 3)
                /// Reloads every rendition, as players do, until `done` says so (at most `seconds`).
                func reload(
                    for seconds: Double, until done: ([LiveEndToEndTests.Avail]) -> Bool
                ) async throws -> [LiveEndToEndTests.Avail] {
                    let deadline = Date().addingTimeInterval(seconds)
                    while true {
                        for variant in master.variants { _ = try await stack.request(variant.uri) }
                        let avails = try await LiveEndToEndTests.avails(stack, session: session)
                        if done(avails) || Date() > deadline { return avails }
                        try await Task.sleep(for: .seconds(2))
                    }
                }
                // The first break: decided while ffmpeg starts.
                let first = try await reload(for: 40) { !$0.isEmpty }
                let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).body
                // TRANSCODE_IN_PROGRESS while the job runs (or the ad itself, if the job beat the budget).
                #expect(
                    first.first?.skipReason == "TRANSCODE_IN_PROGRESS" || first.first?.ads == ["nohls"],
                    "\(first) \(tracking.prefix(3000))")
                let prefetched = try await Self.prefetchTheMP4Ad(stack, for: live)
                #expect(
                    (prefetched.json["creatives"] as? [[String: Any]])?.first?["status"] as? String == "conditioned",
                    "\(prefetched.body)")
                // The next break (42 s of session time later): the ad, in every rendition.
                let avails = try await reload(for: 70) { $0.count >= 2 }
                #expect(avails.count >= 2 && avails[1].ads == ["nohls"], "\(avails)")
                for variant in master.variants {
                    let playlist = try MediaPlaylist(parsing: try await stack.request(variant.uri).body)
                    let ads = playlist.segments.filter { $0.uri.contains("/ad/") }
                    #expect(!ads.isEmpty, "no ad segment in \(variant.uri)")
                    if let segment = ads.first {
                        let redirect = try await stack.rawRequest(segment.uri)
                        let location = redirect.headers.first { $0.0.lowercased() == "location" }?.1 ?? ""
                        #expect(
                            location.contains("/v1/conditioned/"), "\(segment.uri) → \(redirect.status) \(location)")
                        #expect(try await stack.rawRequest(location).status == 200, "\(location)")
                    }
                }
            }
        }
    }

    /// A demuxed fMP4 title (one H.264 variant, one AAC audio rendition in its own group, made
    /// here by ffmpeg and served by the demo origin): the MP4-only ad is conditioned as the title
    /// is, fMP4 with `EXT-X-MAP` and a demuxed audio rendition, and spliced into both playlists.
    @Test(
        "A demuxed fMP4 title: the conditioned ad is fMP4 with its own init section in the video playlist and demuxed audio in the audio rendition; Chromium plays it through"
    )
    func demuxedFragmentedTitle() async throws {
        guard PlayerTools.require("ffmpeg", for: "ad conditioning"),
            PlayerTools.require("ffprobe", for: "ad conditioning")
        else { return }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioning-fmp4-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let media = root.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "Samples/media"), to: media)
        let title = media.appendingPathComponent("fmp4").path
        try FileManager.default.createDirectory(atPath: title, withIntermediateDirectories: true)
        try await ChromiumGate.withChromium {
            // At the lowest priority there is (SCHED_IDLE where chrt is installed): the suites beside it keep their time.
            let idle = ConditioningProcess.which("chrt").map { [$0, "--idle", "0"] } ?? []
            let made = try await PlayerTools.runAsync(
                "nice",
                ["-n", "19"] + idle + [
                    "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=12", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=48000:duration=12",
                    "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-profile:v", "main", "-level:v", "3.0", "-g",
                    "50", "-keyint_min", "50",
                    "-sc_threshold", "0", "-b:v", "500k", "-c:a", "aac", "-ac", "2", "-b:a", "96k",
                    "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                    "-master_pl_name", "master.m3u8",
                    "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes,language:en",
                    "-hls_segment_filename", title + "/stream_%v/seg%03d.m4s", title + "/stream_%v/index.m3u8",
                ], timeout: 120)
            try #require(made.status == 0, "\(made.output)")
            try await SeamStack.run(
                adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" }, demo: { $0.mediaRoot = media.path },
                configure: { configuration, _ in
                    configuration.conditioning.directory = root.appendingPathComponent("conditioned").path
                    configuration.conditioning.niceness = 19
                }
            ) { stack in
                let content = stack.demo.origin.baseURL + "/media/fmp4/master.m3u8"
                let prefetched = try await Self.prefetchTheMP4Ad(stack, for: content)
                #expect(
                    (prefetched.json["creatives"] as? [[String: Any]])?.first?["status"] as? String == "conditioned",
                    "\(prefetched.body)")

                let session = try await stack.createSession(["trackingMode": "server"], url: content)
                let manifest = try #require(session["manifestUrl"] as? String)
                let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
                let audio = try #require(
                    master.renditions.first { $0.type == .audio }?.uri, "no audio rendition in \(master.serialized())")
                let video = try #require(master.variants.first?.uri)
                for (kind, uri) in [("video", video), ("audio", audio)] {
                    let playlist = try MediaPlaylist(parsing: try await stack.request(uri).body)
                    let splice = try #require(
                        playlist.segments.firstIndex { $0.discontinuity }, "no splice in the \(kind) playlist")
                    let ad = playlist.segments[..<splice]
                    #expect(abs(ad.map(\.duration).reduce(0, +) - 15) < 0.6, "\(kind): \(ad.map(\.duration))")
                    // The ad's own initialization section, then the title's again after the splice.
                    let adMap = try #require(ad.first?.map?.uri, "the \(kind) ad segments have no EXT-X-MAP")
                    #expect(playlist.segments[splice].map?.uri != adMap)
                    // ffprobe on the ad's init section and first segment, fetched as a player would.
                    var bytes = Data()
                    for url in [adMap, ad[ad.startIndex].uri] {
                        var answer = try await stack.rawRequest(url)
                        if (300..<400).contains(answer.status),
                            let location = answer.headers.first(where: { $0.0.lowercased() == "location" })?.1
                        {
                            #expect(location.contains("/v1/conditioned/"), "\(location)")
                            answer = try await stack.rawRequest(location)
                        }
                        #expect(answer.status == 200, "\(url)")
                        bytes.append(contentsOf: answer.body.readableBytesView)
                    }
                    let file = root.appendingPathComponent("\(kind)-ad.mp4")
                    try bytes.write(to: file)
                    let probe = try await FFmpegConditioningTests.probe(file.path)
                    if kind == "video" {
                        let stream = try #require(FFmpegConditioningTests.streams(probe, type: "video").first)
                        #expect(
                            stream["codec_name"] as? String == "h264" && stream["width"] as? Int == 640
                                && stream["height"] as? Int == 360, "\(stream)")
                        #expect(
                            FFmpegConditioningTests.streams(probe, type: "audio").isEmpty,
                            "the video rendition carries no audio")
                    } else {
                        let stream = try #require(FFmpegConditioningTests.streams(probe, type: "audio").first)
                        #expect(
                            stream["codec_name"] as? String == "aac" && stream["sample_rate"] as? String == "48000"
                                && stream["channels"] as? Int == 2, "\(stream)")
                        #expect(
                            FFmpegConditioningTests.streams(probe, type: "video").isEmpty,
                            "the audio rendition carries no video")
                    }
                }

                guard
                    PlayerTools.require(
                        "chromium", for: "Chromium playback of a conditioned ad in a demuxed fMP4 title")
                else { return }
                let run = try await PlayerTools.runAsync(
                    "python3",
                    [
                        "scripts/players/chromium_play.py", manifest, "--rate", "4", "--gap-jump", "0.5",
                        "--expect-duration", "27", "--tolerance", "0.6", "--json",
                    ])
                #expect(run.status == 0, "\(run.output.suffix(2000))")
                #expect(run.json["ended"] as? Bool == true)
                #expect(Self.freezesUnderWay(run.json)?.isEmpty == true, "\(run.json["freezes"] ?? "?")")
            }
        }
    }
}

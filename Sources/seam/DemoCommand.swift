import ArgumentParser
import Foundation
import Logging
import SeamDemo
import SeamServer

/// `seam demo`: Seam, a local origin serving `Samples/media` and a local ad server answering
/// from `Samples/vast` (recording every beacon), all on loopback, with nothing to set up.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run Seam on its embedded demo: local origin, local ad server, and the proxy.",
        discussion: "Run it from the repository root (it serves Samples/). Stop with Ctrl-C."
    )

    @Option(help: "Port of the Seam proxy.")
    var port = DemoServers.defaultProxyPort
    @Option(help: "Port of the demo origin.")
    var originPort = DemoServers.defaultOriginPort
    @Option(help: "Port of the demo ad server.")
    var adServerPort = DemoServers.defaultAdServerPort
    @Option(help: "Address all three listen on.")
    var host = "127.0.0.1"
    @Option(help: "Folder with Samples/ (media, vast, web).")
    var samples = "Samples"
    @Option(help: "Tracking mode of demo sessions: server, client or hybrid.")
    var trackingMode = "server"
    @Option(
        help:
            "SCTE-35 cue dialect of the live channel: cueOutIn, oatcls, scte35, splicepoint, adobe, dateRange, or none (breaks come from a schedule)."
    )
    var liveCues = "cueOutIn"
    @Option(
        name: .customLong("set"), help: ArgumentHelp("Set any configuration key; repeatable.", valueName: "key=value"))
    var settings: [String] = []
    @Flag(
        help:
            "Run only the demo origin and ad server, not Seam: the upstreams of Seam replicas run on their own (deploy/compose.yaml, scripts/run-topology.sh)."
    )
    var upstreamsOnly = false
    @Option(
        help: ArgumentHelp(
            "The name Seam and players reach the origin and ad server at, when it is not --host (a container's service name).",
            valueName: "name"))
    var publicHost: String?

    mutating func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "seam.demo")
        var demo = DemoServers.Configuration()
        demo.mediaRoot = "\(samples)/media"
        demo.vastRoot = "\(samples)/vast"
        demo.host = host
        demo.originPort = originPort
        demo.adServerPort = adServerPort
        demo.logger = logger
        if let publicHost {
            // The VAST answers name the ad server's creatives by this URL, and Seam fetches them.
            demo.originPublicBaseURL = "http://\(publicHost):\(originPort)"
            demo.adServerPublicBaseURL = "http://\(publicHost):\(adServerPort)"
        }
        let servers = try await DemoServers.start(demo)
        if upstreamsOnly {
            print(
                """

                Demo upstreams are running (no Seam).
                  Content (VOD): \(servers.contentURL)
                  Live channel:  \(servers.liveURL(dialect: liveCues))
                  Ad tag (VMAP): \(servers.vmapURL)
                  Beacons:       \(servers.beaconsURL)
                Stop with Ctrl-C or SIGTERM.

                """)
            await Self.untilTerminated()
            await servers.stop()
            return
        }
        var overrides: [String: String] = [
            "server.host": host,
            "server.port": String(port),
            "domains.mode": "all",
            // The demo's origin and ad server are on loopback, which production Seam refuses (SSRF).
            "upstream.allowPrivateNetworks": "true",
            "ads.adTagURL": servers.vmapURL,
            "ads.trackingMode": trackingMode,
            // Breaks the ads do not fill are completed with the demo's slate.
            "live.slateURL": servers.origin.baseURL + "/media/slate/master.m3u8",
            "live.dashSlateURL": servers.origin.baseURL + "/media/slate/dash/manifest.mpd",
        ]
        let dialects = ["cueOutIn", "oatcls", "scte35", "splicepoint", "adobe", "dateRange", "none"]
        guard dialects.contains(liveCues) else {
            throw refuse("--live-cues must be one of \(dialects.joined(separator: ", "))")
        }
        if liveCues == "none" {
            // No cues: a 24 s break every 42 s of program time, like the cued channel's.
            overrides["live.schedules"] =
                servers.liveURL(dialect: "none").replacingOccurrences(of: "/master.m3u8", with: "/")
                + " every=42 offset=18 duration=24"
        }
        // MP4-only ads (the page's "MP4-only ad") are conditioned with ffmpeg into a directory of
        // this run, removed when it stops; without ffmpeg they are skipped, and the page says so.
        let hasFFmpeg = Self.onPath("ffmpeg") && Self.onPath("ffprobe")
        let demoConditioning = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-demo-conditioned-\(getpid())"
        ).path
        if hasFFmpeg { overrides["conditioning.directory"] = demoConditioning }
        for setting in settings {
            let (key, value) = try ConfigurationLoader.parseOverride(setting)
            overrides[key] = value
        }
        // Beyond loopback, the prefetch route needs a token (each creative is an ffmpeg job): the
        // demo makes one for this run and prints it, unless one was given.
        var madeToken: String?
        if overrides["conditioning.directory"]?.isEmpty == false, overrides["conditioning.prefetchToken"] == nil,
            ProcessInfo.processInfo.environment["SEAM_CONDITIONING_PREFETCH_TOKEN"] == nil,
            !ConfigurationLoader.isLoopback(host: overrides["server.host"] ?? host)
        {
            let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            overrides["conditioning.prefetchToken"] = token
            madeToken = token
        }
        // The debug route is on with a token made for this run (printed below), unless one was given.
        if overrides["debug.token"] == nil {
            overrides["debug.token"] =
                ProcessInfo.processInfo.environment["SEAM_DEBUG_TOKEN"]
                ?? (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        }
        // The break API too, with the same token.
        if overrides["live.breaksToken"] == nil {
            overrides["live.breaksToken"] =
                ProcessInfo.processInfo.environment["SEAM_LIVE_BREAKS_TOKEN"] ?? overrides["debug.token"]
        }
        let configuration = try ConfigurationLoader(environment: [:]).load(configFile: nil, overrides: overrides)
        defer {
            if configuration.conditioning.directory == demoConditioning {
                try? FileManager.default.removeItem(atPath: demoConditioning)
            }
        }
        let proxy = "http://\(host):\(port)"
        let originHostPort = "\(servers.origin.host):\(servers.origin.port)"
        let streamURL = "\(proxy)/v1/hls/\(originHostPort)/media/content/master.m3u8?seam.scheme=http"
        let liveStreamURL = "\(proxy)/v1/hls/\(originHostPort)/live/\(liveCues)/master.m3u8?seam.scheme=http"
        // The same title as MPEG-DASH: ad periods from the ads' MPDs (docs/dash.md).
        let dashURL = "\(proxy)/v1/dash/\(originHostPort)/media/content/dash/manifest.mpd?seam.scheme=http"
        let liveDASHURL = "\(proxy)/v1/dash/\(originHostPort)/live-dash/manifest.mpd?seam.scheme=http"
        // The same streams as HLS Interstitials (AVPlayer, hls.js 1.6+, Shaka, Media3 1.8+).
        let interstitialsURL = streamURL + "&seam.mode=interstitials"
        let liveInterstitialsURL = liveStreamURL + "&seam.mode=interstitials"
        let conditions = !configuration.conditioning.directory.isEmpty
        let page = try DemoWebRoutes(
            webRoot: "\(samples)/web",
            page: .init(
                contentUrl: servers.contentURL, trackingMode: trackingMode, beaconsUrl: servers.beaconsURL,
                note: "seam demo — origin \(servers.origin.baseURL), ad server \(servers.adServer.baseURL)",
                conditioning: conditions
                    ? servers.conditioningPageConfiguration(prefetchToken: configuration.conditioning.prefetchToken)
                    : nil))
        let conditioningNote =
            conditions
            ? "MP4-only ads are conditioned with ffmpeg into \(configuration.conditioning.directory)\n    (the page's Ads picker: \"MP4-only ad\"; or: curl -s -X POST \(proxy)/v1/creatives/prefetch\(madeToken.map { " -H 'authorization: Bearer \($0)'" } ?? "") -H 'content-type: application/json' -d '{\"contentUrl\":\"\(servers.contentURL)\",\"adTagUrl\":\"\(servers.adServer.baseURL)/vast/vast-no-hls.xml\",\"waitSeconds\":60}')"
            : "MP4-only ads are skipped: \(hasFFmpeg ? "conditioning.directory is empty" : "ffmpeg and ffprobe are not both installed (apt-get install ffmpeg)")"
        print(
            """

            Seam demo is running.
              Stitched stream (VLC, ffplay, Safari, any HLS player):
                \(streamURL)
              The same title with HLS Interstitials (AVPlayer, hls.js 1.6+, Shaka, Media3 1.8+):
                \(interstitialsURL)
              The same title as MPEG-DASH, ads as periods (GStreamer playbin3, dash.js, Shaka, ExoPlayer; ffplay reads one period only):
                \(dashURL)
              Live channel with ad replacement (SCTE-35 cues: \(liveCues)):
                \(liveStreamURL)
              Live channel with HLS Interstitials:
                \(liveInterstitialsURL)
              Live channel as MPEG-DASH, each ad a period (SCTE-35 in an EventStream; GStreamer playbin3 follows it):
                \(liveDASHURL)
              Web page (plays it in the browser's own <video> and shows the ad timeline):
                \(proxy)/demo/
              Watch it as a scripted viewer (ad events as they play; --json for scripts):
                \(CommandLine.arguments.first ?? "seam") watch '\(streamURL)' --speed 10
              Create a session by hand:
                curl -s -X POST \(proxy)/v1/sessions -H 'content-type: application/json' -d '{"url":"\(servers.contentURL)"}'
              A session's plan and story (ad requests, wrappers, verdicts, beacons), by the url
                seam watch prints at its start or the manifestUrl a POST /v1/sessions answers:
                SEAM_DEBUG_TOKEN=\(configuration.debug.token) \(CommandLine.arguments.first ?? "seam") session '<manifestUrl>'
              Announce a 30 s break on the live channel, 20 s from now (sessions of it play it):
                curl -s -X POST \(proxy)/v1/admin/breaks -H 'authorization: Bearer \(configuration.live.breaksToken)' -H 'content-type: application/json' -d '{"channelUrl":"\(servers.liveURL(dialect: liveCues))","startInSeconds":20,"durationSeconds":30}'
              Beacons the demo ad server received:
                \(servers.beaconsURL)
              \(conditioningNote)
            Stop with Ctrl-C.

            """)
        do {
            try await runSeam(
                configuration: configuration, logger: logger,
                extraRoutes: { services in
                    SeamProduct.routes(services) + [DemoPageRoutes(page: page)]
                })
        } catch {
            await servers.stop()
            throw error
        }
        await servers.stop()
    }

    /// Whether `tool` is an executable on `PATH`.
    static func onPath(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// Waits for SIGTERM or SIGINT, so `--upstreams-only` stops its servers gracefully when an
    /// orchestrator stops it (Seam's own command does this through its service group).
    static func untilTerminated() async {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}

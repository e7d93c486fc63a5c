import ArgumentParser
import Foundation
import SeamKit
import SeamWatch

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch content through Seam with a headless player and print every ad event.",
        discussion: """
            Creates a session for CONTENT-URL with SeamKit, plays it with a simulated player (fetching \
            segments as a player would, so server-side beacons fire), and prints each event with the \
            seconds since start and the playhead position: breaks and ads starting and ending, \
            quartiles, skipped breaks, cue points, seeks the ad policy made, expiry and restart. \
            VOD can play faster (--speed); live plays in real time until --stop-after. \
            Exit status: 0 watched to the end, 1 the session or its playlist failed.
            """
    )

    @Argument(
        help:
            "The content's multivariant playlist or MPD URL, or a stream URL through Seam (<seam>/v1/hls/<host>/<path>?seam.* or <seam>/v1/dash/..., as seam demo prints it)."
    )
    var contentURL: String

    @Option(help: "Seam's base URL (default: the stream URL's own, else http://127.0.0.1:8080).")
    var seam: String?

    @Option(help: "Playback speed for VOD (live plays at 1).")
    var speed: Double = 1

    @Option(help: "stitched or interstitials (default: the stream URL's seam.mode, else stitched).")
    var mode: SessionOptions.RenderingMode?

    @Option(help: "server, client or hybrid (Seam's default when left out).")
    var tracking: SessionOptions.TrackingMode?

    @Option(name: .customLong("ad-param"), help: "key=value added to the ad request; repeat.")
    var adParams: [String] = []

    @Option(help: "Content seconds to start at (resume watching).")
    var start: Double = 0

    @Option(
        name: .customLong("stop-after"),
        help: "Stop after this many seconds of playback (live runs until interrupted without it).")
    var stopAfter: Double?

    @Option(
        name: .customLong("seek"), help: "AT:TO — when the playhead reaches AT (stream seconds), seek to TO; repeat.")
    var seeks: [String] = []

    @Option(name: .customLong("fast-forward"), help: "playLastAd, playAll or skipAll.")
    var fastForward: AdPlaybackPolicy.FastForward = .playLastAd

    @Option(help: "skipAll or playAll.")
    var rewind: AdPlaybackPolicy.Rewind = .skipAll

    @Option(name: .customLong("repeat"), help: "oncePerSession or everyTime.")
    var repeatPolicy: AdPlaybackPolicy.Repeat = .oncePerSession

    @Option(name: .customLong("preroll-on-start"), help: "playPreroll or skipPreroll, for --start past the pre-roll.")
    var prerollOnStart: AdPlaybackPolicy.StartPastPreroll = .playPreroll

    @Flag(help: "Do not fetch segments (playlists only; no server-side beacons).")
    var noSegments = false

    @Flag(help: "Stop when the session expires instead of restarting it.")
    var noRestart = false

    @Flag(help: "Also print ad progress (one line per step).")
    var progress = false

    @Flag(help: "One JSON object per line.")
    var json = false

    mutating func run() async throws {
        guard let given = URL(string: contentURL), given.scheme == "http" || given.scheme == "https" else {
            throw refuse("CONTENT-URL must be an absolute http(s) URL: \(contentURL)")
        }
        // A stream URL through Seam names Seam, the origin and the session's options itself.
        let stream: ImplicitStreamURL?
        do {
            stream = try ImplicitStreamURL(given)
        } catch {
            throw refuse("\(error)")
        }
        let content = stream?.contentURL ?? given
        let seam = self.seam ?? stream?.seamBaseURL.absoluteString ?? "http://127.0.0.1:8080"
        guard let base = URL(string: seam), base.scheme == "http" || base.scheme == "https" else {
            throw refuse("--seam must be an absolute http(s) URL: \(seam)")
        }
        let mode: SessionOptions.RenderingMode
        if let chosen = self.mode {
            mode = chosen
        } else if let named = stream?.mode {
            guard let known = SessionOptions.RenderingMode(rawValue: named) else {
                throw refuse("seam.mode is stitched or interstitials, not \(named)")
            }
            mode = known
        } else {
            mode = .stitched
        }
        var tracking = self.tracking
        if tracking == nil, let named = stream?.trackingMode {
            guard let known = SessionOptions.TrackingMode(rawValue: named) else {
                throw refuse("seam.trackingMode is server, client or hybrid, not \(named)")
            }
            tracking = known
        }
        var params: [String: String] = stream?.adParams ?? [:]
        for pair in adParams {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw refuse("--ad-param takes key=value: \(pair)")
            }
            params[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let scripted = try seeks.map { text -> HeadlessViewer.ScriptedSeek in
            let parts = text.split(separator: ":")
            guard parts.count == 2, let at = Double(parts[0]), let to = Double(parts[1]), at >= 0, to >= 0 else {
                throw refuse("--seek takes AT:TO in seconds: \(text)")
            }
            return .init(at: at, to: to)
        }
        let policy = AdPlaybackPolicy(
            fastForward: fastForward, rewind: rewind, startPastPreroll: prerollOnStart, repeat: repeatPolicy)
        let options = HeadlessViewer.Options(
            seamBaseURL: base, contentURL: content,
            session: SessionOptions(
                adParams: params.isEmpty ? nil : params, trackingMode: tracking, renderingMode: mode,
                adPlaybackPolicy: policy),
            speed: speed, startContentTime: start, stopAfter: stopAfter, fetchSegments: !noSegments,
            restartOnExpiry: !noRestart,
            seeks: scripted)
        let asJSON = json
        let withProgress = progress
        do {
            try await HeadlessViewer(options: options).run { event in
                if case .ad(.adProgress) = event.kind, !withProgress { return }
                // Unbuffered, so a script reading the pipe sees each event when it happens.
                FileHandle.standardOutput.write(Data(((asJSON ? event.json : event.line) + "\n").utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("seam watch: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension SessionOptions.RenderingMode: ExpressibleByArgument {}
extension SessionOptions.TrackingMode: ExpressibleByArgument {}
extension AdPlaybackPolicy.FastForward: ExpressibleByArgument {}
extension AdPlaybackPolicy.Rewind: ExpressibleByArgument {}
extension AdPlaybackPolicy.Repeat: ExpressibleByArgument {}
extension AdPlaybackPolicy.StartPastPreroll: ExpressibleByArgument {}

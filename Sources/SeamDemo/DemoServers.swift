import SeamServer
import Logging
import ServiceLifecycle

/// The two upstreams `seam demo` runs next to Seam: the content origin (``DemoOrigin``) and the
/// ad server (``DemoAdServer``), both on loopback by default.
///
/// ```swift
/// let demo = try await DemoServers.start(mediaRoot: "Samples/media", vastRoot: "Samples/vast",
///                                        originPort: 8081, adServerPort: 8082)
/// print(demo.contentURL)   // http://127.0.0.1:8081/media/content/master.m3u8
/// print(demo.vmapURL)      // http://127.0.0.1:8082/vmap  (Seam's ad tag)
/// ...
/// await demo.stop()
/// ```
/// Or add it to a `ServiceGroup` next to Seam: as a `Service` it runs until the group shuts down
/// gracefully (or its task is cancelled), then stops both servers.
package struct DemoServers: Sendable, Service {
    /// Where one server listens.
    package struct Endpoint: Sendable, Equatable {
        package var host: String
        package var port: Int
        /// `http://host:port`, no trailing slash, with a wildcard bind address replaced by
        /// `127.0.0.1` so it can be opened in a browser.
        package var baseURL: String
    }

    /// Everything ``start(_:)`` needs; the defaults run the demo from the repository root.
    package struct Configuration: Sendable {
        package var mediaRoot = "Samples/media"
        package var vastRoot = "Samples/vast"
        package var host = "127.0.0.1"
        /// 0 picks a free port.
        package var originPort = DemoServers.defaultOriginPort
        /// 0 picks a free port.
        package var adServerPort = DemoServers.defaultAdServerPort
        /// The ad server's public base URL (`{{ADS_BASE}}`) when players reach it by another name
        /// than `http://host:port` (a container, a LAN address).
        package var adServerPublicBaseURL: String?
        /// The origin's public base URL, for the same reason.
        package var originPublicBaseURL: String?
        /// When the live channel's segment 0 started (seconds since 1970); nil for two minutes
        /// before start-up, so its window is full at once.
        package var liveEpoch: Double?
        /// The live channels' clock (seconds since 1970); nil for the wall clock. A test that
        /// holds it still sees the same windows on every reload.
        package var liveClock: (@Sendable () -> Double)?
        package var logger = Logger(label: "seam.demo")

        package init() {}
    }

    /// Proposed defaults for `seam demo`: Seam itself on 8080, the origin on 8081, the ad server on 8082.
    package static let defaultProxyPort = 8080
    package static let defaultOriginPort = 8081
    package static let defaultAdServerPort = 8082

    package let origin: Endpoint
    package let adServer: Endpoint
    /// Beacons and ad requests received by the ad server (also at `GET adServer.baseURL/beacons`).
    package let beaconLog: BeaconLog

    /// The demo title's multivariant playlist on the origin.
    package var contentURL: String { origin.baseURL + "/media/content/master.m3u8" }
    /// The same title as MPEG-DASH (`scripts/make-samples.sh`: `Samples/media/content/dash/`).
    package var dashContentURL: String { origin.baseURL + "/media/content/dash/manifest.mpd" }
    /// The VMAP with pre-, mid- and post-roll: the ad tag to give Seam.
    package var vmapURL: String { adServer.baseURL + "/vmap" }
    /// The beacon log as JSON.
    package var beaconsURL: String { adServer.baseURL + "/beacons" }
    /// The origin's live channel (its epoch and variants).
    package let liveChannel: DemoLiveChannel

    /// The live channel's multivariant playlist with cues in `dialect`: a `CueDialect` raw value
    /// (`cueOutIn`, `oatcls`, `scte35`, `splicepoint`, `adobe`, `dateRange`) or `none`.
    package func liveURL(dialect: String) -> String { origin.baseURL + "/live/\(dialect)/master.m3u8" }
    /// The live channel as MPEG-DASH (SCTE-35 splice outs in an `EventStream`).
    package var liveDASHURL: String { origin.baseURL + "/live-dash/manifest.mpd" }

    private let originHandle: DemoServerHandle
    private let adServerHandle: DemoServerHandle

    /// Starts both servers and returns once both listen. Throws ``DemoServerError`` when a folder
    /// is missing or a port cannot be bound (nothing is left running then).
    package static func start(
        mediaRoot: String = "Samples/media", vastRoot: String = "Samples/vast",
        host: String = "127.0.0.1", originPort: Int = defaultOriginPort,
        adServerPort: Int = defaultAdServerPort,
        logger: Logger = Logger(label: "seam.demo")
    ) async throws -> DemoServers {
        var configuration = Configuration()
        configuration.mediaRoot = mediaRoot
        configuration.vastRoot = vastRoot
        configuration.host = host
        configuration.originPort = originPort
        configuration.adServerPort = adServerPort
        configuration.logger = logger
        return try await start(configuration)
    }

    /// Starts both servers with `configuration`; see ``start(mediaRoot:vastRoot:host:originPort:adServerPort:logger:)``.
    package static func start(_ configuration: Configuration) async throws -> DemoServers {
        // Open the folders first: a wrong working directory should fail before any port is taken.
        let origin = try DemoOrigin(
            mediaRoot: configuration.mediaRoot, liveEpoch: configuration.liveEpoch, liveClock: configuration.liveClock)
        let log = BeaconLog()
        let adServer = try DemoAdServer(
            vastRoot: configuration.vastRoot, mediaRoot: configuration.mediaRoot,
            baseURL: configuration.adServerPublicBaseURL, beaconLog: log)

        var originLogger = configuration.logger
        originLogger[metadataKey: "demo.server"] = "origin"
        let originHandle = try await DemoServerHandle.start(
            name: "origin", router: origin.buildRouter(), host: configuration.host,
            port: configuration.originPort, logger: originLogger)

        var adLogger = configuration.logger
        adLogger[metadataKey: "demo.server"] = "ad-server"
        let adServerHandle: DemoServerHandle
        do {
            adServerHandle = try await DemoServerHandle.start(
                name: "ad server", router: adServer.buildRouter(), host: configuration.host,
                port: configuration.adServerPort, logger: adLogger)
        } catch {
            await originHandle.stop()
            throw error
        }

        let adEndpoint = Endpoint(
            host: configuration.host, port: adServerHandle.port,
            baseURL: configuration.adServerPublicBaseURL.map(trimmingSlash)
                ?? baseURL(host: configuration.host, port: adServerHandle.port))
        if configuration.adServerPublicBaseURL == nil {
            adServer.setBaseURL(adEndpoint.baseURL)
        }
        let originEndpoint = Endpoint(
            host: configuration.host, port: originHandle.port,
            baseURL: configuration.originPublicBaseURL.map(trimmingSlash)
                ?? baseURL(host: configuration.host, port: originHandle.port))
        return DemoServers(
            origin: originEndpoint, adServer: adEndpoint, beaconLog: log,
            liveChannel: origin.live.channel,
            originHandle: originHandle, adServerHandle: adServerHandle)
    }

    /// Runs `body` with the servers started, and stops them afterwards whatever happens.
    package static func withRunning<Result: Sendable>(
        _ configuration: Configuration = Configuration(),
        _ body: (DemoServers) async throws -> Result
    ) async throws -> Result {
        let servers = try await start(configuration)
        do {
            let result = try await body(servers)
            await servers.stop()
            return result
        } catch {
            await servers.stop()
            throw error
        }
    }

    /// Stops both servers gracefully (in-flight requests finish) and waits until they have.
    /// Safe to call more than once.
    package func stop() async {
        async let origin: Void = originHandle.stop()
        async let adServer: Void = adServerHandle.stop()
        _ = await (origin, adServer)
    }

    /// `Service`: keeps the servers running until graceful shutdown or cancellation, then stops
    /// them. Throws if a server fails on its own.
    package func run() async throws {
        try await withTaskCancellationOrGracefulShutdownHandler {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await originHandle.wait() }
                    group.addTask { try await adServerHandle.wait() }
                    try await group.waitForAll()
                }
            } catch {
                // One server failed: do not leave the other running on its own.
                await stop()
                throw error
            }
        } onCancelOrGracefulShutdown: {
            // The handler is synchronous; the stop it starts is awaited by the task group above,
            // which only returns once both servers have closed.
            Task { await stop() }
        }
    }

    static func baseURL(host: String, port: Int) -> String {
        let reachable: String
        switch host {
        case "", "0.0.0.0": reachable = "127.0.0.1"
        case "::": reachable = "[::1]"
        default: reachable = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
        return "http://\(reachable):\(port)"
    }

    private static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

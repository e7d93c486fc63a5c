import Foundation
import SeamWire
import Yams

/// Builds a `SeamConfiguration` from, lowest to highest precedence:
/// 1. the defaults in `SeamConfiguration`;
/// 2. a YAML file whose keys mirror the struct (`server:` → `port: 8080`);
/// 3. environment variables, `SEAM_` + section + field in UPPER_SNAKE (`SEAM_ADS_AD_TAG_URL`),
///    lists comma-separated;
/// 4. overrides from the command line, as dotted keys (`server.port` → `9090`).
///
/// Every layer is strict: an unknown key in the file or in the overrides, or a value of the wrong
/// type anywhere, is an error that names the key, where it came from and what is expected. The
/// merged result is then checked as a whole (ports in range, time-outs positive, host lists valid).
///
/// Unknown `SEAM_*` environment variables are *not* errors, because platforms set their own (a
/// Kubernetes service called `seam` injects `SEAM_PORT`, `SEAM_SERVICE_HOST`, ...); they are
/// reported by `unrecognizedEnvironmentVariables()` so the serve command can log them.
package struct ConfigurationLoader: Sendable {
    /// The environment to read, injected so tests do not depend on the process.
    package var environment: [String: String]

    /// The environment variable naming a configuration file when `--config` is not given.
    package static let configFileVariable = "SEAM_CONFIG"

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Loads the file at `configFile` (or `$SEAM_CONFIG` when nil; no file when neither is set),
    /// then the environment, then `overrides`.
    package func load(
        configFile: String? = nil, overrides: [String: String] = [:]
    ) throws(ConfigurationError) -> SeamConfiguration {
        let path = configFile ?? environment[Self.configFileVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let path else {
            return try load(yaml: nil, overrides: overrides)
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(
                .unreadableFile, key: nil, source: "config file \(path)",
                message:
                    "cannot read the file (\(error.localizedDescription)); check the path given to --config or \(Self.configFileVariable)"
            )
        }
        return try load(yaml: text, fileName: path, overrides: overrides)
    }

    /// Loads from YAML text (nil: no file) instead of a path; `fileName` is used in messages.
    package func load(
        yaml: String?, fileName: String = "config file", overrides: [String: String] = [:]
    ) throws(ConfigurationError) -> SeamConfiguration {
        var configuration = SeamConfiguration()
        var origins: [String: String] = [:]
        if let yaml {
            try applyYAML(yaml, fileName: fileName, to: &configuration, origins: &origins)
        }
        for key in ConfigurationKey.all {
            let variable = key.environmentVariable
            guard let value = environment[variable] else { continue }
            let source = "environment variable \(variable)"
            try assign(.scalar(value), to: key, in: &configuration, source: source)
            origins[key.path] = source
        }
        for (path, value) in overrides.sorted(by: { $0.key < $1.key }) {
            let shown = ConfigurationKey.named(path)?.isSecret == true ? "(not shown)" : value
            let source = "command-line override \(path)=\(shown)"
            guard let key = ConfigurationKey.named(path) else {
                throw ConfigurationError(.unknownKey, key: path, source: source, message: Self.unknownKeyMessage(path))
            }
            try assign(.scalar(value), to: key, in: &configuration, source: source)
            origins[key.path] = source
        }
        try Self.validate(configuration, origins: origins)
        return configuration
    }

    /// `SEAM_*` variables that set nothing (typos, or a platform's own variables).
    package func unrecognizedEnvironmentVariables() -> [String] {
        let known = Set(ConfigurationKey.all.map(\.environmentVariable) + [Self.configFileVariable])
        return environment.keys.filter { $0.hasPrefix("SEAM_") && !known.contains($0) }.sorted()
    }

    /// Parses `key=value` as given to `--set`.
    package static func parseOverride(_ text: String) throws(ConfigurationError) -> (key: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ConfigurationError(
                .invalidValue, key: nil, source: "--set \(text)",
                message: "write overrides as key=value, like --set server.port=9090")
        }
        let key = ConfigurationKey.trim(String(text[..<equals]))
        let value = String(text[text.index(after: equals)...])
        guard ConfigurationKey.named(key) != nil else {
            throw ConfigurationError(.unknownKey, key: key, source: "--set \(text)", message: unknownKeyMessage(key))
        }
        return (key, value)
    }

    // MARK: - Layers

    private func assign(
        _ raw: RawConfigurationValue, to key: ConfigurationKey, in configuration: inout SeamConfiguration,
        source: String
    ) throws(ConfigurationError) {
        if let problem = key.assign(&configuration, raw) {
            throw ConfigurationError(
                .invalidValue, key: key.path, source: source,
                message:
                    "\(key.isSecret ? "the value" : raw.display) is not valid: \(problem); \(key.path) takes a \(key.type)"
            )
        }
    }

    private func applyYAML(
        _ yaml: String, fileName: String, to configuration: inout SeamConfiguration,
        origins: inout [String: String]
    ) throws(ConfigurationError) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw ConfigurationError(
                .unreadableFile, key: nil, source: "config file \(fileName)",
                message: "not valid YAML: \(error)")
        }
        guard let root else { return }  // an empty file sets nothing
        func place(_ node: Node) -> String {
            node.mark.map { "config file \(fileName) line \($0.line)" } ?? "config file \(fileName)"
        }
        guard case .mapping(let sections) = root else {
            throw ConfigurationError(
                .invalidValue, key: nil, source: place(root),
                message:
                    "the top level must be a mapping of sections (\(ConfigurationKey.sections.joined(separator: ", ")))"
            )
        }
        var seen: Set<String> = []
        for (sectionNode, sectionValue) in sections {
            let section = sectionNode.string ?? ""
            guard ConfigurationKey.sections.contains(section) else {
                throw ConfigurationError(
                    .unknownKey, key: section, source: place(sectionNode),
                    message:
                        "there is no section \"\(section)\"; the sections are \(ConfigurationKey.sections.joined(separator: ", "))"
                )
            }
            if sectionValue.null != nil { continue }  // `server:` with nothing under it
            guard case .mapping(let fields) = sectionValue else {
                throw ConfigurationError(
                    .invalidValue, key: section, source: place(sectionValue),
                    message:
                        "\(section) must be a mapping of its fields, like \(section):\\n  \(Self.fields(of: section).first ?? "field"): value"
                )
            }
            for (fieldNode, valueNode) in fields {
                let path = section + "." + (fieldNode.string ?? "")
                let source = place(fieldNode)
                guard let key = ConfigurationKey.named(path) else {
                    throw ConfigurationError(
                        .unknownKey, key: path, source: source, message: Self.unknownKeyMessage(path))
                }
                guard seen.insert(path).inserted else {
                    throw ConfigurationError(
                        .invalidValue, key: path, source: source, message: "the key is set twice in the file; keep one")
                }
                let raw = try Self.rawValue(of: valueNode, key: key, source: source)
                try assign(raw, to: key, in: &configuration, source: source)
                origins[path] = source
            }
        }
    }

    private static func rawValue(
        of node: Node, key: ConfigurationKey, source: String
    ) throws(ConfigurationError) -> RawConfigurationValue {
        switch node {
        case .scalar(let scalar):
            if node.null != nil {
                switch key.type {
                case .stringList, .numberList: return .list([])
                default:
                    throw ConfigurationError(
                        .invalidValue, key: key.path, source: source,
                        message: "the key has no value; give a \(key.type) or remove the line")
                }
            }
            return .scalar(scalar.string)
        case .sequence(let sequence):
            var items: [String] = []
            for item in sequence {
                guard case .scalar(let scalar) = item else {
                    throw ConfigurationError(
                        .invalidValue, key: key.path, source: source,
                        message:
                            "list items must be plain values, not nested lists or mappings (\(key.path) is a \(key.type))"
                    )
                }
                items.append(scalar.string)
            }
            return .list(items)
        case .mapping:
            throw ConfigurationError(
                .invalidValue, key: key.path, source: source,
                message: "expected a \(key.type), got a mapping")
        case .alias:
            throw ConfigurationError(
                .invalidValue, key: key.path, source: source,
                message: "YAML aliases are not supported in Seam's configuration; write the value out")
        }
    }

    // MARK: - Whole-configuration checks

    /// Checks what single values cannot show: ranges and the host and network lists.
    package static func validate(
        _ configuration: SeamConfiguration, origins: [String: String] = [:]
    ) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        let server = configuration.server
        guard (0...65535).contains(server.port) else {
            throw fail("server.port", "\(server.port) is not a TCP port; use 1-65535 (0 picks a free port)")
        }
        guard !ConfigurationKey.trim(server.host).isEmpty else {
            throw fail("server.host", "give an address to listen on, like 0.0.0.0 (all interfaces) or 127.0.0.1")
        }
        if !server.publicBaseURL.isEmpty {
            guard (try? UpstreamURL(server.publicBaseURL)) != nil else {
                throw fail(
                    "server.publicBaseURL",
                    "\"\(server.publicBaseURL)\" is not an absolute http(s) URL like https://seam.example.com")
            }
        }
        guard server.maxRequestBodyBytes > 0 else {
            throw fail("server.maxRequestBodyBytes", "must be more than 0 bytes")
        }
        guard server.shutdownTimeoutSeconds > 0, server.shutdownTimeoutSeconds <= 86_400 else {
            throw fail("server.shutdownTimeoutSeconds", "must be more than 0 and at most 86400 seconds")
        }
        guard server.drainSeconds >= 0, server.drainSeconds <= 3_600 else {
            throw fail("server.drainSeconds", "must be 0 to 3600 seconds")
        }
        guard server.idleTimeoutSeconds > 0, server.idleTimeoutSeconds <= 86_400 else {
            throw fail(
                "server.idleTimeoutSeconds",
                "must be more than 0 seconds (75 keeps connections open longer than a load balancer's usual 60 s)")
        }
        guard server.headerReadTimeoutSeconds > 0, server.headerReadTimeoutSeconds <= 86_400 else {
            throw fail(
                "server.headerReadTimeoutSeconds",
                "must be more than 0 seconds (10 is generous for a slow mobile client)")
        }
        guard server.maxConnections >= 1 else {
            throw fail("server.maxConnections", "must be at least 1; keep it below the open-file limit (ulimit -n)")
        }
        for entry in server.trustedProxies where IPNetwork(ConfigurationKey.trim(entry)) == nil {
            throw fail(
                "server.trustedProxies",
                "\"\(entry)\" is not an IP address or CIDR range; list the proxies in front of Seam like 10.0.0.0/8, 127.0.0.1 or fd00::/8"
            )
        }

        if configuration.domains.mode == .custom {
            guard !configuration.domains.hosts.isEmpty else {
                throw fail(
                    "domains.hosts",
                    "domains.mode is custom but no hosts are listed; list hosts (cdn.example.com, *.example.com) or use domains.mode=none"
                )
            }
        }
        do {
            _ = try HostList(configuration.domains.hosts)
        } catch {
            throw fail("domains.hosts", "\(error.description)")
        }
        do {
            _ = try UpstreamPolicy(configuration: configuration)
        } catch {
            throw fail(error.key ?? "upstream", error.message)
        }

        let upstream = configuration.upstream
        let positive: [(String, Double)] = [
            ("upstream.originTimeoutSeconds", upstream.originTimeoutSeconds),
            ("upstream.adMediaTimeoutSeconds", upstream.adMediaTimeoutSeconds),
            ("ads.requestTimeoutSeconds", configuration.ads.requestTimeoutSeconds),
            ("ads.totalBudgetSeconds", configuration.ads.totalBudgetSeconds),
            ("sessions.ttlSeconds", configuration.sessions.ttlSeconds),
            ("sessions.keepAliveSeconds", configuration.sessions.keepAliveSeconds),
            ("beacons.timeoutSeconds", configuration.beacons.timeoutSeconds),
            ("live.defaultBreakSeconds", configuration.live.defaultBreakSeconds),
            ("ads.maxPodSeconds", configuration.ads.maxPodSeconds),
        ]
        // At most a day: every time is turned into a Duration of milliseconds or nanoseconds,
        // and no time-out or break is meant to be longer.
        for (path, value) in positive where !(value > 0 && value <= 86_400) {
            throw fail(
                path, "\(ConfigurationKey.format(value)) is out of range; use more than 0 and at most 86400 seconds")
        }
        let atLeastOne: [(String, Int)] = [
            ("upstream.maxPlaylistBytes", upstream.maxPlaylistBytes),
            ("upstream.maxVASTBytes", upstream.maxVASTBytes),
            ("ads.maxWrapperDepth", configuration.ads.maxWrapperDepth),
            ("sessions.maxSessions", configuration.sessions.maxSessions),
            ("beacons.maxAttempts", configuration.beacons.maxAttempts),
            ("beacons.concurrency", configuration.beacons.concurrency),
            ("live.adRequestConcurrency", configuration.live.adRequestConcurrency),
            ("upstream.originConnectionsPerHost", upstream.originConnectionsPerHost),
            ("upstream.adConnectionsPerHost", upstream.adConnectionsPerHost),
            ("upstream.beaconConnectionsPerHost", upstream.beaconConnectionsPerHost),
            ("ads.maxAdsPerPod", configuration.ads.maxAdsPerPod),
            ("sessions.maxRenditions", configuration.sessions.maxRenditions),
            ("sessions.maxSegmentsPerPlaylist", configuration.sessions.maxSegmentsPerPlaylist),
            ("sessions.maxContentBytes", configuration.sessions.maxContentBytes),
        ]
        for (path, value) in atLeastOne where value < 1 {
            throw fail(path, "must be at least 1")
        }
        let threshold = configuration.ads.personalizationThreshold
        guard threshold >= 0, threshold <= 1 else {
            throw fail(
                "ads.personalizationThreshold",
                "\(ConfigurationKey.format(threshold)) is out of range; use a share of the break from 0 (any ad replaces it) to 1 (only a full break does), e.g. 0.5"
            )
        }
        for (path, url) in [
            ("ads.bumpers.startURL", configuration.ads.bumpers.startURL),
            ("ads.bumpers.endURL", configuration.ads.bumpers.endURL),
        ] where !url.isEmpty {
            guard (try? UpstreamURL(url)) != nil else {
                throw fail(
                    path,
                    "\"\(url)\" is not an absolute http(s) URL like https://cdn.example.com/bumper/master.m3u8 (HLS) or https://cdn.example.com/bumper.mp4; leave it empty for no bumper"
                )
            }
            if BumperSource.isProgressive(url), configuration.conditioning.directory.isEmpty {
                throw fail(
                    path,
                    "\"\(url)\" is an MP4: set conditioning.directory so Seam can condition it for each title's ladder, or give an HLS playlist (.m3u8)"
                )
            }
        }
        for (path, url) in [
            ("ads.bumpers.dashStartURL", configuration.ads.bumpers.dashStartURL),
            ("ads.bumpers.dashEndURL", configuration.ads.bumpers.dashEndURL),
        ] where !url.isEmpty {
            guard (try? UpstreamURL(url)) != nil, ContentFormat.isDASH(url: url) else {
                throw fail(
                    path,
                    "\"\(url)\" is not an absolute http(s) URL of an MPD like https://cdn.example.com/bumper/manifest.mpd; leave it empty for no DASH bumper (or an MP4 in the matching ads.bumpers URL, conditioned for DASH too)"
                )
            }
        }
        guard upstream.maxRedirects >= 0 else {
            throw fail("upstream.maxRedirects", "must be 0 (do not follow) or more")
        }
        if configuration.ads.requestTimeoutSeconds > configuration.ads.totalBudgetSeconds {
            throw fail(
                "ads.requestTimeoutSeconds",
                "\(configuration.ads.requestTimeoutSeconds) s is longer than ads.totalBudgetSeconds (\(configuration.ads.totalBudgetSeconds) s); a single request cannot outlast the whole budget"
            )
        }
        if configuration.sessions.keepAliveSeconds >= configuration.sessions.ttlSeconds {
            throw fail(
                "sessions.keepAliveSeconds",
                "must be shorter than sessions.ttlSeconds, or sessions expire between keep-alives")
        }
        for point in configuration.ads.cuePoints where (point < 0 && point != -1) || point > 10_000_000 {
            throw fail(
                "ads.cuePoints",
                "\(point) is not a cue point; use 0 (pre-roll), -1 (post-roll) or a positive number of seconds")
        }
        let secret = configuration.sessions.idSecret
        if !secret.isEmpty, secret.count < SessionIDKey.minimumSecretLength {
            // The value itself is never quoted: it is a secret.
            throw fail(
                "sessions.idSecret",
                "is \(secret.count) characters long; use at least \(SessionIDKey.minimumSecretLength) random characters (e.g. `openssl rand -hex 32`), or leave it empty to have Seam keep one in sessions.stateDirectory"
            )
        }
        if !configuration.ads.adTagURL.isEmpty, !UpstreamURL.hasHTTPScheme(configuration.ads.adTagURL) {
            throw fail("ads.adTagURL", "the ad tag must be an http(s) URL template")
        }
        for entry in configuration.ads.requestsPerSecond where AdRequestShaper.parse(entry) == nil {
            throw fail(
                "ads.requestsPerSecond",
                "\"\(entry)\" is not host=rate; write each cap as the ad server's host and its requests per second, like ads.example.com=200, or *=500 for every other host (0.001 to 1000000 a second)"
            )
        }
        for rule in configuration.sessions.modeRules {
            do {
                _ = try SessionModeRule(parsing: rule)
            } catch {
                throw fail("sessions.modeRules", error.message)
            }
        }
        try validateLive(configuration.live, origins: origins)
        try validateAnalytics(configuration.analytics, origins: origins)
        try validateStore(configuration.store, origins: origins)
        try validateTracing(configuration.tracing, origins: origins)
        try validateConditioning(configuration.conditioning, origins: origins)
        try validateDebug(configuration.debug, origins: origins)
        // Each new creative asked for costs an ffmpeg job: beyond loopback, only with the token.
        if !configuration.conditioning.directory.isEmpty, configuration.conditioning.prefetchToken.isEmpty,
            !Self.isLoopback(host: configuration.server.host)
        {
            throw ConfigurationError(
                .outOfRange, key: "conditioning.prefetchToken",
                source: origins["conditioning.prefetchToken"] ?? "default",
                message:
                    "conditioning is on (conditioning.directory) and Seam listens beyond loopback (server.host \(configuration.server.host)): set conditioning.prefetchToken (a long random string, e.g. openssl rand -hex 32) so POST /v1/creatives/prefetch is not open to anyone"
            )
        }
    }

    /// The `live` section: cache and staleness times that work together, the slate URL, the schedules.
    static func validateLive(_ live: SeamConfiguration.Live, origins: [String: String]) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        guard live.prerollMaxSeconds == 0 || (live.prerollMaxSeconds >= 2 && live.prerollMaxSeconds <= 600) else {
            throw fail(
                "live.prerollMaxSeconds",
                "\(ConfigurationKey.format(live.prerollMaxSeconds)) is out of range; use 0 (no live pre-roll) or 2 to 600 seconds, like 30"
            )
        }
        guard live.prefetchSeconds >= 0, live.prefetchSeconds <= 3600 else {
            throw fail(
                "live.prefetchSeconds",
                "\(ConfigurationKey.format(live.prefetchSeconds)) is out of range; use 0 (decide each break when it starts) to 3600, like 60 to decide announced breaks a minute ahead"
            )
        }
        guard live.prefetchSpreadSeconds >= 0, live.prefetchSpreadSeconds <= live.prefetchSeconds else {
            throw fail(
                "live.prefetchSpreadSeconds",
                "\(ConfigurationKey.format(live.prefetchSpreadSeconds)) is out of range; use 0 to live.prefetchSeconds (\(ConfigurationKey.format(live.prefetchSeconds))): the spread is a part of the lead"
            )
        }
        if !live.breaksToken.isEmpty, live.breaksToken.count < 16 {
            throw fail(
                "live.breaksToken",
                "is \(live.breaksToken.count) characters; use at least 16 (e.g. openssl rand -hex 32), or leave it empty to keep the break API off"
            )
        }
        guard live.originCacheSeconds > 0, live.originCacheSeconds <= 10 else {
            throw fail(
                "live.originCacheSeconds",
                "\(ConfigurationKey.format(live.originCacheSeconds)) is out of range; use more than 0 and at most 10 seconds (about a third of the origin's target duration, like 1 or 2), or viewers fall behind the live edge"
            )
        }
        guard live.maxStaleSeconds >= 0, live.maxStaleSeconds <= 86_400 else {
            throw fail("live.maxStaleSeconds", "must be 0 (never serve a stale window) or more seconds, at most 86400")
        }
        if live.maxStaleSeconds > 0, live.maxStaleSeconds < live.originCacheSeconds {
            throw fail(
                "live.maxStaleSeconds",
                "\(ConfigurationKey.format(live.maxStaleSeconds)) s is shorter than live.originCacheSeconds (\(ConfigurationKey.format(live.originCacheSeconds)) s), so the last good window would be too old to serve whenever a refresh fails; use 0 to never serve stale windows, or at least \(ConfigurationKey.format(live.originCacheSeconds))"
            )
        }
        if !live.slateURL.isEmpty {
            guard (try? UpstreamURL(live.slateURL)) != nil else {
                throw fail(
                    "live.slateURL",
                    "\"\(live.slateURL)\" is not an absolute http(s) URL like https://cdn.example.com/slate/master.m3u8; leave it empty to fill breaks with content"
                )
            }
        }
        if !live.dashSlateURL.isEmpty {
            guard (try? UpstreamURL(live.dashSlateURL)) != nil, ContentFormat.isDASH(url: live.dashSlateURL) else {
                throw fail(
                    "live.dashSlateURL",
                    "\"\(live.dashSlateURL)\" is not an absolute http(s) URL of an MPD like https://cdn.example.com/slate/manifest.mpd; leave it empty to fill DASH breaks with content"
                )
            }
        }
        for entry in live.schedules {
            do {
                _ = try LiveSchedule.parse(entry)
            } catch {
                throw ConfigurationError(
                    error.kind, key: "live.schedules", source: origins["live.schedules"] ?? "default",
                    message: "schedule \"\(entry)\": \(error.message)")
            }
        }
    }

    /// The `store` section: a PostgreSQL URL Seam can use, sizes and times it can work with.
    static func validateStore(_ store: SeamConfiguration.Store, origins: [String: String]) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        _ = try PostgresStoreSettings(store, source: origins["store.postgresURL"] ?? "default")
        guard (1...1000).contains(store.postgresPoolSize) else {
            throw fail(
                "store.postgresPoolSize",
                "\(store.postgresPoolSize) connections; use 1 to 1000 (10 is plenty for most replicas)")
        }
        guard store.postgresTimeoutSeconds > 0, store.postgresTimeoutSeconds <= 60 else {
            throw fail(
                "store.postgresTimeoutSeconds",
                "\(ConfigurationKey.format(store.postgresTimeoutSeconds)) is out of range; use more than 0 and at most 60 seconds"
            )
        }
        guard store.cacheSeconds >= 0, store.cacheSeconds <= 60 else {
            throw fail(
                "store.cacheSeconds",
                "\(ConfigurationKey.format(store.cacheSeconds)) is out of range; use 0 (always ask PostgreSQL) to 60 seconds"
            )
        }
    }

    /// The `conditioning` section: sizes, counts and times in their ranges.
    /// Whether `host` (`server.host`) listens on loopback only: `localhost`, 127.0.0.0/8 or `::1`.
    package static func isLoopback(host: String) -> Bool {
        var text = ConfigurationKey.trim(host).lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text == "localhost" { return true }
        guard let address = IPAddress(text) else { return false }
        return address.isIPv4 ? IPNetwork("127.0.0.0/8")?.contains(address) == true : address == IPAddress("::1")
    }

    static func validateConditioning(
        _ conditioning: SeamConfiguration.Conditioning, origins: [String: String]
    ) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        guard conditioning.maxBytes >= 1 << 20 else {
            throw fail(
                "conditioning.maxBytes",
                "\(conditioning.maxBytes) bytes cannot hold a conditioned creative; use at least 1048576 (1 MiB)")
        }
        guard (1...64).contains(conditioning.concurrency) else {
            throw fail(
                "conditioning.concurrency",
                "\(conditioning.concurrency) jobs; use 1 to 64 (at most the cores ffmpeg may take from serving)")
        }
        guard (0...100_000).contains(conditioning.queueLimit) else {
            throw fail("conditioning.queueLimit", "\(conditioning.queueLimit) jobs; use 0 to 100000")
        }
        guard (0...64).contains(conditioning.threads) else {
            throw fail("conditioning.threads", "\(conditioning.threads) threads; use 0 (half the cores) to 64")
        }
        guard (0...19).contains(conditioning.niceness) else {
            throw fail(
                "conditioning.niceness", "\(conditioning.niceness); use 0 to 19 (nice's range; higher yields more)")
        }
        for (path, value, limit) in [
            ("conditioning.jobTimeoutSeconds", conditioning.jobTimeoutSeconds, 3600.0),
            ("conditioning.maxInputSeconds", conditioning.maxInputSeconds, 600.0),
            ("conditioning.retryAfterSeconds", conditioning.retryAfterSeconds, 86_400.0),
        ] {
            guard value > 0, value <= limit else {
                throw fail(
                    path,
                    "\(ConfigurationKey.format(value)) is out of range; use more than 0 and at most \(ConfigurationKey.format(limit)) seconds"
                )
            }
        }
        guard (1 << 16...4 << 30).contains(conditioning.maxInputBytes) else {
            throw fail("conditioning.maxInputBytes", "\(conditioning.maxInputBytes) bytes; use 65536 to 4294967296")
        }
        guard (1...10_000).contains(conditioning.prefetchPerMinute) else {
            throw fail(
                "conditioning.prefetchPerMinute", "\(conditioning.prefetchPerMinute) requests a minute; use 1 to 10000")
        }
        if !conditioning.publicBaseURL.isEmpty {
            guard (try? UpstreamURL(conditioning.publicBaseURL)) != nil else {
                throw fail(
                    "conditioning.publicBaseURL",
                    "\"\(conditioning.publicBaseURL)\" is not an absolute http(s) URL like https://cdn.example.com/conditioned"
                )
            }
            guard !conditioning.directory.isEmpty else {
                throw fail(
                    "conditioning.publicBaseURL",
                    "it publishes conditioning.directory, which is not set: set both, or neither")
            }
        }
    }

    /// The `debug` section: a token long enough not to be guessed, a bounded story, a ratio.
    static func validateDebug(_ debug: SeamConfiguration.Debug, origins: [String: String]) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        if !debug.token.isEmpty, debug.token.count < 16 {
            throw fail(
                "debug.token",
                "is \(debug.token.count) characters; use at least 16 (a long random string, e.g. openssl rand -hex 32), or leave it empty to keep the debug route off"
            )
        }
        guard (1...10_000).contains(debug.storyEntries) else {
            throw fail(
                "debug.storyEntries",
                "\(debug.storyEntries) is out of range; keep 1 to 10000 entries per session (200 holds a VOD session's story and a few live breaks)"
            )
        }
        guard debug.logSampleRate >= 0, debug.logSampleRate <= 1 else {
            throw fail(
                "debug.logSampleRate",
                "\(ConfigurationKey.format(debug.logSampleRate)) is out of range; use 0 (no story logged) to 1 (every session's), like 0.01 for one session in a hundred"
            )
        }
    }

    /// The `tracing` section: a collector URL swift-otel can post to, a service name, a ratio.
    static func validateTracing(
        _ tracing: SeamConfiguration.Tracing, origins: [String: String]
    ) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        if !tracing.otlpEndpoint.isEmpty, (try? UpstreamURL(tracing.otlpEndpoint)) == nil {
            throw fail(
                "tracing.otlpEndpoint",
                "\"\(tracing.otlpEndpoint)\" is not an absolute http(s) URL like http://127.0.0.1:4318 (the OTLP/HTTP collector; spans go to its /v1/traces); leave it empty to record no spans"
            )
        }
        if tracing.serviceName.isEmpty {
            throw fail("tracing.serviceName", "is empty; name the service the spans come from, like seam or seam-eu")
        }
        guard tracing.sampleRatio >= 0, tracing.sampleRatio <= 1 else {
            throw fail(
                "tracing.sampleRatio",
                "\(ConfigurationKey.format(tracing.sampleRatio)) is out of range; use 0 (no new trace recorded) to 1 (every trace), like 0.1 for one in ten"
            )
        }
    }

    /// The `analytics` section: collector URLs, the key its privacy mode needs, batch and retry sizes.
    /// A key of the wrong length is a startup error, not a first failed event hours later.
    static func validateAnalytics(
        _ analytics: SeamConfiguration.Analytics, origins: [String: String]
    ) throws(ConfigurationError) {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(.outOfRange, key: path, source: origins[path] ?? "default", message: message)
        }
        for endpoint in analytics.endpoints where (try? UpstreamURL(endpoint)) == nil {
            throw fail(
                "analytics.endpoints",
                "\"\(endpoint)\" is not an absolute http(s) URL like https://collector.example.com/seam; leave the list empty to send no analytics"
            )
        }
        if analytics.privacy == .encrypted || !analytics.encryptionKey.isEmpty {
            do {
                _ = try AnalyticsEncryptionKey(base64: analytics.encryptionKey)
            } catch {
                let mode = analytics.privacy == .encrypted ? "analytics.privacy is encrypted, and " : ""
                throw fail("analytics.encryptionKey", "\(mode)\(error.message)")
            }
        }
        let secret = analytics.hashSecret
        if !secret.isEmpty, secret.count < AnalyticsHashKeys.minimumSecretLength {
            // The value itself is never quoted: it is a secret.
            throw fail(
                "analytics.hashSecret",
                "is \(secret.count) characters long; use at least \(AnalyticsHashKeys.minimumSecretLength) random characters (e.g. `openssl rand -hex 32`), or leave it empty for a random key per process"
            )
        }
        guard analytics.hashRotationSeconds >= 60, analytics.hashRotationSeconds <= 31_622_400 else {
            throw fail(
                "analytics.hashRotationSeconds",
                "\(ConfigurationKey.format(analytics.hashRotationSeconds)) is out of range; use at least 60 seconds and at most a year (86400 is a day)"
            )
        }
        for (path, value) in [
            ("analytics.flushSeconds", analytics.flushSeconds), ("analytics.timeoutSeconds", analytics.timeoutSeconds),
        ]
        where !(value > 0 && value <= 86_400) {
            throw fail(
                path, "\(ConfigurationKey.format(value)) is out of range; use more than 0 and at most 86400 seconds")
        }
        for (path, value) in [
            ("analytics.batchSize", analytics.batchSize), ("analytics.maxAttempts", analytics.maxAttempts),
            ("analytics.queueCapacity", analytics.queueCapacity),
        ] where value < 1 {
            throw fail(path, "must be at least 1")
        }
    }

    // MARK: - Messages

    static func fields(of section: String) -> [String] {
        ConfigurationKey.all.filter { $0.section == section }.map { String($0.path.dropFirst(section.count + 1)) }
    }

    static func unknownKeyMessage(_ path: String) -> String {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, ConfigurationKey.sections.contains(parts[0]) else {
            let section = parts.first ?? path
            let suggestion = closest(to: section, in: ConfigurationKey.sections).map { " (did you mean \($0)?)" } ?? ""
            return
                "there is no section \"\(section)\"\(suggestion); keys look like section.field, with sections \(ConfigurationKey.sections.joined(separator: ", "))"
        }
        let known = fields(of: parts[0])
        let suggestion = closest(to: parts[1], in: known).map { " Did you mean \(parts[0]).\($0)?" } ?? ""
        return "unknown key.\(suggestion) The fields of \(parts[0]) are \(known.joined(separator: ", "))"
    }

    /// The candidate nearest to `word`, for "did you mean" (`Suggestion`).
    static func closest(to word: String, in candidates: [String]) -> String? {
        Suggestion.closest(to: word, in: candidates)
    }
}

extension ConfigurationLoader {
    /// The configuration as a YAML file this loader reads back to the same value
    /// (`seam serve --print-config`).
    package static func renderYAML(_ configuration: SeamConfiguration) -> String {
        var text = ""
        for section in ConfigurationKey.sections {
            text += "\(section):\n"
            for key in ConfigurationKey.all where key.section == section {
                let field = key.path.dropFirst(section.count + 1)
                let value = key.value(in: configuration)
                if key.isSecret {
                    // Never printed; an empty value reads back as "not set".
                    text += "  \(field): \"\"" + (value.isEmpty ? "\n" : "  # set, not shown\n")
                    continue
                }
                let rendered: String
                switch key.type {
                case .string, .choice:
                    rendered = JSONLogHandler.quote(value)
                case .stringList:
                    let items = value.split(separator: ",").map { JSONLogHandler.quote(String($0)) }
                    rendered = "[" + items.joined(separator: ", ") + "]"
                case .numberList:
                    rendered = "[" + value.split(separator: ",").joined(separator: ", ") + "]"
                case .integer, .number, .boolean:
                    rendered = value
                }
                text += "  \(field): \(rendered)\n"
            }
        }
        return text
    }
}

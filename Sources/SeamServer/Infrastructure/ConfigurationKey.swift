/// The type a configuration key accepts, named the way the error messages and the reference name it.
package enum ConfigurationValueType: Sendable, Equatable, CustomStringConvertible {
    case string
    case integer
    case number
    case boolean
    case stringList
    case numberList
    /// A string that must be one of these words.
    case choice([String])

    package var description: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean (true or false)"
        case .stringList: return "list of strings (YAML list, or comma-separated)"
        case .numberList: return "list of numbers (YAML list, or comma-separated)"
        case .choice(let words): return "one of " + words.joined(separator: ", ")
        }
    }
}

/// A configuration value before it is typed: one word, or a list (a YAML sequence).
/// Environment variables and `--set` always give a scalar; lists are split at commas.
enum RawConfigurationValue: Sendable, Equatable {
    case scalar(String)
    case list([String])

    var display: String {
        switch self {
        case .scalar(let text): return "\"\(text)\""
        case .list(let items): return "[" + items.joined(separator: ", ") + "]"
        }
    }
}

/// One settable field of `SeamConfiguration`: its dotted key, environment variable, type, and how to
/// write a value into the struct. The table of these (`ConfigurationKey.all`) is the single list the
/// loader, the environment mapping and the reference documentation follow.
package struct ConfigurationKey: Sendable {
    /// Dotted key, as in YAML and `--set`: `server.port`.
    package let path: String
    package let type: ConfigurationValueType
    /// Writes a typed value; returns nil, or a reason the value does not fit.
    let assign: @Sendable (inout SeamConfiguration, RawConfigurationValue) -> String?
    /// The value in a configuration, rendered as the reference shows defaults.
    let render: @Sendable (SeamConfiguration) -> String
    /// A secret: `--print-config` says whether it is set, never what it is.
    package private(set) var isSecret = false

    /// `SEAM_` + section + field in UPPER_SNAKE: `ads.adTagURL` → `SEAM_ADS_AD_TAG_URL`.
    package var environmentVariable: String {
        "SEAM_" + path.split(separator: ".").map { Self.upperSnake(String($0)) }.joined(separator: "_")
    }

    package var section: String { String(path.prefix { $0 != "." }) }

    /// The key's value in `configuration`, as text (lists comma-separated).
    package func value(in configuration: SeamConfiguration) -> String { render(configuration) }

    /// camelCase → UPPER_SNAKE, keeping acronyms whole: `maxVASTBytes` → `MAX_VAST_BYTES`.
    static func upperSnake(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = previous.isLowercase || previous.isNumber
                let endsAcronym = previous.isUppercase && (next?.isLowercase ?? false)
                if startsWord || endsAcronym { result.append("_") }
            }
            result.append(contentsOf: character.uppercased())
        }
        return result
    }
}

// MARK: - Typed key constructors

extension ConfigurationKey {
    typealias Path<Value> = WritableKeyPath<SeamConfiguration, Value> & Sendable

    static func string(_ path: String, _ keyPath: Path<String>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .string,
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected a string, got a list" }
                configuration[keyPath: keyPath] = text
                return nil
            }, render: { $0[keyPath: keyPath] })
    }

    /// A string that must not be shown (`--print-config` prints whether it is set, not the value).
    static func secret(_ path: String, _ keyPath: Path<String>) -> ConfigurationKey {
        var key = string(path, keyPath)
        key.isSecret = true
        return key
    }

    static func choice(_ path: String, _ keyPath: Path<String>, _ words: [String]) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .choice(words),
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected a single word, got a list" }
                let word = Self.trim(text).lowercased()
                guard words.contains(word) else { return "expected one of \(words.joined(separator: ", "))" }
                configuration[keyPath: keyPath] = word
                return nil
            }, render: { $0[keyPath: keyPath] })
    }

    static func choice<Value: RawRepresentable & Sendable>(
        _ path: String, _ keyPath: Path<Value>, cases: [Value]
    ) -> ConfigurationKey where Value.RawValue == String {
        let words = cases.map(\.rawValue)
        return ConfigurationKey(
            path: path, type: .choice(words),
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected a single word, got a list" }
                guard let value = Value(rawValue: Self.trim(text).lowercased()) else {
                    return "expected one of \(words.joined(separator: ", "))"
                }
                configuration[keyPath: keyPath] = value
                return nil
            }, render: { $0[keyPath: keyPath].rawValue })
    }

    static func integer(_ path: String, _ keyPath: Path<Int>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .integer,
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected an integer, got a list" }
                guard let value = Int(Self.trim(text).filter { $0 != "_" }) else {
                    return "expected an integer (like 8080)"
                }
                configuration[keyPath: keyPath] = value
                return nil
            }, render: { String($0[keyPath: keyPath]) })
    }

    static func number(_ path: String, _ keyPath: Path<Double>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .number,
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected a number, got a list" }
                guard let value = Double(Self.trim(text)), value.isFinite else {
                    return "expected a number (like 2 or 2.5)"
                }
                configuration[keyPath: keyPath] = value
                return nil
            }, render: { Self.format($0[keyPath: keyPath]) })
    }

    static func boolean(_ path: String, _ keyPath: Path<Bool>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .boolean,
            assign: { configuration, raw in
                guard case .scalar(let text) = raw else { return "expected true or false, got a list" }
                switch Self.trim(text).lowercased() {
                case "true", "yes", "on", "1": configuration[keyPath: keyPath] = true
                case "false", "no", "off", "0": configuration[keyPath: keyPath] = false
                default: return "expected true or false"
                }
                return nil
            }, render: { String($0[keyPath: keyPath]) })
    }

    static func stringList(_ path: String, _ keyPath: Path<[String]>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .stringList,
            assign: { configuration, raw in
                configuration[keyPath: keyPath] = raw.items
                return nil
            }, render: { $0[keyPath: keyPath].joined(separator: ",") })
    }

    static func numberList(_ path: String, _ keyPath: Path<[Double]>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, type: .numberList,
            assign: { configuration, raw in
                var values: [Double] = []
                for item in raw.items {
                    guard let value = Double(item), value.isFinite else {
                        return "expected a list of numbers, and \"\(item)\" is not a number"
                    }
                    values.append(value)
                }
                configuration[keyPath: keyPath] = values
                return nil
            }, render: { $0[keyPath: keyPath].map(Self.format).joined(separator: ",") })
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

// MARK: - The table

extension ConfigurationKey {
    /// Every field of `SeamConfiguration`, in reference order. A test checks this against the struct
    /// (by reflection) and against `docs/configuration.md`, so a new field cannot be forgotten.
    package static let all: [ConfigurationKey] = [
        .string("server.host", \.server.host),
        .integer("server.port", \.server.port),
        .string("server.publicBaseURL", \.server.publicBaseURL),
        .boolean("server.gzip", \.server.gzip),
        .integer("server.maxRequestBodyBytes", \.server.maxRequestBodyBytes),
        .choice(
            "server.logLevel", \.server.logLevel,
            ["trace", "debug", "info", "notice", "warning", "error", "critical"]),
        .choice("server.logFormat", \.server.logFormat, ["text", "json"]),
        .number("server.shutdownTimeoutSeconds", \.server.shutdownTimeoutSeconds),
        .number("server.drainSeconds", \.server.drainSeconds),
        .number("server.idleTimeoutSeconds", \.server.idleTimeoutSeconds),
        .number("server.headerReadTimeoutSeconds", \.server.headerReadTimeoutSeconds),
        .integer("server.maxConnections", \.server.maxConnections),
        .stringList("server.trustedProxies", \.server.trustedProxies),

        .choice("domains.mode", \.domains.mode, cases: [.all, .none, .custom]),
        .stringList("domains.hosts", \.domains.hosts),

        .stringList("upstream.allowedHosts", \.upstream.allowedHosts),
        .boolean("upstream.allowPrivateNetworks", \.upstream.allowPrivateNetworks),
        .stringList("upstream.allowedNetworks", \.upstream.allowedNetworks),
        .number("upstream.originTimeoutSeconds", \.upstream.originTimeoutSeconds),
        .number("upstream.adMediaTimeoutSeconds", \.upstream.adMediaTimeoutSeconds),
        .integer("upstream.maxPlaylistBytes", \.upstream.maxPlaylistBytes),
        .integer("upstream.maxVASTBytes", \.upstream.maxVASTBytes),
        .integer("upstream.maxRedirects", \.upstream.maxRedirects),
        .integer("upstream.originConnectionsPerHost", \.upstream.originConnectionsPerHost),
        .integer("upstream.adConnectionsPerHost", \.upstream.adConnectionsPerHost),
        .integer("upstream.beaconConnectionsPerHost", \.upstream.beaconConnectionsPerHost),

        .string("ads.adTagURL", \.ads.adTagURL),
        .number("ads.requestTimeoutSeconds", \.ads.requestTimeoutSeconds),
        .number("ads.totalBudgetSeconds", \.ads.totalBudgetSeconds),
        .integer("ads.maxWrapperDepth", \.ads.maxWrapperDepth),
        .numberList("ads.cuePoints", \.ads.cuePoints),
        .choice("ads.trackingMode", \.ads.trackingMode, ["server", "client", "hybrid"]),
        .integer("ads.maxAdsPerPod", \.ads.maxAdsPerPod),
        .number("ads.maxPodSeconds", \.ads.maxPodSeconds),
        .number("ads.personalizationThreshold", \.ads.personalizationThreshold),
        .string("ads.bumpers.startURL", \.ads.bumpers.startURL),
        .string("ads.bumpers.endURL", \.ads.bumpers.endURL),
        .string("ads.bumpers.dashStartURL", \.ads.bumpers.dashStartURL),
        .string("ads.bumpers.dashEndURL", \.ads.bumpers.dashEndURL),
        .boolean("ads.bumpers.preroll", \.ads.bumpers.preroll),
        .stringList("ads.requestsPerSecond", \.ads.requestsPerSecond),

        .number("sessions.ttlSeconds", \.sessions.ttlSeconds),
        .number("sessions.keepAliveSeconds", \.sessions.keepAliveSeconds),
        .integer("sessions.maxSessions", \.sessions.maxSessions),
        .integer("sessions.maxRenditions", \.sessions.maxRenditions),
        .integer("sessions.maxSegmentsPerPlaylist", \.sessions.maxSegmentsPerPlaylist),
        .integer("sessions.maxContentBytes", \.sessions.maxContentBytes),
        .secret("sessions.idSecret", \.sessions.idSecret),
        .string("sessions.stateDirectory", \.sessions.stateDirectory),
        .choice("sessions.defaultMode", \.sessions.defaultMode, ["stitched", "interstitials"]),
        .stringList("sessions.modeRules", \.sessions.modeRules),
        .boolean("sessions.adIdDecoration", \.sessions.adIdDecoration),
        .boolean("sessions.removeOriginCues", \.sessions.removeOriginCues),

        .number("beacons.timeoutSeconds", \.beacons.timeoutSeconds),
        .integer("beacons.maxAttempts", \.beacons.maxAttempts),
        .integer("beacons.concurrency", \.beacons.concurrency),

        .number("live.originCacheSeconds", \.live.originCacheSeconds),
        .number("live.maxStaleSeconds", \.live.maxStaleSeconds),
        .integer("live.adRequestConcurrency", \.live.adRequestConcurrency),
        .string("live.slateURL", \.live.slateURL),
        .string("live.dashSlateURL", \.live.dashSlateURL),
        .number("live.defaultBreakSeconds", \.live.defaultBreakSeconds),
        .stringList("live.schedules", \.live.schedules),
        .secret("live.breaksToken", \.live.breaksToken),
        .number("live.prefetchSeconds", \.live.prefetchSeconds),
        .choice("live.earlyReturn", \.live.earlyReturn, ["cut", "complete"]),
        .number("live.prerollMaxSeconds", \.live.prerollMaxSeconds),
        .number("live.prefetchSpreadSeconds", \.live.prefetchSpreadSeconds),

        .stringList("analytics.endpoints", \.analytics.endpoints),
        .choice("analytics.privacy", \.analytics.privacy, cases: AnalyticsPrivacyMode.allCases),
        .secret("analytics.encryptionKey", \.analytics.encryptionKey),
        .secret("analytics.hashSecret", \.analytics.hashSecret),
        .number("analytics.hashRotationSeconds", \.analytics.hashRotationSeconds),
        .integer("analytics.batchSize", \.analytics.batchSize),
        .number("analytics.flushSeconds", \.analytics.flushSeconds),
        .number("analytics.timeoutSeconds", \.analytics.timeoutSeconds),
        .integer("analytics.maxAttempts", \.analytics.maxAttempts),
        .integer("analytics.queueCapacity", \.analytics.queueCapacity),

        .secret("store.postgresURL", \.store.postgresURL),
        .integer("store.postgresPoolSize", \.store.postgresPoolSize),
        .number("store.postgresTimeoutSeconds", \.store.postgresTimeoutSeconds),
        .number("store.cacheSeconds", \.store.cacheSeconds),
        .boolean("store.notifications", \.store.notifications),

        .string("conditioning.directory", \.conditioning.directory),
        .integer("conditioning.maxBytes", \.conditioning.maxBytes),
        .integer("conditioning.concurrency", \.conditioning.concurrency),
        .integer("conditioning.queueLimit", \.conditioning.queueLimit),
        .integer("conditioning.niceness", \.conditioning.niceness),
        .boolean("conditioning.idlePriority", \.conditioning.idlePriority),
        .integer("conditioning.threads", \.conditioning.threads),
        .number("conditioning.jobTimeoutSeconds", \.conditioning.jobTimeoutSeconds),
        .number("conditioning.maxInputSeconds", \.conditioning.maxInputSeconds),
        .integer("conditioning.maxInputBytes", \.conditioning.maxInputBytes),
        .number("conditioning.retryAfterSeconds", \.conditioning.retryAfterSeconds),
        .string("conditioning.publicBaseURL", \.conditioning.publicBaseURL),
        .secret("conditioning.prefetchToken", \.conditioning.prefetchToken),
        .integer("conditioning.prefetchPerMinute", \.conditioning.prefetchPerMinute),

        .string("tracing.otlpEndpoint", \.tracing.otlpEndpoint),
        .string("tracing.serviceName", \.tracing.serviceName),
        .number("tracing.sampleRatio", \.tracing.sampleRatio),

        .secret("debug.token", \.debug.token),
        .integer("debug.storyEntries", \.debug.storyEntries),
        .number("debug.logSampleRate", \.debug.logSampleRate),
    ]

    static let byPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })

    package static func named(_ path: String) -> ConfigurationKey? { byPath[path] }

    /// The section names, in order.
    package static let sections: [String] = {
        var seen: [String] = []
        for key in all where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }()
}

extension RawConfigurationValue {
    /// A list as items: a YAML list as it is, a scalar split at commas (empty items dropped).
    var items: [String] {
        switch self {
        case .list(let items): return items.map(ConfigurationKey.trim)
        case .scalar(let text):
            return text.split(separator: ",").map { ConfigurationKey.trim(String($0)) }.filter { !$0.isEmpty }
        }
    }
}

extension ConfigurationKey {
    /// Leading and trailing white space removed (values from env files often carry a stray space).
    static func trim(_ text: String) -> String {
        var view = Substring(text)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}

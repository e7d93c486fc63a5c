/// The rules every upstream request and every redirect hop is checked against, and the time and
/// size limits per purpose. A plain value built from configuration, so the rules are tested
/// without a network.
package struct UpstreamPolicy: Sendable {
    /// Empty: any host that resolves to a public address.
    package var allowedHosts: HostList
    package var allowPrivateNetworks: Bool
    /// Private ranges opened one by one (an origin at 10.1.2.3 without opening all of 10/8).
    package var allowedNetworks: [IPNetwork]
    package var maxRedirects: Int
    package var timeouts: [UpstreamPurpose: Duration]
    package var sizeLimits: [UpstreamPurpose: Int]

    /// Beacon answers are thrown away; anything bigger than this is not a beacon answer.
    package static let beaconSizeLimit = 64 * 1024

    package init(configuration: SeamConfiguration) throws(ConfigurationError) {
        do {
            allowedHosts = try HostList(configuration.upstream.allowedHosts)
        } catch {
            throw ConfigurationError(
                .invalidValue, key: "upstream.allowedHosts", source: "configuration", message: error.description)
        }
        var networks: [IPNetwork] = []
        for entry in configuration.upstream.allowedNetworks {
            guard let network = IPNetwork(ConfigurationKey.trim(entry)) else {
                throw ConfigurationError(
                    .invalidValue, key: "upstream.allowedNetworks", source: "configuration",
                    message: "\"\(entry)\" is not a CIDR range; write it like 10.1.2.0/24 or fd00::/64")
            }
            networks.append(network)
        }
        allowedNetworks = networks
        allowPrivateNetworks = configuration.upstream.allowPrivateNetworks
        maxRedirects = configuration.upstream.maxRedirects
        timeouts = [
            .origin: Self.duration(seconds: configuration.upstream.originTimeoutSeconds),
            .adMedia: Self.duration(seconds: configuration.upstream.adMediaTimeoutSeconds),
            .adDecision: Self.duration(seconds: configuration.ads.requestTimeoutSeconds),
            .beacon: Self.duration(seconds: configuration.beacons.timeoutSeconds),
            .analytics: Self.duration(seconds: configuration.analytics.timeoutSeconds),
            .conditioning: Self.duration(seconds: configuration.conditioning.jobTimeoutSeconds),
        ]
        sizeLimits = [
            .origin: configuration.upstream.maxPlaylistBytes,
            .adMedia: configuration.upstream.maxPlaylistBytes,
            .adDecision: configuration.upstream.maxVASTBytes,
            .beacon: Self.beaconSizeLimit,
            .analytics: Self.beaconSizeLimit,
            .conditioning: configuration.conditioning.maxInputBytes,
        ]
    }

    package func timeout(for purpose: UpstreamPurpose) -> Duration { timeouts[purpose] ?? .seconds(5) }

    package func sizeLimit(for purpose: UpstreamPurpose) -> Int { sizeLimits[purpose] ?? Self.beaconSizeLimit }

    /// The host rule: when `upstream.allowedHosts` is set, the host must be on it.
    package func checkHost(_ host: String) throws(UpstreamError) {
        guard allowedHosts.isEmpty || allowedHosts.contains(host) else {
            throw .blocked(
                host: host,
                reason:
                    "the host is not in upstream.allowedHosts; add it (or a *.suffix wildcard for it) to fetch from it")
        }
    }

    /// The address rule: every address the host resolves to must be public, unless configuration
    /// opens private networks (all of them, or listed ranges).
    package func checkAddress(_ address: IPAddress, host: String) throws(UpstreamError) {
        let category = AddressClassifier.classify(address)
        if category.isGlobal || allowPrivateNetworks { return }
        if allowedNetworks.contains(where: { $0.contains(address) }) { return }
        let target = host == address.description ? "\(address) is" : "it resolves to \(address),"
        throw .blocked(
            host: host,
            reason:
                "\(target) \(category.phrase); Seam does not fetch from loopback, link-local or private addresses (SSRF protection). Set upstream.allowPrivateNetworks=true, or list the range in upstream.allowedNetworks, if this origin is meant to be reachable"
        )
    }
}

extension UpstreamPolicy {
    /// Seconds as a `Duration`, with non-positive and non-finite values clamped to one millisecond
    /// so a bad value can never mean "wait forever".
    static func duration(seconds value: Double) -> Duration {
        guard value.isFinite, value > 0 else { return .milliseconds(1) }
        return .nanoseconds(Int64(min(value, 86_400) * 1_000_000_000))
    }
}

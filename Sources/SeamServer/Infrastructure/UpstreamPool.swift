/// The connection pools Seam keeps upstream, one per kind of work, each sized for it: the origin
/// (session starts and live reloads), the ad side (ad requests and creative playlists, as many as
/// live break decisions run at once) and beacons (as many as are sent at once). A burst on one
/// side never takes the connections of another.
package enum UpstreamPool: String, Sendable, CaseIterable {
    case origin
    case ads
    case beacons

    package init(_ purpose: UpstreamPurpose) {
        switch purpose {
        case .origin: self = .origin
        case .adDecision, .adMedia, .conditioning: self = .ads
        // Analytics batches are few and small: they share the beacons' background pool.
        case .beacon, .analytics: self = .beacons
        }
    }

    /// The configuration key that sizes this pool, for messages that tell the operator what to raise.
    package var setting: String {
        switch self {
        case .origin: return "upstream.originConnectionsPerHost"
        case .ads: return "upstream.adConnectionsPerHost"
        case .beacons: return "upstream.beaconConnectionsPerHost"
        }
    }

    /// Connections to one host at once, from configuration.
    package func connectionsPerHost(_ configuration: SeamConfiguration) -> Int {
        switch self {
        case .origin: return configuration.upstream.originConnectionsPerHost
        case .ads: return configuration.upstream.adConnectionsPerHost
        case .beacons: return configuration.upstream.beaconConnectionsPerHost
        }
    }
}

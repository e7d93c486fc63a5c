import Foundation

/// Sends client-side beacons. The engine decides which URLs and how often (once per ad per
/// session); this only sends them, so tests can count what would have gone out.
public protocol BeaconFiring: Sendable {
    func fire(_ urls: [URL]) async
}

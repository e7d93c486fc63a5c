import Foundation

/// The client-side beacons fired for one set of breaks, shared by the players that show them:
/// a main session and its picture-in-picture sessions share their breaks (Seam gives them the
/// same decisions), so an ad's `impression` counts once even when both windows play it.
public final class BeaconLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var fired: Set<String> = []

    public init() {}

    /// True the first time `key` (`break/ad/event`) is claimed.
    public func claim(_ key: String) -> Bool {
        lock.withLock { fired.insert(key).inserted }
    }

    /// How many beacons were claimed.
    public var count: Int { lock.withLock { fired.count } }
}

import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fires beacons as plain GETs through `URLSession`. A beacon that fails is not retried (ad
/// servers count what reaches them; a late duplicate is worse than a miss) but is counted.
public final class URLSessionBeaconFiring: BeaconFiring, @unchecked Sendable {
    private let session: URLSession
    private let lock = NSLock()
    private var sentCount = 0
    private var failedCount = 0

    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Beacons answered with a 2xx or 3xx status.
    public var sent: Int { lock.withLock { sentCount } }
    /// Beacons that got no answer or an error status.
    public var failures: Int { lock.withLock { failedCount } }

    public func fire(_ urls: [URL]) async {
        await withTaskGroup(of: Bool.self) { group in
            for url in urls {
                group.addTask { [session] in
                    var request = URLRequest(url: url)
                    request.httpMethod = "GET"
                    guard let (_, response) = try? await session.data(for: request),
                        let status = (response as? HTTPURLResponse)?.statusCode
                    else { return false }
                    return (200..<400).contains(status)
                }
            }
            for await ok in group {
                lock.withLock { if ok { sentCount += 1 } else { failedCount += 1 } }
            }
        }
    }
}

import SeamServer
import Foundation

/// Everything the demo ad server was asked: beacons (`/track/...`) and ad requests (`/vast...`,
/// `/vmap`), in arrival order.
///
/// The end-to-end tests assert on this ("each beacon exactly once in server mode", "the ad request
/// carried `X-Device-IP`"), through `GET /beacons` or directly on the actor when they run the
/// servers in-process. It can also make the next beacons fail, to test Seam's bounded retries.
public actor BeaconLog {
    /// One request to `/track/...`.
    public struct Beacon: Sendable, Codable, Equatable {
        /// Position in arrival order over beacons and ad requests together, from 1.
        public var sequence: Int
        public var method: String
        /// The request path, percent-encoded as received: `/track/ad1/impression`.
        public var path: String
        /// The raw query string without `?` (`cb=12345`), or `""`.
        public var query: String
        /// ISO 8601 UTC time with milliseconds.
        public var at: String
        /// Second path segment: the ad or break id (`ad1`, `preroll`, `wrapper`), when present.
        public var adId: String?
        /// Third path segment: the event (`impression`, `start`, `firstQuartile`, ...), when present.
        public var event: String?
        /// The status the ad server answered (2xx, or the injected failure).
        public var status: Int
        /// `user-agent`, `x-device-ip`, `x-device-user-agent`, `x-forwarded-for` when sent.
        public var headers: [String: String]
    }

    /// One request to `/vast...` or `/vmap`.
    public struct AdRequest: Sendable, Codable, Equatable {
        public var sequence: Int
        public var method: String
        public var path: String
        public var query: String
        public var at: String
        /// `X-Device-IP` as sent by Seam, if any.
        public var deviceIP: String?
        /// `X-Device-User-Agent` as sent by Seam, if any.
        public var deviceUserAgent: String?
        /// Every request header, names lowercased (repeated headers joined with `, `), so tests can
        /// check forwarded `adTagHeaders` and consent headers too.
        public var headers: [String: String]
    }

    /// What `GET /beacons` answers.
    public struct Snapshot: Sendable, Codable, Equatable {
        public var beacons: [Beacon]
        public var adRequests: [AdRequest]
        /// Beacon path → number of times received: the "exactly once" check in one look-up.
        public var counts: [String: Int]
    }

    private var beacons: [Beacon] = []
    private var adRequests: [AdRequest] = []
    private var nextSequence = 1
    private var pendingFailures: (remaining: Int, status: Int) = (0, 500)
    /// Oldest entries are dropped beyond this, so a demo left running for days stays small.
    private let capacity: Int

    public init(capacity: Int = 5_000) {
        self.capacity = max(1, capacity)
    }

    /// Records a beacon and returns the status to answer: 200/204, or the next injected failure.
    @discardableResult
    public func recordBeacon(method: String, path: String, query: String, headers: [String: String],
                             at date: Date = Date()) -> Int {
        var status = method == "GET" || method == "HEAD" ? 200 : 204
        if pendingFailures.remaining > 0 {
            pendingFailures.remaining -= 1
            status = pendingFailures.status
        }
        let segments = path.split(separator: "/").map(String.init)
        let beacon = Beacon(sequence: takeSequence(), method: method, path: path, query: query,
                            at: date.iso8601Milliseconds,
                            adId: segments.count > 1 ? segments[1] : nil,
                            event: segments.count > 2 ? segments[2] : nil,
                            status: status, headers: headers)
        beacons.append(beacon)
        if beacons.count > capacity { beacons.removeFirst(beacons.count - capacity) }
        return status
    }

    /// Records an ad request with all its headers (names lowercased).
    public func recordAdRequest(method: String, path: String, query: String, headers: [String: String],
                                at date: Date = Date()) {
        let request = AdRequest(sequence: takeSequence(), method: method, path: path, query: query,
                                at: date.iso8601Milliseconds,
                                deviceIP: headers["x-device-ip"], deviceUserAgent: headers["x-device-user-agent"],
                                headers: headers)
        adRequests.append(request)
        if adRequests.count > capacity { adRequests.removeFirst(adRequests.count - capacity) }
    }

    /// Makes the next `count` beacons answer `status` (they are still recorded, with that status).
    public func failNextBeacons(_ count: Int, status: Int = 500) {
        pendingFailures = (max(0, count), status)
    }

    /// Forgets everything recorded and any pending failures.
    public func clear() {
        beacons.removeAll()
        adRequests.removeAll()
        pendingFailures = (0, 500)
    }

    public func snapshot() -> Snapshot {
        Snapshot(beacons: beacons, adRequests: adRequests,
                 counts: beacons.reduce(into: [:]) { $0[$1.path, default: 0] += 1 })
    }

    /// Beacons received for `path` (`/track/ad1/impression`), ignoring the query string.
    public func count(path: String) -> Int {
        beacons.reduce(0) { $0 + ($1.path == path ? 1 : 0) }
    }

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }
}

import SeamServer
import Foundation

/// Everything the demo ad server was asked: beacons (`/track/...`) and ad requests (`/vast...`,
/// `/vmap`), in arrival order.
///
/// The end-to-end tests assert on this ("each beacon exactly once in server mode", "the ad request
/// carried `X-Device-IP`"), through `GET /beacons` or directly on the actor when they run the
/// servers in-process. It can also make the next beacons fail, to test Seam's bounded retries.
package actor BeaconLog {
    /// One request to `/track/...`.
    package struct Beacon: Sendable, Codable, Equatable {
        /// Position in arrival order over beacons and ad requests together, from 1.
        package var sequence: Int
        package var method: String
        /// The request path, percent-encoded as received: `/track/ad1/impression`.
        package var path: String
        /// The raw query string without `?` (`cb=12345`), or `""`.
        package var query: String
        /// ISO 8601 UTC time with milliseconds.
        package var at: String
        /// Second path segment: the ad or break id (`ad1`, `preroll`, `wrapper`), when present.
        package var adId: String?
        /// Third path segment: the event (`impression`, `start`, `firstQuartile`, ...), when present.
        package var event: String?
        /// The status the ad server answered (2xx, or the injected failure).
        package var status: Int
        /// `user-agent`, `x-device-ip`, `x-device-user-agent`, `x-forwarded-for` when sent.
        package var headers: [String: String]
    }

    /// One request to `/vast...` or `/vmap`.
    package struct AdRequest: Sendable, Codable, Equatable {
        package var sequence: Int
        package var method: String
        package var path: String
        package var query: String
        package var at: String
        /// `X-Device-IP` as sent by Seam, if any.
        package var deviceIP: String?
        /// `X-Device-User-Agent` as sent by Seam, if any.
        package var deviceUserAgent: String?
        /// Every request header, names lowercased (repeated headers joined with `, `), so tests can
        /// check forwarded `adTagHeaders` and consent headers too.
        package var headers: [String: String]
    }

    /// What `GET /beacons` answers.
    package struct Snapshot: Sendable, Codable, Equatable {
        package var beacons: [Beacon]
        package var adRequests: [AdRequest]
        /// Beacon path → number of times received: the "exactly once" check in one look-up.
        package var counts: [String: Int]
    }

    private var beacons: [Beacon] = []
    private var adRequests: [AdRequest] = []
    private var nextSequence = 1
    private var pendingFailures: (remaining: Int, status: Int) = (0, 500)
    /// Oldest entries are dropped beyond this, so a demo left running for days stays small.
    private let capacity: Int

    package init(capacity: Int = 5_000) {
        self.capacity = max(1, capacity)
    }

    /// Records a beacon and returns the status to answer: 200/204, or the next injected failure.
    @discardableResult
    package func recordBeacon(
        method: String, path: String, query: String, headers: [String: String],
        at date: Date = Date()
    ) -> Int {
        var status = method == "GET" || method == "HEAD" ? 200 : 204
        if pendingFailures.remaining > 0 {
            pendingFailures.remaining -= 1
            status = pendingFailures.status
        }
        let segments = path.split(separator: "/").map(String.init)
        let beacon = Beacon(
            sequence: takeSequence(), method: method, path: path, query: query,
            at: date.iso8601Milliseconds,
            adId: segments.count > 1 ? segments[1] : nil,
            event: segments.count > 2 ? segments[2] : nil,
            status: status, headers: headers)
        beacons.append(beacon)
        if beacons.count > capacity { beacons.removeFirst(beacons.count - capacity) }
        return status
    }

    /// Records an ad request with all its headers (names lowercased).
    package func recordAdRequest(
        method: String, path: String, query: String, headers: [String: String],
        at date: Date = Date()
    ) {
        let request = AdRequest(
            sequence: takeSequence(), method: method, path: path, query: query,
            at: date.iso8601Milliseconds,
            deviceIP: headers["x-device-ip"], deviceUserAgent: headers["x-device-user-agent"],
            headers: headers)
        adRequests.append(request)
        if adRequests.count > capacity { adRequests.removeFirst(adRequests.count - capacity) }
    }

    /// Makes the next `count` beacons answer `status` (they are still recorded, with that status).
    package func failNextBeacons(_ count: Int, status: Int = 500) {
        pendingFailures = (max(0, count), status)
    }

    /// Forgets everything recorded and any pending failures.
    package func clear() {
        beacons.removeAll()
        adRequests.removeAll()
        pendingFailures = (0, 500)
    }

    package func snapshot() -> Snapshot {
        Snapshot(
            beacons: beacons, adRequests: adRequests,
            counts: beacons.reduce(into: [:]) { $0[$1.path, default: 0] += 1 })
    }

    /// Beacons received for `path` (`/track/ad1/impression`), ignoring the query string.
    package func count(path: String) -> Int {
        beacons.reduce(0) { $0 + ($1.path == path ? 1 : 0) }
    }

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }
}

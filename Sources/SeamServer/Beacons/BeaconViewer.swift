/// The viewer a server-side request is made for. SSAI requests leave from Seam's address, so ad
/// servers and trackers attribute them by the headers VAST 4.x defines for server-side requests:
/// `X-Device-IP` and `X-Device-User-Agent`, with `X-Forwarded-For` and `User-Agent` carrying the
/// same for those that read only the common ones. Ad requests (`AdRequestHeaders`) and beacons
/// (`BeaconDispatcher`) send the same headers, so an impression is counted for the device the ad
/// was chosen for.
package struct BeaconViewer: Sendable, Equatable {
    /// The viewer's address, as `RequestAddressing.deviceIP` worked it out (never the client's word).
    package var deviceIP: String?
    /// The player's `User-Agent`.
    package var userAgent: String?

    package init(deviceIP: String?, userAgent: String?) {
        self.deviceIP = deviceIP
        self.userAgent = userAgent
    }

    /// Nobody known: the request goes with Seam's own `User-Agent` only.
    package static let unknown = BeaconViewer(deviceIP: nil, userAgent: nil)

    /// The headers, each value one every HTTP stack sends as it is (others are left out).
    package var headers: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let ip = deviceIP, !ip.isEmpty, AdRequestHeaders.isSafeValue(ip) {
            headers.append(("X-Device-IP", ip))
            headers.append(("X-Forwarded-For", ip))
        }
        if let userAgent, !userAgent.isEmpty, AdRequestHeaders.isSafeValue(userAgent) {
            headers.append(("X-Device-User-Agent", userAgent))
            headers.append(("User-Agent", userAgent))
        }
        return headers
    }
}

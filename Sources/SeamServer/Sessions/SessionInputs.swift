import Stitching

/// The parts of an incoming request a session is built from.
package struct SessionInputs: Sendable {
    package var request: SessionRequest
    package var deviceIP: String?
    package var userAgent: String?
    /// Where players reach Seam, e.g. `http://127.0.0.1:8080`.
    package var baseURL: String

    package init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
        self.request = request
        self.deviceIP = deviceIP
        self.userAgent = userAgent
        self.baseURL = baseURL
    }

    /// Who tracks ad progress: the request's choice, else the configured default (`ads.trackingMode`).
    func trackingMode(default configured: String) -> TrackingMode {
        request.trackingMode(default: configured)
    }
}

import Stitching

/// The parts of an incoming request a session is built from.
public struct SessionInputs: Sendable {
    public var request: SessionRequest
    public var deviceIP: String?
    public var userAgent: String?
    /// Where players reach Seam, e.g. `http://127.0.0.1:8080`.
    public var baseURL: String

    public init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
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

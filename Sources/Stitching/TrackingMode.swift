/// Who tracks ad progress: Seam (beacons when ad segments are fetched), the player (from the
/// tracking JSON), or both split (Seam fires impressions, the player the rest).
public enum TrackingMode: String, Sendable, Codable, CaseIterable {
    case server, client, hybrid

    /// Whether Seam itself fires `event` (an `AdProgressEvent` name, or `breakStart`/`breakEnd`).
    public func seamFires(_ event: String) -> Bool {
        switch self {
        case .server: return true
        case .client: return false
        case .hybrid: return event == "impression"
        }
    }

    /// Whether ad segment URIs go through Seam (so fetching them fires beacons): not when the
    /// player tracks everything itself.
    public var routesAdSegments: Bool { self != .client }
}

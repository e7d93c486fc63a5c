import SeamWire

/// Who tracks ad progress (`TrackingMode`, SeamWire): what each mode means for the engine.
extension TrackingMode {
    /// Whether Seam itself fires `event` (an `AdProgressEvent` name, or `breakStart`/`breakEnd`).
    public func seamFires(_ event: String) -> Bool {
        switch self {
        case .server: return true
        case .client: return false
        case .hybrid: return event == "impression"
        }
    }

    /// Whether the ad segment URIs of a rendition of `kind` go through Seam, so that fetching
    /// them fires beacons: the one rule for every rendering (stitched VOD and live, interstitial
    /// assets). Not when the player tracks everything itself, and never for subtitles (players
    /// fetch WebVTT ahead of the picture, or not at all, so their fetches say nothing of what
    /// the viewer saw).
    public func routesAdSegments(in kind: RenditionKey.Kind) -> Bool {
        self != .client && kind != .subtitles
    }
}

// The tracking JSON moved to SeamWire (shared with SeamKit); re-exported here so the engine, the
// server and their tests keep naming `TrackingDocument` without a new import.
@_exported import SeamWire

extension TrackingDocument {
    /// Records both renderings of the session and which one it was created with.
    public mutating func describeRenderings(urls: SessionURLs, mode: SessionMode) {
        self.mode = mode
        renderings = [
            Rendering(mode: .stitched, manifestUrl: urls.multivariant),
            Rendering(mode: .interstitials, manifestUrl: urls.interstitialsMultivariant),
        ]
    }
}

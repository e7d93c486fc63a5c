extension AssetList {
    /// Where in an asset list a player begins that starts playback `_HLS_start_offset` seconds
    /// after its interstitial's start (a live join inside a break).
    public struct JoinPoint: Sendable, Equatable {
        /// The first asset the player plays (its index in `ASSETS`); the assets before it are
        /// passed by, never fetched.
        public var asset: Int
        /// Seconds into that asset where its playback starts.
        public var time: Double

        public init(asset: Int, time: Double) {
            self.asset = asset
            self.time = time
        }
    }

    /// The join point of a player `offset` seconds into the interstitial, as the players that
    /// send `_HLS_start_offset` place it: the list describes the break from its start (each
    /// asset begins where the `DURATION`s before it end), assets that end at or before the offset
    /// are passed by, and the asset the offset falls in starts `offset` minus its start into it
    /// (hls.js `createAssetPlayer`, Shaka's interstitial ad manager). nil when the offset is at
    /// or past the list's end: nothing of it plays.
    ///
    /// This is why Seam answers the same list whatever the offset: a list cut at the offset by
    /// the server would be placed from the break's start by those players too, so they would
    /// pass by the ads it kept (Shaka) or leave the interstitial (hls.js).
    public func joinPoint(at offset: Double) -> JoinPoint? {
        guard offset.isFinite else { return nil }
        var start = 0.0
        for (index, asset) in assets.enumerated() {
            let end = Self.milliseconds(start + asset.duration)
            if end > offset { return JoinPoint(asset: index, time: Self.milliseconds(max(0, offset - start))) }
            start = end
        }
        return nil
    }
}

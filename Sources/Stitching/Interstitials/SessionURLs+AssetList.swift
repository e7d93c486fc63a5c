/// The asset-list URL of an interstitial break: `<session>/assets/<breakId>.json`. The session is
/// in the path, not the query, because Media3 sends neither `_HLS_primary_id` nor
/// `_HLS_start_offset` and some players drop a query they did not write.
extension SessionURLs {
    public func assetList(_ id: InterstitialBreakID) -> String {
        session + "/assets/" + id.text + ".json"
    }
}

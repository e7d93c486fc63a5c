/// The asset-list URL of an interstitial break: `<session>/assets/<breakId>.json`. The session is
/// in the path, not the query, because Media3 sends neither `_HLS_primary_id` nor
/// `_HLS_start_offset` and some players drop a query they did not write.
extension SessionURLs {
    public func assetList(_ id: InterstitialBreakID) -> String {
        session + "/assets/" + id.text + ".json"
    }

    /// Reads a path Seam wrote for an asset list (`/v1/sessions/<id>/assets/<breakId>.json`,
    /// without query): the session id and the break, or nil for anything else. Kept apart from
    /// `resource(atPath:)` so the routes that switch over `Resource` are untouched until they
    /// serve asset lists.
    public static func assetList(atPath path: Substring) -> (sessionID: Substring, breakID: InterstitialBreakID)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].isEmpty, parts[1] == "v1", parts[2] == "sessions", !parts[3].isEmpty,
              parts[4] == "assets", parts[5].hasSuffix(".json"),
              let id = InterstitialBreakID(parts[5].dropLast(5)) else { return nil }
        return (parts[3], id)
    }
}

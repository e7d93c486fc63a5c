/// How Seam tells an MPEG-DASH title from an HLS one, shared by the server and SeamKit so the
/// client leaves out what a DASH session refuses (the HLS Interstitials policy) before asking.
public enum ContentFormat {
    /// A content `url` whose path ends in `.mpd` (any letter case; the query and fragment
    /// aside) is MPEG-DASH; any other is HLS.
    public static func isDASH(url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        return path.lowercased().hasSuffix(".mpd")
    }
}

/// Every URL of one session, built and read in one place: the multivariant and media playlists,
/// the ad segments that fire beacons when fetched, the tracking JSON, and the empty WebVTT file
/// that stands in for an ad's subtitles. VOD assembly and the live renderer build them; the
/// routes read them back with the same rules, so a URL Seam did not write is never understood.
public struct SessionURLs: Sendable, Hashable {
    /// Where players reach Seam, e.g. `http://127.0.0.1:8080` (no trailing slash).
    public let baseURL: String
    public let sessionID: String
    /// `<baseURL>/v1/sessions/<id>`: every session URL starts with it. Built once: a live reload
    /// writes one ad segment URL per ad segment in its window.
    public let session: String

    public init(baseURL: String, sessionID: String) {
        self.baseURL = baseURL
        self.sessionID = sessionID
        session = baseURL + "/v1/sessions/" + sessionID
    }

    public var multivariant: String { session + "/master.m3u8" }

    /// The stitched MPD of a DASH session.
    public var dashManifest: String { session + "/manifest.mpd" }

    /// The interstitials rendering of the session: the content with one interstitial date range
    /// per break (`InterstitialRenderer`).
    public var interstitialsMultivariant: String { session + "/interstitials/master.m3u8" }

    public func interstitialsMedia(_ key: RenditionKey) -> String {
        session + "/interstitials/media/" + key.path + ".m3u8"
    }

    /// The multivariant playlist of one ad as an interstitial asset.
    public func adAsset(_ address: AdAssetAddress) -> String {
        session + "/adplaylist/" + String(address.pod) + "/" + String(address.ad) + "/master.m3u8"
    }

    /// One rendition of one ad as an interstitial asset.
    public func adAssetMedia(_ address: AdAssetAddress, _ key: RenditionKey) -> String {
        session + "/adplaylist/" + String(address.pod) + "/" + String(address.ad) + "/media/" + key.path + ".m3u8"
    }

    /// An ad asset's segment: `<session>/adplaylist/<pod>/<ad>/media/<rendition>/<segment><ext>`,
    /// the same segment (and beacons) as `adSegment` names. The asset's media playlist lists it
    /// relative (`adAssetSegmentReference`), so the playlist's bytes hold no session and are the
    /// same for every session that plays that creative in that rendition.
    public func adAssetSegment(_ address: AdSegmentAddress, sourceURI: String) -> String {
        session + "/adplaylist/" + String(address.pod) + "/" + String(address.ad) + "/media/"
            + Self.adAssetSegmentReference(address, sourceURI: sourceURI)
    }

    /// `adAssetSegment` relative to the asset's media playlist (`<rendition>/<segment><ext>`).
    public static func adAssetSegmentReference(_ address: AdSegmentAddress, sourceURI: String) -> String {
        address.rendition.path + "/" + String(address.segment) + extensionSuffix(sourceURI)
    }

    public var tracking: String { session + "/tracking" }

    public func media(_ key: RenditionKey) -> String { session + "/media/" + key.path + ".m3u8" }

    /// The empty WebVTT file, for subtitle renditions during ads.
    public var emptySubtitles: String { baseURL + Self.emptySubtitlesPath }

    public static let emptySubtitlesPath = "/v1/assets/empty.vtt"

    /// Stands for `emptySubtitles` in what many sessions share (a live channel's fitted creatives
    /// and slate): those must not hold one viewer's host. A session swaps it for its own URL when
    /// it renders (`segmentURI(_:)`). Not an http(s) URI, so no creative's segment is ever taken for it.
    public static let emptySubtitlesPlaceholder = "seam-asset:empty.vtt"

    /// `uri` as this session lists it: the placeholder becomes the session's empty WebVTT URL.
    public func segmentURI(_ uri: String) -> String {
        uri == Self.emptySubtitlesPlaceholder ? emptySubtitles : uri
    }

    /// `<session>/ad/<pod>/<ad>/<rendition>/<segment><ext>`, where `<ext>` is the creative
    /// segment's own extension (`.ts`, `.m4s`, ...: some players look at it), or nothing.
    public func adSegment(_ address: AdSegmentAddress, sourceURI: String) -> String {
        // Appended into one string of its final size: a live render writes one per ad segment it
        // lists, on every reload.
        let rendition = address.rendition.path
        let suffix = Self.extensionSuffix(sourceURI)
        var uri = ""
        uri.reserveCapacity(session.utf8.count + rendition.utf8.count + suffix.utf8.count + 40)
        uri += session
        uri += "/ad/"
        uri += String(address.pod)
        uri += "/"
        uri += String(address.ad)
        uri += "/"
        uri += rendition
        uri += "/"
        uri += String(address.segment)
        uri += suffix
        return uri
    }

    // MARK: Reading

    /// The rendition named by a media playlist's file name without `.m3u8` (`v0`).
    public static func rendition(_ name: Substring) -> RenditionKey? {
        RenditionKey(name)
    }

    /// The ad segment named by the path components after `ad/`: the segment's file name may carry
    /// any extension (the number before its first dot counts). Numbers are plain decimals.
    public static func adSegment(
        pod: Substring, ad: Substring, rendition: Substring, segment: Substring
    ) -> AdSegmentAddress? {
        let number = segment.firstIndex(of: ".").map { segment[..<$0] } ?? segment
        guard let pod = index(pod), let ad = index(ad), let rendition = RenditionKey(rendition),
            let segment = index(number)
        else { return nil }
        return AdSegmentAddress(pod: pod, ad: ad, rendition: rendition, segment: segment)
    }

    /// The ad asset named by the path components after `adplaylist/`.
    public static func adAsset(pod: Substring, ad: Substring) -> AdAssetAddress? {
        guard let pod = index(pod), let ad = index(ad) else { return nil }
        return AdAssetAddress(pod: pod, ad: ad)
    }

    /// The rendition of a media playlist file name Seam wrote (`v0.m3u8`).
    static func playlistRendition(_ file: Substring) -> RenditionKey? {
        guard file.hasSuffix(".m3u8") else { return nil }
        return rendition(file.dropLast(5))
    }

    /// What a session path names.
    public enum Resource: Sendable, Hashable {
        case multivariant
        case media(RenditionKey)
        case adSegment(AdSegmentAddress)
        case tracking
        case interstitialsMultivariant
        case interstitialsMedia(RenditionKey)
        case assetList(InterstitialBreakID)
        case adAsset(AdAssetAddress)
        case adAssetMedia(AdAssetAddress, RenditionKey)
        /// An ad segment as an interstitial asset lists it: the same segment as `adSegment`.
        case adAssetSegment(AdSegmentAddress)
    }

    /// Reads a path Seam wrote (`/v1/sessions/<id>/...`, without query): the session id and the
    /// resource, or nil for anything else.
    public static func resource(atPath path: Substring) -> (sessionID: Substring, resource: Resource)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "sessions", !parts[3].isEmpty else {
            return nil
        }
        let id = parts[3]
        let rest = parts[4...]
        switch rest.count {
        case 1 where rest[rest.startIndex] == "master.m3u8":
            return (id, .multivariant)
        case 1 where rest[rest.startIndex] == "tracking":
            return (id, .tracking)
        case 2 where rest[rest.startIndex] == "media":
            guard let key = playlistRendition(rest[rest.startIndex + 1]) else { return nil }
            return (id, .media(key))
        case 2 where rest[rest.startIndex] == "interstitials" && rest[rest.startIndex + 1] == "master.m3u8":
            return (id, .interstitialsMultivariant)
        case 3 where rest[rest.startIndex] == "interstitials" && rest[rest.startIndex + 1] == "media":
            guard let key = playlistRendition(rest[rest.startIndex + 2]) else { return nil }
            return (id, .interstitialsMedia(key))
        case 2 where rest[rest.startIndex] == "assets":
            let file = rest[rest.startIndex + 1]
            guard file.hasSuffix(".json"), let breakID = InterstitialBreakID(file.dropLast(5)) else { return nil }
            return (id, .assetList(breakID))
        case 4 where rest[rest.startIndex] == "adplaylist" && rest[rest.startIndex + 3] == "master.m3u8":
            guard let address = adAsset(pod: rest[rest.startIndex + 1], ad: rest[rest.startIndex + 2]) else {
                return nil
            }
            return (id, .adAsset(address))
        case 6 where rest[rest.startIndex] == "adplaylist" && rest[rest.startIndex + 3] == "media":
            let start = rest.startIndex
            guard
                let address = adSegment(
                    pod: rest[start + 1], ad: rest[start + 2], rendition: rest[start + 4],
                    segment: rest[start + 5])
            else { return nil }
            return (id, .adAssetSegment(address))
        case 5 where rest[rest.startIndex] == "adplaylist" && rest[rest.startIndex + 3] == "media":
            let start = rest.startIndex
            guard let address = adAsset(pod: rest[start + 1], ad: rest[start + 2]),
                let key = playlistRendition(rest[start + 4])
            else { return nil }
            return (id, .adAssetMedia(address, key))
        case 5 where rest[rest.startIndex] == "ad":
            let start = rest.startIndex
            guard
                let address = adSegment(
                    pod: rest[start + 1], ad: rest[start + 2], rendition: rest[start + 3],
                    segment: rest[start + 4])
            else { return nil }
            return (id, .adSegment(address))
        default:
            return nil
        }
    }

    /// A non-negative decimal of at most 9 digits as Seam writes it (no sign, spaces or leading
    /// zeros): pods, ads and segments.
    static func index(_ text: Substring) -> Int? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 9, bytes.first != UInt8(ascii: "0") || bytes.count == 1,
            bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `.ts`, `.m4s`, ... of a segment URI (for players that look at it), or "" when there is
    /// none or it is odd (longer than 4 letters, or a dot in a directory name). Runs for every ad
    /// segment of every live reload, so it scans bytes.
    public static func extensionSuffix(_ uri: String) -> String {
        let bytes = uri.utf8
        var end = bytes.endIndex
        if let query = bytes.firstIndex(of: UInt8(ascii: "?")) { end = query }
        var index = end
        while index > bytes.startIndex {
            let previous = bytes.index(before: index)
            switch bytes[previous] {
            case UInt8(ascii: "."):
                let length = bytes.distance(from: previous, to: end)
                guard length > 1, length <= 5 else { return "" }
                return String(uri[previous..<end])
            case UInt8(ascii: "/"):
                return ""
            default:
                index = previous
            }
        }
        return ""
    }
}

/// A parsed VAST response: the ads it offers, or the reason it offers none.
///
/// Parse one with ``VASTParser``. A response with no `Ad` is the IAB "no ad" answer; its
/// document-level ``errorURLs`` are the beacons to fire (with error code 303 after a wrapper).
public struct VASTDocument: Sendable, Equatable {
    /// The `version` attribute as written (e.g. `"4.2"`); nil when the ad server left it out.
    public var version: String?
    /// The ads in document order.
    public var ads: [VASTAd]
    /// Document-level `Error` URLs, sent when no ad is returned.
    public var errorURLs: [String]
    /// Problems the lenient parser stepped over (skipped elements, unreadable values).
    public var diagnostics: [VASTDiagnostic]

    public init(
        version: String? = nil, ads: [VASTAd] = [], errorURLs: [String] = [], diagnostics: [VASTDiagnostic] = []
    ) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.diagnostics = diagnostics
    }

    /// Parses a VAST document with the default limits. See ``VASTParser``.
    public init(parsing data: [UInt8]) throws(VASTParseError) {
        self = try VASTParser().parse(data)
    }

    /// True when the response holds no ad (the IAB "no fill" response).
    public var isEmpty: Bool { ads.isEmpty }

    /// The ad pod: ads that carry a `sequence`, in sequence order (ties keep document order).
    public var podAds: [VASTAd] {
        ads.enumerated()
            .compactMap { offset, ad in ad.sequence.map { (sequence: $0, offset: offset, ad: ad) } }
            .sorted { ($0.sequence, $0.offset) < ($1.sequence, $1.offset) }
            .map(\.ad)
    }

    /// The buffet: stand-alone ads without a `sequence`, in document order.
    public var standaloneAds: [VASTAd] { ads.filter { $0.sequence == nil } }

    /// True when the response is an ad pod (at least one ad has a `sequence`).
    public var isPod: Bool { ads.contains { $0.sequence != nil } }

    /// The ads in the order an SSAI break plays them: the pod when there is one, else the buffet.
    public var playbackAds: [VASTAd] { isPod ? podAds : standaloneAds }
}

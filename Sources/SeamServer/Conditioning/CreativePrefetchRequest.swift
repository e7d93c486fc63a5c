/// The JSON body of `POST /v1/creatives/prefetch`: the title whose ladder the creatives are
/// conditioned for, and the creatives, named by an ad tag (VAST or VMAP, decided as a session's
/// would be) or listed. Decoded strictly: an unknown field is refused, naming it.
struct CreativePrefetchRequest: Sendable, Decodable, Equatable {
    /// The title's playlist (multivariant or media): the ladder comes from it.
    var contentUrl: String
    /// A VAST or VMAP URL; its MP4-only ads are conditioned.
    var adTagUrl: String?
    /// MP4 creatives by URL.
    var creatives: [Creative]?
    /// How long the answer may wait for the jobs to end (0 to `maxWaitSeconds`; default 0:
    /// answer at once, and ask again to follow them).
    var waitSeconds: Double?

    struct Creative: Sendable, Decodable, Equatable {
        var url: String
        /// `registry:value`, as the VAST's `UniversalAdId` names the creative. A creative is kept
        /// by its universal ad id when its VAST has one, else by its URL: give it here when the
        /// ad server sends one, or sessions will not find the prefetched result.
        var universalAdId: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case url, universalAdId }

        init(url: String, universalAdId: String? = nil) {
            self.url = url
            self.universalAdId = universalAdId
        }

        init(from decoder: any Decoder) throws {
            try CreativePrefetchRequest.refuseUnknown(CodingKeys.self, in: decoder, what: "a creative")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            universalAdId = try container.decodeIfPresent(String.self, forKey: .universalAdId)
        }
    }

    /// The longest `waitSeconds` honoured: an HTTP answer held longer is cut by proxies.
    static let maxWaitSeconds = 120.0
    /// The most creatives one request lists.
    static let maxCreatives = 20

    enum CodingKeys: String, CodingKey, CaseIterable { case contentUrl, adTagUrl, creatives, waitSeconds }

    init(contentUrl: String, adTagUrl: String? = nil, creatives: [Creative]? = nil, waitSeconds: Double? = nil) {
        self.contentUrl = contentUrl
        self.adTagUrl = adTagUrl
        self.creatives = creatives
        self.waitSeconds = waitSeconds
    }

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknown(CodingKeys.self, in: decoder, what: "the prefetch request")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contentUrl = try container.decode(String.self, forKey: .contentUrl)
        adTagUrl = try container.decodeIfPresent(String.self, forKey: .adTagUrl)
        creatives = try container.decodeIfPresent([Creative].self, forKey: .creatives)
        waitSeconds = try container.decodeIfPresent(Double.self, forKey: .waitSeconds)
    }

    static func refuseUnknown<Keys: CodingKey & CaseIterable>(
        _ keys: Keys.Type, in decoder: any Decoder, what: String
    ) throws {
        guard let fields = try? decoder.container(keyedBy: AdPolicy.AnyKey.self) else { return }
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = fields.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw SeamError(
                .invalidRequest,
                "\(what) has no field \(SessionRequest.quoted(unknown)); its fields are "
                    + Keys.allCases.map { "\"\($0.stringValue)\"" }.joined(separator: ", "))
        }
    }

    /// Refuses what cannot be acted on, before anything is fetched.
    func validate() throws(SeamError) {
        guard (try? UpstreamURL(contentUrl)) != nil else {
            throw SeamError(
                .invalidPlaybackURL,
                "contentUrl must be an absolute http(s) URL of the title's HLS playlist; got \(SessionRequest.quoted(contentUrl))"
            )
        }
        if let adTagUrl, (try? UpstreamURL(adTagUrl)) == nil {
            throw SeamError(
                .invalidRequest,
                "adTagUrl must be an absolute http(s) URL of a VAST or VMAP document; got \(SessionRequest.quoted(adTagUrl))"
            )
        }
        let creatives = self.creatives ?? []
        guard adTagUrl != nil || !creatives.isEmpty else {
            throw SeamError(
                .invalidRequest,
                "name what to condition: adTagUrl (a VAST or VMAP URL) or creatives ([{\"url\": \"https://.../ad.mp4\"}])"
            )
        }
        guard creatives.count <= Self.maxCreatives else {
            throw SeamError(
                .invalidRequest, "creatives lists \(creatives.count); at most \(Self.maxCreatives) per request")
        }
        for creative in creatives {
            guard (try? UpstreamURL(creative.url)) != nil else {
                throw SeamError(
                    .invalidRequest,
                    "each creative's url must be an absolute http(s) URL of an MP4; got \(SessionRequest.quoted(creative.url))"
                )
            }
            if let id = creative.universalAdId, id.isEmpty || id.count > 256 || !id.contains(":") {
                throw SeamError(
                    .invalidRequest,
                    "universalAdId must be registry:value as the VAST's UniversalAdId gives it (idRegistry, then the value), at most 256 characters; got \(SessionRequest.quoted(id))"
                )
            }
        }
        if let waitSeconds, !(waitSeconds >= 0 && waitSeconds <= Self.maxWaitSeconds) {
            throw SeamError(.invalidRequest, "waitSeconds must be 0 to \(Int(Self.maxWaitSeconds)); got \(waitSeconds)")
        }
    }
}

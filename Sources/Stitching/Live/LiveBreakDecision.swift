/// What one live session plays in one break, as the session record keeps it: the ads the ad
/// server chose that can play here, how they and the slate fill the break, and why ads were left
/// out. No media: each ad's creative URL names its playlists, which the session's channel keeps
/// for all its viewers (so a record stays a few hundred bytes, and another replica taking the
/// session up fetches them again by URL).
public struct LiveBreakDecision: Sendable, Codable, Equatable, LiveSessionDecision {
    public var breakNumber: Int
    /// Everything else, in one allocation that copies share: the viewers of a channel mostly get
    /// the same answer for a break, and a session keeps only its break number and a reference
    /// once the channel has shared the body (`shareBody`, with `LiveChannel`'s decision interner).
    /// Inline, a decision and its ads cost every session about 600 bytes (BENCHMARKS.md, live
    /// session heap).
    private var storage: Storage

    /// The usable ads in pod order (`LiveBreakLayout.Slot.Source.ad(ad:)` indexes them); nil for
    /// those the layout left out, which need nothing kept.
    public var ads: [LiveAd?] {
        get { storage.body.ads }
        set { storage = storage.with { $0.ads = newValue } }
    }
    public var layout: LiveBreakLayout {
        get { storage.body.layout }
        set { storage = storage.with { $0.layout = newValue } }
    }
    public var skipReason: AvailSkipReason? {
        get { storage.body.skipReason }
        set { storage = storage.with { $0.skipReason = newValue } }
    }
    public var detail: String? {
        get { storage.body.detail }
        set { storage = storage.with { $0.detail = newValue } }
    }
    public var skippedAds: [BreakPlan.SkippedAd] {
        get { storage.body.skippedAds }
        set { storage = storage.with { $0.skippedAds = newValue } }
    }
    /// VMAP `breakStart` / `breakEnd` beacons.
    public var breakStartURLs: [String] {
        get { storage.body.breakStartURLs }
        set { storage = storage.with { $0.breakStartURLs = newValue } }
    }
    public var breakEndURLs: [String] {
        get { storage.body.breakEndURLs }
        set { storage = storage.with { $0.breakEndURLs = newValue } }
    }
    /// Decided before the break opened (`live.prefetchSeconds`); nil: at the break.
    public var prefetched: Bool? {
        get { storage.body.prefetched }
        set { storage = storage.with { $0.prefetched = newValue } }
    }
    /// The creative URL of each bumper the layout plays (`.bumper` slots), as configured in
    /// `bumperConfiguredURLs`; nil: none (and in records written before bumpers).
    public var bumperURLs: [Bumper.Position: String]? {
        get { storage.body.bumperURLs }
        set { storage = storage.with { $0.bumperURLs = newValue } }
    }
    public var bumperConfiguredURLs: [Bumper.Position: String]? {
        get { storage.body.bumperConfiguredURLs }
        set { storage = storage.with { $0.bumperConfiguredURLs = newValue } }
    }

    public init(
        breakNumber: Int, ads: [LiveAd?], layout: LiveBreakLayout, skipReason: AvailSkipReason? = nil,
        detail: String? = nil, skippedAds: [BreakPlan.SkippedAd] = [], breakStartURLs: [String] = [],
        breakEndURLs: [String] = []
    ) {
        self.breakNumber = breakNumber
        storage = Storage(
            Body(
                ads: ads, layout: layout, skipReason: skipReason, detail: detail, skippedAds: skippedAds,
                breakStartURLs: breakStartURLs, breakEndURLs: breakEndURLs))
    }

    /// What a decision says besides its break number.
    fileprivate struct Body: Sendable, Hashable {
        var ads: [LiveAd?]
        var layout: LiveBreakLayout
        var skipReason: AvailSkipReason?
        var detail: String?
        var skippedAds: [BreakPlan.SkippedAd]
        var breakStartURLs: [String]
        var breakEndURLs: [String]
        var prefetched: Bool?
        var bumperURLs: [Bumper.Position: String]?
        var bumperConfiguredURLs: [Bumper.Position: String]?
    }

    /// Read-only once made: a change makes a new one (decisions are built once, by a few sets).
    fileprivate final class Storage: Sendable {
        let body: Body
        init(_ body: Body) { self.body = body }

        func with(_ change: (inout Body) -> Void) -> Storage {
            var body = body
            change(&body)
            return Storage(body)
        }
    }

    /// A decision's body as a value to share: equal when the bodies are, whichever allocation
    /// holds them (so an interner of these gives back one allocation for equal answers).
    package struct Shared: Sendable, Hashable {
        fileprivate let storage: Storage

        package static func == (a: Shared, b: Shared) -> Bool {
            a.storage === b.storage || a.storage.body == b.storage.body
        }

        package func hash(into hasher: inout Hasher) { hasher.combine(storage.body) }
    }

    /// Shares this decision's body with other sessions' equal ones: `intern` gives back the
    /// equal body already held (a channel's interner), and only the allocation changes.
    package mutating func shareBody(_ intern: (Shared) -> Shared) {
        let held = intern(Shared(storage: storage))
        assert(held.storage === storage || held.storage.body == storage.body, "an interner gives back an equal body")
        storage = held.storage
    }

    /// Whether two decisions hold one allocation (for the tests of what is shared).
    package func sharesBody(with other: LiveBreakDecision) -> Bool { storage === other.storage }

    public static func == (a: LiveBreakDecision, b: LiveBreakDecision) -> Bool {
        a.breakNumber == b.breakNumber && (a.storage === b.storage || a.storage.body == b.storage.body)
    }

    // The record's form is the one these fields had when they were stored inline.
    private enum CodingKeys: String, CodingKey {
        case breakNumber, ads, layout, skipReason, detail, skippedAds, breakStartURLs, breakEndURLs, prefetched,
            bumperURLs, bumperConfiguredURLs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breakNumber = try container.decode(Int.self, forKey: .breakNumber)
        storage = Storage(
            Body(
                ads: try container.decode([LiveAd?].self, forKey: .ads),
                layout: try container.decode(LiveBreakLayout.self, forKey: .layout),
                skipReason: try container.decodeIfPresent(AvailSkipReason.self, forKey: .skipReason),
                detail: try container.decodeIfPresent(String.self, forKey: .detail),
                skippedAds: try container.decode([BreakPlan.SkippedAd].self, forKey: .skippedAds),
                breakStartURLs: try container.decode([String].self, forKey: .breakStartURLs),
                breakEndURLs: try container.decode([String].self, forKey: .breakEndURLs),
                prefetched: try container.decodeIfPresent(Bool.self, forKey: .prefetched),
                bumperURLs: try container.decodeIfPresent([Bumper.Position: String].self, forKey: .bumperURLs),
                bumperConfiguredURLs: try container.decodeIfPresent(
                    [Bumper.Position: String].self, forKey: .bumperConfiguredURLs)))
    }

    public func encode(to encoder: any Encoder) throws {
        let body = storage.body
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breakNumber, forKey: .breakNumber)
        try container.encode(body.ads, forKey: .ads)
        try container.encode(body.layout, forKey: .layout)
        try container.encodeIfPresent(body.skipReason, forKey: .skipReason)
        try container.encodeIfPresent(body.detail, forKey: .detail)
        try container.encode(body.skippedAds, forKey: .skippedAds)
        try container.encode(body.breakStartURLs, forKey: .breakStartURLs)
        try container.encode(body.breakEndURLs, forKey: .breakEndURLs)
        try container.encodeIfPresent(body.prefetched, forKey: .prefetched)
        try container.encodeIfPresent(body.bumperURLs, forKey: .bumperURLs)
        try container.encodeIfPresent(body.bumperConfiguredURLs, forKey: .bumperConfiguredURLs)
    }

    /// What the tracking JSON says of the break (`TrackingBuilder.live`).
    public var tracking: TrackingBuilder.LiveDecision<LiveAd> {
        TrackingBuilder.LiveDecision(
            layout: layout, ads: ads, skipReason: skipReason, detail: detail,
            skippedAds: skippedAds,
            breakStartURLs: breakStartURLs, breakEndURLs: breakEndURLs, prefetched: prefetched == true,
            bumperURLs: bumperConfiguredURLs ?? [:])
    }

    /// The creative URL of the bumper at `position` when it plays in this break.
    public func bumperURL(_ position: Bumper.Position) -> String? {
        bumperURLs?[position]
    }

    public func renumbered(_ breakNumber: Int) -> LiveBreakDecision {
        var copy = self
        copy.breakNumber = breakNumber
        return copy
    }

    /// The creative URL of ad `index` when it plays in this break.
    public func creativeURL(ofAd index: Int) -> String? {
        (ads[safe: index] ?? nil)?.creativeURL
    }

    /// A break that plays no ads, and why.
    public static func unfilled(_ number: Int, reason: AvailSkipReason, detail: String?) -> LiveBreakDecision {
        LiveBreakDecision(
            breakNumber: number, ads: [], layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil),
            skipReason: reason, detail: detail)
    }

    public static func adsTimeout(breakNumber: Int, detail: String) -> LiveBreakDecision {
        .unfilled(breakNumber, reason: .adsTimeout, detail: detail)
    }
}

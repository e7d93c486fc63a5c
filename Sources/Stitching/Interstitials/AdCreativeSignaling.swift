/// SVTA2053-2 ad creative signaling: the JSON object an asset of an HLS Interstitials asset list
/// carries under `X-AD-CREATIVE-SIGNALING`, so a player that reads it (Shaka, Bitmovin, apps on
/// hls.js that read the asset list) knows which creative plays, for how long, where it sits in the pod, when it
/// may be skipped, and which beacons the player itself must fire.
///
/// One envelope per asset, of type `slot`, with the one linear slot the asset plays:
/// `{"version":2,"type":"slot","payload":[{"type":"linear","start":…,"duration":…,
/// "identifiers":[{"scheme":…,"value":…}],"tracking":[{"type":…,"offset":…,"urls":[…]}],
/// "skipOffset":…,"clickThrough":…}]}`. Optional members are left out rather than written `null`.
///
/// Source. The SVTA text itself (SVTA 2053-1 "Ad Creative Signaling in DASH and HLS", its
/// version 2 carriage envelope — "SVTA2053-2" here) was not at hand; the key spellings and shapes follow what implements it:
/// Shaka Player's `SvtaInterstitialParser` and its `AdCreativeSignaling` externs (the key
/// `X-AD-CREATIVE-SIGNALING` on each asset of an asset list; `version`, `type`, `payload`; slot
/// `type`/`start`/`duration`/`identifiers`/`tracking`/`verifications`/`skipOffset`/`clickThrough`;
/// identifier `scheme`/`value`; tracking `type`/`offset`/`urls`), DASH-IF livesim2's SVTA2053 v2
/// generator, and the IETF draft draft-riedl-moq-ad-creative-signaling, which quotes the
/// spec's timing rules (its sections 4.4.2 and 4.4.5): a slot's `start` is relative to its pod,
/// a tracking event's `offset` to its container (the slot); an event without `offset` fires by
/// its type's meaning.
///
/// Seam's choices where those sources leave room:
/// - `start` is the ad's start within its asset list (the pod), as Shaka reads it (`podOffset`)
///   and Bitmovin documents it ("related to start of asset-list"); the first asset has 0.
/// - Every tracking event gets its `offset` (seconds into the ad: 0, ¼, ½, ¾ and all of its
///   duration), so a player that times events by offset and one that times them by name agree.
/// - `tracking` lists only the events the player fires under the session's `TrackingMode` — the
///   ones Seam fires itself (when the player fetches the ad segments) are left out, exactly as
///   the tracking JSON leaves them out, so no beacon is counted twice. An event without URLs is
///   left out too.
/// - `verifications` are not written: Seam keeps `AdVerifications` as raw XML (passed on in the
///   tracking JSON) and the engine does not read VAST.
public struct AdCreativeSignaling: Sendable, Hashable, Codable {
    /// What the envelope's `payload` holds.
    public enum EnvelopeType: String, Sendable, Hashable, Codable {
        case slot, pod
    }

    /// A slot's kind; Seam only inserts linear ads.
    public enum SlotType: String, Sendable, Hashable, Codable {
        case linear
    }

    /// Who the creative is, in one naming scheme.
    public struct Identifier: Sendable, Hashable, Codable {
        public var scheme: String
        public var value: String

        public init(scheme: String, value: String) {
            self.scheme = scheme
            self.value = value
        }
    }

    /// Beacons the player fires when it reaches an event of the slot.
    public struct TrackingEvent: Sendable, Hashable, Codable {
        /// The event's name (`impression`, `start`, `firstQuartile`, `midpoint`, `thirdQuartile`, `complete`).
        public var type: String
        /// Seconds into the slot at which the event fires.
        public var offset: Double?
        public var urls: [String]

        public init(type: String, offset: Double? = nil, urls: [String]) {
            self.type = type
            self.offset = offset
            self.urls = urls
        }
    }

    /// One ad.
    public struct Slot: Sendable, Hashable, Codable {
        public var type: SlotType
        /// Seconds from the start of the asset list to the start of this ad.
        public var start: Double
        /// Seconds, the asset's `DURATION`.
        public var duration: Double
        public var identifiers: [Identifier]
        public var tracking: [TrackingEvent]
        /// Seconds into the ad after which it may be skipped; absent when it may not.
        public var skipOffset: Double?
        public var clickThrough: String?

        public init(
            type: SlotType = .linear, start: Double, duration: Double, identifiers: [Identifier],
            tracking: [TrackingEvent], skipOffset: Double? = nil, clickThrough: String? = nil
        ) {
            self.type = type
            self.start = start
            self.duration = duration
            self.identifiers = identifiers
            self.tracking = tracking
            self.skipOffset = skipOffset
            self.clickThrough = clickThrough
        }
    }

    /// The payload version this type writes.
    public static let currentVersion = 2

    public var version: Int
    public var type: EnvelopeType
    public var payload: [Slot]

    public init(version: Int = AdCreativeSignaling.currentVersion, type: EnvelopeType = .slot, payload: [Slot]) {
        self.version = version
        self.type = type
        self.payload = payload
    }
}

extension AdCreativeSignaling {
    /// Identifier schemes Seam writes.
    public enum Scheme {
        /// Ad-ID (SMPTE RP 2092-1), the scheme DASH-IF and SVTA examples use for Ad-ID values:
        /// a universal ad id from the `ad-id.org` registry is written with it.
        public static let smpteAdID = "urn:smpte:ul:060E2B34.01040101.01200900.00000000"
        /// The ad server's `<Creative id>` (or `adId` when it has no id). A Seam-private scheme:
        /// the value is only unique within that ad server.
        public static let vastCreativeID = "urn:seam:vast:creative-id"
        /// The ad server's `<Ad id>`. A Seam-private scheme, as `vastCreativeID`.
        public static let vastAdID = "urn:seam:vast:ad-id"
    }

    /// The signaling of one asset: `ad` played from `start` seconds into its asset list for
    /// `duration` seconds (both as the asset list writes them), skippable after `skipOffset`
    /// seconds when given. `mode` decides which beacons the player is given (those Seam does not
    /// fire itself).
    public static func slot(
        for ad: any TrackedAd, start: Double, duration: Double, skipOffset: Double?,
        mode: TrackingMode
    ) -> AdCreativeSignaling {
        var tracking: [TrackingEvent] = []
        for event in AdProgressEvent.allCases where !mode.seamFires(event.rawValue) {
            let urls = ad.beaconURLs(for: event).filter { !$0.isEmpty }
            guard !urls.isEmpty else { continue }
            tracking.append(
                TrackingEvent(
                    type: event.rawValue, offset: AssetList.milliseconds(event.fraction * duration), urls: urls))
        }
        let slot = Slot(
            start: start, duration: duration, identifiers: identifiers(of: ad), tracking: tracking,
            skipOffset: skipOffset, clickThrough: ad.clickThrough.flatMap { $0.isEmpty ? nil : $0 })
        return AdCreativeSignaling(payload: [slot])
    }

    /// The ad's names, most widely known first: its universal ad ids (`registry:value`, as the
    /// server maps VAST `UniversalAdId`), then the creative id, then the ad id. An Ad-ID
    /// registry id gets the SMPTE scheme; another registry is its scheme as the ad server wrote it.
    static func identifiers(of ad: any TrackedAd) -> [Identifier] {
        var result: [Identifier] = []
        func add(_ scheme: String, _ value: String) {
            guard !value.isEmpty else { return }
            let identifier = Identifier(scheme: scheme, value: value)
            if !result.contains(identifier) { result.append(identifier) }
        }
        for universal in ad.universalAdIDs {
            guard let (registry, value) = splitUniversalAdID(universal) else { continue }
            add(isAdIDRegistry(registry) ? Scheme.smpteAdID : registry, value)
        }
        if let creativeID = ad.creativeID { add(Scheme.vastCreativeID, creativeID) }
        add(Scheme.vastAdID, ad.adID)
        return result
    }

    /// `registry:value` split at the colon that ends the registry: the first one, or the first
    /// after `://` when the registry is written as a URL. Nil when either side is empty.
    static func splitUniversalAdID(_ text: String) -> (registry: String, value: String)? {
        guard var colon = text.firstIndex(of: ":") else { return nil }
        if text[colon...].hasPrefix("://") {
            guard let next = text[text.index(colon, offsetBy: 3)...].firstIndex(of: ":") else { return nil }
            colon = next
        }
        let registry = String(text[..<colon])
        let value = String(text[text.index(after: colon)...])
        guard !registry.isEmpty, !value.isEmpty else { return nil }
        return (registry, value)
    }

    /// `ad-id.org` (the registry VAST 4 names for Ad-ID), with or without scheme or `www.`, any case.
    static func isAdIDRegistry(_ registry: String) -> Bool {
        var host = registry.lowercased()
        for prefix in ["https://", "http://"] where host.hasPrefix(prefix) { host.removeFirst(prefix.count) }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        while host.hasSuffix("/") { host.removeLast() }
        return host == "ad-id.org" || host == "ad-id"
    }
}

import Foundation
@testable import SeamServer
import Stitching

/// One value of each type the API speaks with every field set (every optional filled, every
/// list non-empty), so what it encodes shows every member the type has. `unsetFields` finds a
/// field a fixture left out: a property added to a type later fails the contract test until the
/// fixture, and so the schema, has it.
enum WireFixtures {
    static let sessionID = SessionIDKey.random().issue().value
    static let mainID = SessionIDKey.random().issue().value

    static let createBody = SessionCreateBody(
        url: "https://origin.test/vod/master.m3u8", fallbackUrl: "https://backup.test/vod/master.m3u8",
        adParams: ["site": "news"], customParams: ["section": "sport"], adTagHeaders: ["X-Partner": "acme"],
        contentId: "film-1", durationMs: 5_400_000, palNonce: "AQzz",
        consent: .init(gdpr: true, gdprConsent: "CO-abc", allowStorage: false),
        mode: .interstitials, trackingMode: .hybrid, pipOf: mainID,
        policy: .init(
            restrict: [.skip, .jump], snap: [.in, .out], resumeOffset: 0.5, playoutLimit: 30.5, repeat: .everyTime),
        adIdDecoration: true,
        renditions: .init(maxBandwidth: 3_000_000, maxHeight: 720, maxFrameRate: 30, codecs: ["avc", "aac"]))

    static var created: SessionCreated {
        var created = SessionCreated(
            sessionId: sessionID, manifestUrl: "http://seam.test/v1/sessions/\(sessionID)/master.m3u8",
            mode: "stitched", stitchedManifestUrl: "http://seam.test/v1/sessions/\(sessionID)/master.m3u8",
            interstitialsManifestUrl: "http://seam.test/v1/sessions/\(sessionID)/interstitials/master.m3u8",
            trackingUrl: "http://seam.test/v1/sessions/\(sessionID)/tracking", expiresAt: "2026-11-25T03:00:00Z",
            keepAliveSeconds: 30)
        created.format = "hls"
        return created
    }

    static let passThrough = PassThrough(manifestUrl: "https://elsewhere.test/master.m3u8", intercepted: false)

    static let keepAlive = KeepAlive(sessionId: sessionID, expiresAt: "2026-11-25T03:00:00Z", keepAliveSeconds: 30)

    static let error = APIErrorBody(
        code: "SESSION_NOT_FOUND", message: "no such session; create one with POST /v1/sessions")

    static var tracking: TrackingDocument {
        let event = TrackingDocument.TrackingEvent(
            event: "impression", startTimeSeconds: 10, beaconUrls: ["https://ads.test/imp"])
        var ad = TrackingDocument.Ad(
            adId: "ad-1", sequence: 1, title: "Spot", adSystem: "Demo", creativeId: "cr-1",
            universalAdIds: ["ad-id.org:ABCD0001"], startTimeSeconds: 10, durationSeconds: 15.5,
            clickThrough: "https://advertiser.test", trackingEvents: [event],
            adVerifications: ["<Verification vendor=\"v\"/>"])
        ad.skipOffsetSeconds = 5
        var avail = TrackingDocument.Avail(
            availId: "0", position: "midroll", cuePoint: 600, startTimeSeconds: 610, durationSeconds: 15.5,
            skipReason: "NO_FILL", skipDetail: "the ad server returned no ads", ads: [ad],
            skippedAds: [.init(adId: "ad-2", reason: "no HLS MediaFile", code: "no_playable_media")],
            trackingEvents: [
                .init(event: "breakStart", startTimeSeconds: 610, beaconUrls: ["https://ads.test/break-start"])
            ])
        avail.programDateTime = "2026-11-25T02:00:00.000Z"
        avail.endedEarly = true
        avail.prefetched = true
        avail.renditionOffsetSeconds = 0.021
        avail.interstitialId = "mid-600000"
        avail.assetListUrl = "http://seam.test/v1/sessions/\(sessionID)/assets/mid-600000.json"
        avail.bumpers = [
            .init(position: "start", url: "https://cdn.test/bumper/in.m3u8", startTimeSeconds: 608, durationSeconds: 2)
        ]
        var document = TrackingDocument(
            sessionId: sessionID, trackingMode: .hybrid, durationSeconds: 3600.5, avails: [avail],
            cuePoints: [0, 600, -1])
        document.mode = .interstitials
        document.renderings = [
            .init(mode: .stitched, manifestUrl: "http://seam.test/v1/sessions/\(sessionID)/master.m3u8")
        ]
        document.pipOf = mainID
        return document
    }

    static let assetList = AssetList(
        assets: [
            AssetList.Asset(
                uri: "http://seam.test/v1/sessions/\(sessionID)/adplaylist/0/0/master.m3u8", duration: 15.5,
                signaling: AdCreativeSignaling(payload: [
                    .init(
                        start: 0, duration: 15.5,
                        identifiers: [.init(scheme: AdCreativeSignaling.Scheme.vastAdID, value: "ad-1")],
                        tracking: [.init(type: "start", offset: 0, urls: ["https://ads.test/start"])], skipOffset: 5,
                        clickThrough: "https://advertiser.test")
                ]))
        ],
        skipControl: .init(offset: 5, duration: 10, labelID: "skip"))

    /// The paths (`createBody.consent.gdpr`) of fields `value` leaves nil or empty.
    static func unsetFields(_ value: Any, at path: String = "") -> [String] {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return [path + " is nil"] }
            return unsetFields(wrapped, at: path)
        case .collection, .dictionary, .set:
            if mirror.children.isEmpty { return [path + " is empty"] }
            return mirror.children.enumerated().flatMap { index, child in
                unsetFields(child.value, at: "\(path)[\(index)]")
            }
        case .struct, .class:
            return mirror.children.flatMap { child in unsetFields(child.value, at: path + "." + (child.label ?? "?")) }
        default:
            return []
        }
    }

    static var story: SessionStoryDocument {
        var entry = SessionStoryEntry(time: "2026-11-25T02:00:00.123Z", event: .beacon)
        entry.breakIndex = 0
        entry.adId = "ad-1"
        entry.url = "https://ads.test/imp?ip=REDACTED"
        entry.outcome = "sent"
        entry.status = 204
        entry.milliseconds = 12
        entry.bytes = 0
        entry.vastErrorCode = 301
        entry.reason = "pod_limit"
        entry.seconds = 15.5
        entry.count = 1
        entry.detail = "impression"
        entry.renditions = ["v0": "creative variant 1, 1280x720, 2000000 bps"]
        entry.trackingEvent = "impression"
        entry.pod = 0
        entry.adIndex = 0
        return SessionStoryDocument(
            sessionId: sessionID, kind: "vod", mode: "stitched", contentUrl: "https://origin.test/vod/master.m3u8",
            pipOf: mainID, plan: tracking, story: [entry], storyDropped: 3)
    }

    static let breakBody = BreakAnnouncementBody(
        channelUrl: "https://origin.test/live/master.m3u8", start: "2026-11-25T03:00:00Z", startInSeconds: 30,
        durationSeconds: 30, adParams: ["campaign": "spring"])

    static let announcement = BreakAnnouncement(
        breakId: "0a1b2c3d4e5f6071", channelUrl: "https://origin.test/live/master.m3u8",
        start: "2026-11-25T03:00:00.000Z", durationSeconds: 30, adParams: ["campaign": "spring"])
}

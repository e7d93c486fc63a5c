import Foundation
import SeamKit

/// Tracking documents shaped like the demo title's: a pre-roll pod of two ads (0–10 s, 10–25 s),
/// 30 s of content, a mid-roll of one ad at 55–70 s (content 30 s), 30 s more content, a
/// post-roll of one ad at 100–110 s. Cue points `[0, 30, -1]`.
enum AdEventFixtures {
    static let events = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
    static let fractions: [Double] = [0, 0, 0.25, 0.5, 0.75, 1]

    static func beacon(_ ad: String, _ event: String) -> String { "http://ads.example/\(ad)/\(event)" }

    static func ad(_ id: String, start: Double, duration: Double, client: Bool = true) -> TrackingDocument.Ad {
        let tracking = zip(events, fractions).map { event, fraction in
            TrackingDocument.TrackingEvent(
                event: event, startTimeSeconds: start + fraction * duration,
                beaconUrls: client ? [beacon(id, event)] : [])
        }
        return TrackingDocument.Ad(
            adId: id, sequence: nil, title: "Ad \(id)", adSystem: nil, creativeId: nil, universalAdIds: [],
            startTimeSeconds: start, durationSeconds: duration, clickThrough: nil, trackingEvents: tracking,
            adVerifications: ["<Verification vendor=\"\(id)\"/>"])
    }

    static func avail(
        _ id: String, position: String, cue: Double, ads: [TrackingDocument.Ad], client: Bool = true
    ) -> TrackingDocument.Avail {
        let start = ads.first?.startTimeSeconds ?? 0
        let duration = ads.reduce(0) { $0 + $1.durationSeconds }
        let breakEvents: [TrackingDocument.TrackingEvent] = [
            .init(
                event: "breakStart", startTimeSeconds: start,
                beaconUrls: client ? [beacon("break\(id)", "breakStart")] : []),
            .init(
                event: "breakEnd", startTimeSeconds: start + duration,
                beaconUrls: client ? [beacon("break\(id)", "breakEnd")] : []),
        ]
        return TrackingDocument.Avail(
            availId: id, position: position, cuePoint: cue, startTimeSeconds: start, durationSeconds: duration,
            skipReason: nil, skipDetail: nil, ads: ads, skippedAds: [], trackingEvents: breakEvents)
    }

    static func demo(client: Bool = true, skippedMidroll: Bool = false) -> TrackingDocument {
        var midroll = avail(
            "1", position: "midroll", cue: 30, ads: [ad("m1", start: 55, duration: 15, client: client)], client: client)
        if skippedMidroll {
            midroll = TrackingDocument.Avail(
                availId: "1", position: "midroll", cuePoint: 30, startTimeSeconds: 55, durationSeconds: 0,
                skipReason: "NO_FILL", skipDetail: nil, ads: [], skippedAds: [], trackingEvents: [])
        }
        let postStart = skippedMidroll ? 85.0 : 100.0
        return TrackingDocument(
            sessionId: "demo", trackingMode: client ? .client : .server, durationSeconds: postStart + 10,
            avails: [
                avail(
                    "0", position: "preroll", cue: 0,
                    ads: [
                        ad("p1", start: 0, duration: 10, client: client),
                        ad("p2", start: 10, duration: 15, client: client),
                    ], client: client),
                midroll,
                avail(
                    "2", position: "postroll", cue: -1, ads: [ad("o1", start: postStart, duration: 10, client: client)],
                    client: client),
            ],
            cuePoints: [0, 30, -1])
    }

    /// The engine's answer written as a viewer would note it (progress left out unless asked).
    static func describe(_ actions: [AdEventEngine.Action], progress: Bool = false) -> [String] {
        actions.compactMap { action in
            switch action {
            case .fire: return nil
            case .emit(let event):
                switch event {
                case .breakStarted(let info): return "breakStarted \(info.id) ads=\(info.adCount)"
                case .adStarted(let ad): return "adStarted \(ad.id)"
                case .adProgress(let ad, let elapsed, _): return progress ? "adProgress \(ad.id) \(elapsed)" : nil
                case .tracking(let ad, let event): return "\(event.rawValue) \(ad.id)"
                case .adEnded(let ad, let completed): return "adEnded \(ad.id)\(completed ? "" : " incomplete")"
                case .breakEnded(let info): return "breakEnded \(info.id)"
                case .breakSkipped(let id, let reason): return "breakSkipped \(id) \(reason)"
                case .cuePointsChanged(let points): return "cuePoints \(points)"
                case .adSkipped(let ad): return "adSkipped \(ad.id)"
                case .policySeek(let from, let to, let reason): return "policySeek \(from)->\(to) \(reason.rawValue)"
                case .error(let error): return "error \(error)"
                case .sessionExpired(let error, _): return "sessionExpired \(error)"
                }
            }
        }
    }

    static func fired(_ actions: [AdEventEngine.Action]) -> [String] {
        actions.flatMap { action -> [String] in
            if case .fire(let urls, _) = action { return urls.map(\.absoluteString) }
            return []
        }
    }

    /// An ad played from start to end.
    static func played(_ id: String) -> [String] {
        ["adStarted \(id)"] + events.map { "\($0) \(id)" } + ["adEnded \(id)"]
    }

    /// Plays from `from` to `to` in steps of `step` seconds.
    static func play(
        _ engine: inout AdEventEngine, from: Double, to: Double, step: Double = 0.5, date: Double? = nil
    ) -> [AdEventEngine.Action] {
        var actions: [AdEventEngine.Action] = []
        var time = from
        while time <= to + 1e-9 {
            actions += engine.playhead(time: time, playing: true, date: date.map { $0 + (time - from) })
            time += step
        }
        return actions
    }
}

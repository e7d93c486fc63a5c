import Foundation
import SeamKit

/// One thing `seam watch` saw: when (seconds since it began), where the playhead was (stream
/// seconds), in which session, and what.
package struct WatchEvent: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case sessionStarted(id: String, url: URL, mode: String, live: Bool, format: String = "hls")
        /// A new session after the previous one expired, resuming at a content position.
        case sessionRestarted(id: String, url: URL, resumeContentTime: Double)
        case ad(AdEvent)
        /// The viewer seeked to `to`; the policy put the playhead at `landed`.
        case viewerSeek(from: Double, to: Double, landed: Double)
        case ended(String)
    }

    package var wall: Double
    package var position: Double
    package var sessionID: String
    package var kind: Kind
    /// Interstitials rendering: the break playing then (`position` is the primary's time).
    package var interstitial: InterstitialPosition?

    package init(
        wall: Double, position: Double, sessionID: String, kind: Kind, interstitial: InterstitialPosition? = nil
    ) {
        self.wall = wall
        self.position = position
        self.sessionID = sessionID
        self.kind = kind
        self.interstitial = interstitial
    }

    /// The event's name and fields, as the JSON form writes them.
    package var fields: (name: String, details: [String: JSONValue]) {
        switch kind {
        case .sessionStarted(let id, let url, let mode, let live, let format):
            return (
                "sessionStarted",
                [
                    "sessionId": .string(id), "url": .string(url.absoluteString), "mode": .string(mode),
                    "live": .bool(live), "format": .string(format),
                ]
            )
        case .sessionRestarted(let id, let url, let resume):
            return (
                "sessionRestarted",
                ["sessionId": .string(id), "url": .string(url.absoluteString), "resumeContentTime": .number(resume)]
            )
        case .viewerSeek(let from, let to, let landed):
            return ("seek", ["from": .number(from), "to": .number(to), "landed": .number(landed)])
        case .ended(let reason):
            return ("ended", ["reason": .string(reason)])
        case .ad(let event):
            return Self.fields(of: event)
        }
    }

    private static func fields(of event: AdEvent) -> (name: String, details: [String: JSONValue]) {
        switch event {
        case .breakStarted(let info):
            return ("breakStarted", breakFields(info))
        case .breakEnded(let info):
            return ("breakEnded", breakFields(info))
        case .adStarted(let ad):
            return ("adStarted", adFields(ad))
        case .adProgress(let ad, let elapsed, let duration):
            return ("adProgress", ["adId": .string(ad.id), "elapsed": .number(elapsed), "duration": .number(duration)])
        case .tracking(let ad, let event):
            return (event.rawValue, ["adId": .string(ad.id), "breakId": .string(ad.breakId)])
        case .adEnded(let ad, let completed):
            return ("adEnded", ["adId": .string(ad.id), "breakId": .string(ad.breakId), "completed": .bool(completed)])
        case .adSkipped(let ad):
            return ("adSkipped", ["adId": .string(ad.id), "breakId": .string(ad.breakId)])
        case .breakSkipped(let id, let reason):
            return ("breakSkipped", ["breakId": .string(id), "reason": .string(reason)])
        case .cuePointsChanged(let points):
            return ("cuePoints", ["cuePoints": .array(points.map { .number($0) })])
        case .policySeek(let from, let to, let reason):
            return ("policySeek", ["from": .number(from), "to": .number(to), "reason": .string(reason.rawValue)])
        case .error(let error):
            return ("error", ["message": .string("\(error)")])
        case .sessionExpired(let error, let restart):
            var details: [String: JSONValue] = ["message": .string("\(error)")]
            if let resume = restart.resumeContentTime { details["resumeContentTime"] = .number(resume) }
            return ("sessionExpired", details)
        }
    }

    private static func breakFields(_ info: BreakInfo) -> [String: JSONValue] {
        [
            "breakId": .string(info.id), "position": .string(info.position), "cuePoint": .number(info.cuePoint),
            "start": .number(info.start),
            "duration": .number(info.duration), "ads": .number(Double(info.adCount)),
        ]
    }

    private static func adFields(_ ad: AdInfo) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "adId": .string(ad.id), "breakId": .string(ad.breakId), "index": .number(Double(ad.index)),
            "start": .number(ad.start), "duration": .number(ad.duration), "skippable": .bool(ad.skippable),
        ]
        if let title = ad.title { fields["title"] = .string(title) }
        return fields
    }

    /// One line for a person: `  12.3s  @ 25.00  adStarted adId=p2 ...`.
    package var line: String {
        let (name, details) = fields
        let text = details.keys.sorted().map { key -> String in
            guard let value = details[key] else { return key }
            if case .string(let raw) = value, !raw.contains(" ") { return "\(key)=\(raw)" }
            return "\(key)=\(value.text)"
        }.joined(separator: " ")
        let place =
            interstitial.map { String(format: " in %@[%d]+%.2f", $0.interstitialID, $0.assetIndex, $0.assetTime) } ?? ""
        return String(format: "%7.2fs  @%8.2f", wall, position) + place + "  " + name
            + (text.isEmpty ? "" : "  " + text)
    }

    /// One JSON object per line, for scripts: `{"wall":..,"playhead":..,"sessionId":..,"event":..,...}`.
    /// The playhead is `playhead`, so it never hides an event's own field (a break's `position`
    /// is `preroll`, `midroll`, `postroll` or `live`, as in the tracking JSON).
    package var json: String {
        var (name, details) = fields
        details["wall"] = .number((wall * 1000).rounded() / 1000)
        details["playhead"] = .number((position * 1000).rounded() / 1000)
        details["event"] = .string(name)
        if details["sessionId"] == nil { details["sessionId"] = .string(sessionID) }
        if let interstitial {
            details["interstitial"] = .object([
                "id": .string(interstitial.interstitialID), "asset": .number(Double(interstitial.assetIndex)),
                "assetTime": .number((interstitial.assetTime * 1000).rounded() / 1000),
            ])
        }
        return JSONValue.object(details).text
    }
}

/// The few JSON shapes `WatchEvent` writes, serialised with sorted keys.
package enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    package var text: String {
        switch self {
        case .string(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
            return value.isFinite ? String(value) : "null"
        case .bool(let value):
            return value ? "true" : "false"
        case .array(let values):
            return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let values):
            return "{"
                + values.keys.sorted().map { JSONValue.string($0).text + ":" + (values[$0]?.text ?? "null") }.joined(
                    separator: ",") + "}"
        }
    }
}

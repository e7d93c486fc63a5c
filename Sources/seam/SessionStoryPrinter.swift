import Foundation
import SeamKit

/// `seam session`'s lines: the session, its plan break by break, then its story in order.
enum SessionStoryPrinter {
    static func lines(_ document: SessionStoryDocument) -> String {
        var out = "session \(document.sessionId) (\(document.kind), \(document.mode))"
        if let main = document.pipOf { out += ", picture-in-picture of \(main)" }
        out += "\ncontent \(document.contentUrl)\n"
        let avails = document.plan.avails
        out += "plan: \(avails.count) break\(avails.count == 1 ? "" : "s")\n"
        for avail in avails {
            out += "  break \(avail.availId) \(avail.position) at \(seconds(avail.startTimeSeconds)): "
            if avail.ads.isEmpty {
                out += "no ads, \(avail.skipReason ?? "NO_FILL")"
                if let detail = avail.skipDetail { out += " (\(detail))" }
                out += "\n"
            } else {
                out += "\(avail.ads.count) ad\(avail.ads.count == 1 ? "" : "s"), \(seconds(avail.durationSeconds))\n"
            }
            for ad in avail.ads { out += "    ad \(ad.adId) \(seconds(ad.durationSeconds))\n" }
            for skipped in avail.skippedAds {
                out += "    skipped \(skipped.adId) [\(skipped.code ?? "other")] \(skipped.reason)\n"
            }
        }
        out += "story: \(document.story.count) entr\(document.story.count == 1 ? "y" : "ies")"
        if document.storyDropped > 0 { out += ", \(document.storyDropped) older dropped" }
        out += "\n"
        for entry in document.story { out += "  \(line(entry))\n" }
        return out
    }

    static func line(_ entry: SessionStoryEntry) -> String {
        var words = [entry.time, entry.event.rawValue]
        if let index = entry.breakIndex { words.append("break \(index)") }
        if let event = entry.trackingEvent { words.append(event) }
        if let pod = entry.pod, let ad = entry.adIndex { words.append("pod \(pod) ad \(ad)") }
        if let id = entry.adId { words.append("ad \(id)") }
        if let outcome = entry.outcome { words.append(outcome) }
        if let code = entry.vastErrorCode { words.append("VAST error \(code)") }
        if let reason = entry.reason { words.append("[\(reason)]") }
        if let status = entry.status { words.append("HTTP \(status)") }
        if let milliseconds = entry.milliseconds { words.append("\(milliseconds) ms") }
        if let bytes = entry.bytes { words.append("\(bytes) B") }
        if let value = entry.seconds { words.append(seconds(value)) }
        if let count = entry.count {
            switch entry.event {
            case .beacon: words.append("\(count) attempt\(count == 1 ? "" : "s")")
            case .vastError: words.append("reported to \(count) Error URL\(count == 1 ? "" : "s")")
            case .avail: words.append("\(count) ad\(count == 1 ? "" : "s")")
            default: words.append("\(count)")
            }
        }
        if let detail = entry.detail { words.append(detail) }
        if let url = entry.url { words.append(url) }
        if let renditions = entry.renditions {
            words.append(
                renditions.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: "; "))
        }
        return words.joined(separator: " ")
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}

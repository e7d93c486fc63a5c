import Foundation
import HLS

/// Ad-ID decoration of the stitched rendering: one `EXT-X-DATERANGE` per ad and one per break,
/// so a player or measurement SDK learns where each ad starts from the playlist itself instead of
/// polling the tracking JSON (what MediaTailor's ad ID decoration does, and what SVTA2053 defines
/// for creative signaling).
///
/// Rules:
/// - **Per ad**: `CLASS="urn:svta:advertising-wg:ad-creative-signaling"` (the class Shaka's SVTA
///   reader recognises), `ID` `seam-ad-<break>-<n>`, `START-DATE` the ad's first frame on the
///   playlist's program date-time clock, its length (`DURATION` in VOD; `PLANNED-DURATION` in live,
///   where a break cut short by an early return would otherwise change a published attribute),
///   `X-AD-ID` (VAST `Ad@id`), `X-CREATIVE-ID` (VAST `Creative@id`, when given) and
///   `X-AD-CREATIVE-SIGNALING`: the SVTA2053 payload version 2 `slot` envelope of the ad, base64
///   of its JSON (`AdCreativeSignaling`; the slot's `start` is 0, relative to `START-DATE`; its
///   tracking lists only the beacons the player fires under the session's tracking mode).
/// - **Per break**: `CLASS="com.seam.ad-break"` (Seam's own, so an SVTA reader does not count
///   the ads twice), `ID` `seam-break-<break>`, `START-DATE`, the break's length as above, and
///   `X-AD-COUNT`.
/// - `<break>` is the break's interstitial id (`InterstitialBreakID`): the same on every reload
///   and every rendition, and each range has the same attributes wherever it is written (the
///   draft requires both of a date range id).
/// - **Program date-times**: a date range needs them. VOD playlists get Seam's own on the first
///   segment and after every discontinuity (the stitched timeline from the title's anchor:
///   its first program date-time, else `InterstitialRenderer.syntheticEpoch`), replacing the
///   origin's, which do not count the ads. Live ranges use the timeline's dates, the origin's; a
///   live origin without program date-times gets no ranges (nothing to date them by).
/// - Players that do not know a class ignore the range (hls.js exposes its attributes as
///   metadata cues; Shaka reads the SVTA class; AVPlayer reports it as date range metadata).
public enum AdIDDecoration {
    public static let adClass = "urn:svta:advertising-wg:ad-creative-signaling"
    public static let breakClass = "com.seam.ad-break"

    public static func adRangeID(_ breakID: InterstitialBreakID, ad: Int) -> String {
        "seam-ad-\(breakID.text)-\(ad)"
    }

    public static func breakRangeID(_ breakID: InterstitialBreakID) -> String {
        "seam-break-\(breakID.text)"
    }

    // MARK: VOD

    /// Adds the ranges of every filled break of `plan` to each rendition of `media`, as placed on
    /// the stitched timeline the tracking JSON describes (`tracking.avails[i]` is `plan.breaks[i]`).
    public static func decorateVOD(
        _ media: inout [RenditionKey: MediaPlaylist], plan: BreakPlan, tracking: TrackingDocument,
        mode: TrackingMode, epoch: Double
    ) {
        var ranges: [(start: Double, range: DateRange)] = []
        for avail in tracking.avails where !avail.ads.isEmpty {
            guard let index = Int(avail.availId), let planned = plan.breaks[safe: index] else { continue }
            let id = InterstitialBreakID(position: planned.position)
            // The whole break, bumpers included (without them, the ads' sum).
            let breakLength = avail.durationSeconds
            ranges.append(
                (
                    avail.startTimeSeconds,
                    breakRange(
                        id: id, start: epoch + avail.startTimeSeconds, length: breakLength, planned: false,
                        adCount: avail.ads.count)
                ))
            for (number, placed) in avail.ads.enumerated() {
                guard let item = planned.ads[safe: number] else { continue }
                ranges.append(
                    (
                        placed.startTimeSeconds,
                        adRange(
                            id: id, number: number, start: epoch + placed.startTimeSeconds,
                            length: placed.durationSeconds, planned: false, ad: item.ad,
                            skipOffset: item.ad.skipOffset, mode: mode)
                    ))
            }
        }
        guard !ranges.isEmpty else { return }
        for key in Array(media.keys) {
            guard var playlist = media[key], !playlist.segments.isEmpty else { continue }
            var starts: [Double] = []
            starts.reserveCapacity(playlist.segments.count)
            var time = 0.0
            for index in playlist.segments.indices {
                starts.append(time)
                time += playlist.segments[index].duration
                let dated = index == 0 || playlist.segments[index].discontinuity
                playlist.segments[index].programDateTime =
                    dated ? DateTime(secondsSince1970: epoch + starts[index]) : nil
            }
            if playlist.trailer?.programDateTime != nil { playlist.trailer?.programDateTime = nil }
            for (start, range) in ranges {
                let at = nearestSegment(to: start, starts: starts, playlist: playlist)
                // Dated where it is listed, so a player maps the range on this segment's clock.
                if playlist.segments[at].programDateTime == nil {
                    playlist.segments[at].programDateTime = DateTime(secondsSince1970: epoch + starts[at])
                }
                playlist.segments[at].dateRanges.append(range)
            }
            media[key] = playlist
        }
    }

    /// The segment an ad or break starting at `time` begins with: the nearest segment start,
    /// among discontinuities (each ad and each return to content starts one) when there are any.
    static func nearestSegment(to time: Double, starts: [Double], playlist: MediaPlaylist) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for index in starts.indices where index == 0 || playlist.segments[index].discontinuity {
            let distance = abs(starts[index] - time)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    // MARK: Live

    /// One decided live break as decoration needs it: its layout and its ads by index.
    public struct LiveBreakAds {
        public var layout: LiveBreakLayout
        public var ads: [(any TrackedAd)?]

        public init(layout: LiveBreakLayout, ads: [(any TrackedAd)?]) {
            self.layout = layout
            self.ads = ads
        }
    }

    /// Adds, to a stitched live window cut from `timeline` (`LiveWindowRenderer`), the ranges of
    /// each break and ad whose first segment the window lists.
    public static func decorateLive(
        _ playlist: inout MediaPlaylist, timeline: LiveTimeline, mode: TrackingMode,
        decision: (Int) -> LiveBreakAds?
    ) {
        let first = playlist.mediaSequence - timeline.firstSequenceNumber
        guard first >= 0 else { return }
        let entries = timeline.entries
        for index in playlist.segments.indices {
            guard let entry = entries[safe: first + index], case .breakSlot(let number, let slotIndex) = entry.source,
                let date = timeline.programDateTime(of: entry), let item = timeline.breakNumbered(Int(number)),
                let decided = decision(Int(number)), let slot = decided.layout.slots[safe: Int(slotIndex)]
            else { continue }
            let id = InterstitialBreakID(liveBreak: item)
            var ranges: [DateRange] = []
            if slotIndex == 0 {
                ranges.append(
                    breakRange(
                        id: id, start: date, length: decided.layout.duration, planned: true,
                        adCount: decided.layout.playedAds.count))
            }
            if case .ad(let ad, 0) = slot.source, let tracked = decided.ads[safe: ad] ?? nil {
                let length = decided.layout.slots.reduce(0.0) { total, slot in
                    if case .ad(ad, _) = slot.source { return total + slot.duration }
                    return total
                }
                ranges.append(
                    adRange(
                        id: id, number: ad, start: date, length: length, planned: true, ad: tracked,
                        skipOffset: tracked.skipOffset, mode: mode))
            }
            guard !ranges.isEmpty else { continue }
            if playlist.segments[index].programDateTime == nil {
                playlist.segments[index].programDateTime = DateTime(secondsSince1970: date)
            }
            playlist.segments[index].dateRanges += ranges
        }
    }

    // MARK: Ranges

    static func adRange(
        id: InterstitialBreakID, number: Int, start: Double, length: Double, planned: Bool, ad: any TrackedAd,
        skipOffset: Double?, mode: TrackingMode
    ) -> DateRange {
        var range = DateRange(attributes: AttributeList())
        range.id = adRangeID(id, ad: number)
        range.dateRangeClass = adClass
        range.startDate = DateTime(secondsSince1970: start)
        let seconds = AssetList.milliseconds(length)
        if planned { range.plannedDuration = seconds } else { range.duration = seconds }
        range.attributes.setString("X-AD-ID", ad.adID)
        if let creative = ad.creativeID, !creative.isEmpty { range.attributes.setString("X-CREATIVE-ID", creative) }
        let signaling = AdCreativeSignaling.slot(
            for: ad, start: 0, duration: seconds, skipOffset: AssetList.skipOffset(skipOffset, duration: seconds),
            mode: mode)
        range.attributes.setString("X-AD-CREATIVE-SIGNALING", base64JSON(signaling))
        return range
    }

    static func breakRange(
        id: InterstitialBreakID, start: Double, length: Double, planned: Bool, adCount: Int
    ) -> DateRange {
        var range = DateRange(attributes: AttributeList())
        range.id = breakRangeID(id)
        range.dateRangeClass = breakClass
        range.startDate = DateTime(secondsSince1970: start)
        let seconds = AssetList.milliseconds(length)
        if planned { range.plannedDuration = seconds } else { range.duration = seconds }
        range.attributes.setInteger("X-AD-COUNT", adCount)
        return range
    }

    /// The envelope's JSON (keys sorted, so the same ad writes the same bytes on every reload), in base64.
    static func base64JSON(_ signaling: AdCreativeSignaling) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(signaling)) ?? Data()).base64EncodedString()
    }
}

extension AdIDDecoration {
    /// The ad-ID decoration findings of one media playlist (`seam validate`): each SVTA2053
    /// creative signaling range must carry a readable envelope that agrees with the range.
    public static func check(_ playlist: MediaPlaylist, source: String? = nil) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        var seen: Set<String> = []
        let ranges = playlist.segments.flatMap(\.dateRanges) + (playlist.trailer?.dateRanges ?? [])
        for range in ranges where range.dateRangeClass == adClass && seen.insert(range.id).inserted {
            func error(_ message: String) {
                out.append(
                    PlaylistDiagnostic(
                        .error, .adCreativeSignaling, line: nil, "#EXT-X-DATERANGE ID=\"\(range.id)\": \(message)",
                        source: source))
            }
            if range.id.hasPrefix("seam-ad-"), range.attributes.string("X-AD-ID")?.isEmpty != false {
                error("a Seam ad range without X-AD-ID; write the VAST Ad id as X-AD-ID=\"…\"")
            }
            guard let value = range.attributes["X-AD-CREATIVE-SIGNALING"], value.isQuoted else {
                error(
                    "CLASS=\"\(adClass)\" without a quoted X-AD-CREATIVE-SIGNALING; add the SVTA2053 envelope as base64 of its JSON"
                )
                continue
            }
            guard let data = Data(base64Encoded: value.text),
                let envelope = try? JSONDecoder().decode(AdCreativeSignaling.self, from: data)
            else {
                error(
                    "X-AD-CREATIVE-SIGNALING is not base64 of an SVTA2053 envelope ({\"version\":2,\"type\":\"slot\",\"payload\":[…]})"
                )
                continue
            }
            guard envelope.version == 2, !envelope.payload.isEmpty else {
                error(
                    "X-AD-CREATIVE-SIGNALING has version \(envelope.version) and \(envelope.payload.count) slots; write payload version 2 with at least one slot"
                )
                continue
            }
            if envelope.type == .slot, let length = range.duration ?? range.plannedDuration,
                let slot = envelope.payload.first, abs(slot.duration - length) > 0.0015
            {
                error(
                    "its slot lasts \(slot.duration) s but the range \(range.duration != nil ? "DURATION" : "PLANNED-DURATION") is \(length) s; they must agree"
                )
            }
        }
        return out
    }
}

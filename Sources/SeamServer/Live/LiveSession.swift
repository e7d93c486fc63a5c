import Foundation
import HLS
import NIOConcurrencyHelpers
import Stitching

/// One viewer of a live channel. The stitched timeline (`LiveTimeline`) and the break
/// decisions live here behind a lock; playlists are cut from them on each request, so a
/// session holds a few hundred bytes of timeline, not rendered playlists.
public final class LiveSession: Sendable {
    public let id: SessionID
    let channel: LiveChannel
    let inputs: SessionBuilder.Inputs
    let trackingMode: TrackingMode
    private let state: NIOLockedValueBox<State>

    struct State: Sendable {
        var timeline: LiveTimeline
        var decisions: [Int: LiveBreakDecision] = [:]
        var deciding: [Int: (task: Task<Void, Never>, deadline: ContinuousClock.Instant)] = [:]
    }

    init(id: SessionID, channel: LiveChannel, inputs: SessionBuilder.Inputs, trackingMode: TrackingMode,
         defaultBreakSeconds: Double) {
        self.id = id
        self.channel = channel
        self.inputs = inputs
        self.trackingMode = trackingMode
        let configuration = LiveTimeline.Configuration(defaultBreakSeconds: defaultBreakSeconds, schedule: channel.schedule,
                                                       targetDuration: channel.content.reference.targetDuration)
        state = NIOLockedValueBox(State(timeline: LiveTimeline(configuration: configuration)))
    }

    var baseURL: String { inputs.baseURL + "/v1/sessions/\(id)" }

    // MARK: Timeline

    /// Brings the timeline up to the reference rendition's `window`. A break seen for the first
    /// time gets its ad decision started (once per session) with `budget` to land; until then
    /// the timeline stops before the break. Who waits for it:
    /// - a session start, up to the whole budget, so a break under way is in the first playlist;
    /// - the reload that revealed the cue, up to `wait`, but only when the ad server is not
    ///   saturated (`live.adRequestConcurrency` free): a break starting for thousands of viewers
    ///   must not hold up their playlists, which simply list the break one reload later.
    /// A decision that misses its budget leaves the break to content (`ADS_TIMEOUT`).
    func advance(with window: MediaPlaylist, decider: LiveBreakDecider, budget: Duration, wait: Duration) async {
        enum Step { case done, again, pending(LiveBreak, Task<Void, Never>, ContinuousClock.Instant, mayWait: Bool) }
        while true {
            let now = ContinuousClock.now
            let step = state.withLockedValue { state -> Step in
                guard case .needsDecision(let pending) = state.timeline.advance(with: window) else { return .done }
                if let running = state.deciding[pending.number] {
                    guard now < running.deadline else {
                        state.deciding[pending.number] = nil
                        Self.record(.unfilled(pending.number, reason: .adsTimeout, detail: "no ad decision within the ad budget; the break plays content"), in: &state)
                        return .again
                    }
                    return .pending(pending, running.task, running.deadline, mayWait: wait >= budget)
                }
                let uncontended = decider.limiter.waiting == 0 && decider.limiter.inFlight < decider.limiter.maxConcurrent
                // Off the serving threads: a break starting for thousands of viewers must not
                // starve their reloads.
                let task = Task(executorPreference: decider.executor, priority: .low) { [self] in
                    let decision = await decider.decide(pending, for: self)
                    land(decision)
                }
                state.deciding[pending.number] = (task, now + budget)
                return .pending(pending, task, now + budget, mayWait: uncontended || wait >= budget)
            }
            switch step {
            case .done:
                return
            case .again:
                continue
            case .pending(let pending, let task, let deadline, let mayWait):
                let waitUntil = min(deadline, now + wait)
                guard mayWait, waitUntil > now else { return }
                let decided = await withTaskGroup(of: Bool.self) { group in
                    group.addTask { await task.value; return true }
                    group.addTask { try? await Task.sleep(until: waitUntil, clock: .continuous); return false }
                    let first = await group.next() ?? false
                    group.cancelAll()
                    return first
                }
                if !decided {
                    guard waitUntil >= deadline else { return }
                    land(.unfilled(pending.number, reason: .adsTimeout, detail: "no ad decision within the ad budget; the break plays content"))
                }
            }
        }
    }

    /// Records a decision for a pending break; a late one (the break already went to content) is dropped.
    func land(_ decision: LiveBreakDecision) {
        state.withLockedValue { state in
            state.deciding[decision.breakNumber] = nil
            // An emptied dictionary keeps its storage; thousands of sessions should not.
            if state.deciding.isEmpty { state.deciding = [:] }
            Self.record(decision, in: &state)
        }
    }

    private static func record(_ decision: LiveBreakDecision, in state: inout State) {
        guard state.timeline.breakNumbered(decision.breakNumber)?.phase == .pending else { return }
        state.timeline.resolve(breakNumber: decision.breakNumber, layout: decision.layout)
        state.decisions[decision.breakNumber] = decision
        // Decisions of breaks that left the timeline are of no more use.
        if state.decisions.count > 1 {
            let kept = Set(state.timeline.breaks.map(\.number))
            state.decisions = state.decisions.filter { kept.contains($0.key) }
        }
    }

    // MARK: Playlists

    /// The stitched window of one rendition, cut from the session timeline.
    func render(_ key: String, window: MediaPlaylist) -> MediaPlaylist {
        let routeAds = trackingMode != .client && channel.rendition(key)?.kind != .subtitles
        let base = baseURL
        return state.withLockedValue { state in
            LiveWindowRenderer.render(state.timeline, window: window, targetDuration: channel.targetDuration,
                                      media: { state.decisions[$0]?.media[key] },
                                      slotURI: { slot, uri in
                guard routeAds, case .ad(let ad, let segment) = slot.source else { return uri }
                return "\(base)/ad/\(slot.breakNumber)/\(ad)/\(key)/\(segment)\(Self.extensionSuffix(uri))"
            })
        }
    }

    /// `.ts`, `.m4s`, ... of a segment URI (for players that look at it), or "" when there is
    /// none or it is odd. Runs for every ad segment of every reload, so it scans bytes.
    static func extensionSuffix(_ uri: String) -> String {
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

    // MARK: Server-side tracking

    /// Where an ad segment really is, which events fetching it reports, and their beacons.
    func adSegment(breakNumber: Int, ad: Int, rendition: String, segment: Int) -> (url: String, events: [AdProgressEvent], beacons: [AdProgressEvent: [String]])? {
        state.withLockedValue { state in
            guard let decision = state.decisions[breakNumber], let resolved = decision.ads[safe: ad] ?? nil,
                  let playlist = decision.media[rendition]?.ads[safe: ad] ?? nil,
                  let target = playlist.segments[safe: segment] else { return nil }
            let events = AdProgressEvent.due(atSegment: segment, of: playlist)
            var beacons: [AdProgressEvent: [String]] = [:]
            let played = decision.layout.playedAds
            for event in events where trackingMode.seamFires(event.rawValue) {
                var urls = resolved.urls(for: event)
                if trackingMode.seamFires("breakStart") {
                    if event == .impression, ad == played.first { urls += decision.breakStartURLs }
                    if event == .complete, ad == played.last { urls += decision.breakEndURLs }
                }
                beacons[event] = urls
            }
            return (target.uri, events, beacons)
        }
    }

    // MARK: Client-side tracking

    /// Recent avails on the session's stitched timeline (seconds since the session's first
    /// segment), with program date-times when the origin gives them.
    func tracking() -> TrackingDocument {
        state.withLockedValue { state in
            var avails: [TrackingDocument.Avail] = []
            for item in state.timeline.breaks where item.phase != .pending {
                let decision = state.decisions[item.number]
                let layout = decision?.layout
                let start = item.sessionTime
                var avail = TrackingDocument.Avail(
                    availId: "\(item.number)", position: "live", cuePoint: start, startTimeSeconds: start,
                    durationSeconds: layout.map { $0.isEmpty ? 0 : $0.duration } ?? 0,
                    skipReason: decision?.skipReason?.rawValue, skipDetail: decision?.detail, ads: [],
                    skippedAds: (decision?.skippedAds ?? []).map { .init(adId: $0.adID, reason: $0.reason) }, trackingEvents: [])
                if let decision, let layout, !layout.isEmpty {
                    var adStart = start
                    for index in layout.playedAds {
                        guard let ad = decision.ads[safe: index] ?? nil else { continue }
                        let duration = layout.slots.filter { if case .ad(index, _) = $0.source { return true } else { return false } }
                            .reduce(0) { $0 + $1.duration }
                        let events = AdProgressEvent.allCases.map { event in
                            let urls = ad.urls(for: event)
                            return TrackingDocument.TrackingEvent(event: event.rawValue, startTimeSeconds: adStart + event.fraction * duration,
                                                                  beaconUrls: trackingMode.seamFires(event.rawValue) ? [] : urls)
                        }
                        avail.ads.append(.init(adId: ad.adID, sequence: ad.sequence, title: ad.title, adSystem: ad.adSystem,
                                               creativeId: ad.creativeID, universalAdIds: ad.universalAdIDs,
                                               startTimeSeconds: adStart, durationSeconds: duration, clickThrough: ad.clickThrough,
                                               trackingEvents: events, adVerifications: ad.verificationXML))
                        adStart += duration
                    }
                    let serverFires = trackingMode.seamFires("breakStart")
                    avail.trackingEvents = [
                        .init(event: "breakStart", startTimeSeconds: start, beaconUrls: serverFires ? [] : decision.breakStartURLs),
                        .init(event: "breakEnd", startTimeSeconds: start + layout.duration, beaconUrls: serverFires ? [] : decision.breakEndURLs),
                    ]
                }
                if let time = item.programDateTime { avail.programDateTime = DateTime(secondsSince1970: time).text }
                avail.endedEarly = item.endedEarly ? true : nil
                avails.append(avail)
            }
            return TrackingDocument(sessionId: id.value, trackingMode: trackingMode.rawValue,
                                    durationSeconds: state.timeline.sessionDuration, avails: avails,
                                    cuePoints: avails.map(\.cuePoint))
        }
    }
}

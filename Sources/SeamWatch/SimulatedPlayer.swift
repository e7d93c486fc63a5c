import DASH
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HLS
import SeamKit

/// A player without a screen: loads a multivariant playlist, picks a variant, and plays its
/// media playlist on a simulated clock — fetching each segment as the playhead reaches it (so
/// Seam's server-side beacons fire as for a real player) and reloading a live playlist every
/// target duration. Given an MPD (a DASH session), it plays its periods one after another
/// (`MPDPlayOrder`) and reloads a live one every `minimumUpdatePeriod`. It is the
/// `PlayheadAdapter` `seam watch` and the tests give SeamKit.
package final class SimulatedPlayer: PlayheadAdapter, @unchecked Sendable {
    package struct Segment: Sendable, Equatable {
        package var url: URL
        package var start: Double
        package var duration: Double
        package var sequence: Int
        /// Program date-time at the segment's start, seconds since 1970.
        package var date: Double?

        package var end: Double { start + duration }
    }

    /// An HLS Interstitial the playlist schedules (`CLASS="com.apple.hls.interstitial"`), placed
    /// on the player's timeline.
    package struct InterstitialMark: Sendable, Equatable {
        package var id: String
        /// Where the primary reaches it; `CUE="PRE"` plays before the first segment, `"POST"`
        /// after the last.
        package var time: Double
        package var pre: Bool
        package var post: Bool
        package var once: Bool
        package var assetList: URL?
        package var assetURI: URL?
        /// The interstitial's `DURATION` (or `X-PLAYOUT-LIMIT`), for a lone `X-ASSET-URI`.
        package var duration: Double?
    }

    /// What went wrong loading a playlist, in words for the viewer's log.
    package struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        package var url: URL
        /// The HTTP status, when there was an answer.
        package var status: Int?
        package var message: String

        package var description: String { "\(url.absoluteString): \(message)" }
    }

    private let urlSession: URLSession
    private let fetchSegments: Bool
    private let lock = NSLock()
    private var state = State()
    private var mediaURL: URL?
    /// The media URL is an MPD.
    private var isMPD = false

    private struct State {
        var time: Double = 0
        var playing = false
        var segments: [Segment] = []
        var live = true
        var targetDuration: Double = 6
        /// Where playback stood when segments were last fetched.
        var fetchedUpTo: Double = -1
        var sinceReload: Double = 0
        var interstitials: [InterstitialMark] = []
    }

    /// - Parameter fetchSegments: false to play the playlists alone (no segment requests).
    package init(urlSession: URLSession, fetchSegments: Bool = true) {
        self.urlSession = urlSession
        self.fetchSegments = fetchSegments
    }

    // MARK: PlayheadAdapter

    package var currentTime: Double { lock.withLock { state.time } }

    package var duration: PlayheadDuration {
        lock.withLock { state.live ? .infinite : .finite(state.segments.last?.end ?? 0) }
    }

    package var volume: Float { 1 }

    package var isPlaying: Bool { lock.withLock { state.playing } }

    package var currentDate: Double? {
        lock.withLock {
            guard let segment = Self.segment(at: state.time, in: state.segments), let date = segment.date else {
                return nil
            }
            return date + (state.time - segment.start)
        }
    }

    package func seek(to seconds: Double) async {
        lock.withLock {
            let end = state.segments.last?.end ?? 0
            state.time = min(max(seconds, state.segments.first?.start ?? 0), end)
            // The segment at the new position is fetched on the next step.
            state.fetchedUpTo = state.time - 0.001
        }
    }

    // MARK: Playing

    /// The segments known so far (a live window grows with each reload).
    package var segments: [Segment] { lock.withLock { state.segments } }

    package var isLive: Bool { lock.withLock { state.live } }

    /// The interstitials the playlist scheduled so far, by id (a live window adds new ones).
    package var interstitials: [InterstitialMark] { lock.withLock { state.interstitials } }

    /// Has played to the end of a finished playlist.
    package var ended: Bool {
        lock.withLock { !state.live && !state.segments.isEmpty && state.time >= (state.segments.last?.end ?? 0) }
    }

    /// Loads `multivariant` and its first variant (the one a player starts on), then stands at
    /// the start (VOD) or three target durations from the live edge, as players join.
    package func load(multivariant: URL) async throws(LoadError) {
        let text = try await fetchText(multivariant)
        let media: URL
        if !text.hasPrefix("#EXTM3U") {
            guard (try? MPD(parsing: text)) != nil else {
                throw LoadError(
                    url: multivariant, status: 200, message: "neither an HLS playlist (#EXTM3U) nor an MPEG-DASH MPD")
            }
            isMPD = true
            media = multivariant
        } else if text.contains("#EXT-X-STREAM-INF") {
            let parsed: MultivariantPlaylist
            do {
                parsed = try MultivariantPlaylist(parsing: text)
            } catch {
                throw LoadError(url: multivariant, status: 200, message: "not a multivariant playlist: \(error)")
            }
            guard let first = parsed.variants.first,
                let url = URL(string: first.uri, relativeTo: multivariant)?.absoluteURL
            else {
                throw LoadError(url: multivariant, status: 200, message: "the multivariant playlist lists no variant")
            }
            media = url
        } else {
            media = multivariant
        }
        mediaURL = media
        try await reload()
        lock.withLock {
            if state.live {
                let edge = state.segments.last?.end ?? 0
                state.time = max(state.segments.first?.start ?? 0, edge - 3 * state.targetDuration)
            } else {
                state.time = 0
            }
            state.fetchedUpTo = state.time - 0.001
            state.playing = true
        }
    }

    /// Plays `seconds` on: fetches the segments reached, reloads a live playlist when due,
    /// stalls at the end of a live window and stops at the end of a finished one. Answers the
    /// HTTP statuses that were not successes (a `410` is how a player learns its session is
    /// gone), with their URLs.
    package func advance(by seconds: Double) async -> [(status: Int, url: URL)] {
        var failures: [(status: Int, url: URL)] = []
        let reloadDue = lock.withLock { () -> Bool in
            state.sinceReload += seconds
            return state.live && state.sinceReload >= state.targetDuration
        }
        if reloadDue {
            lock.withLock { state.sinceReload = 0 }
            do {
                try await reload()
            } catch {
                if let status = error.status { failures.append((status, error.url)) }
            }
        }
        let due = lock.withLock { () -> [Segment] in
            let end = state.segments.last?.end ?? 0
            state.time = min(state.time + seconds, end)
            if !state.live && state.time >= end { state.playing = false }
            let due = state.segments.filter { $0.end > state.fetchedUpTo && $0.start <= state.time }
            state.fetchedUpTo = state.time
            return due
        }
        guard fetchSegments else { return failures }
        for segment in due {
            if let status = await fetchStatus(segment.url), !(200..<400).contains(status) {
                failures.append((status, segment.url))
            }
        }
        return failures
    }

    // MARK: Loading

    private func reload() async throws(LoadError) {
        guard let mediaURL else { return }
        let text = try await fetchText(mediaURL)
        if isMPD {
            let mpd: MPD
            do {
                mpd = try MPD(parsing: text)
            } catch {
                throw LoadError(url: mediaURL, status: 200, message: "not an MPD: \(error)")
            }
            let order = MPDPlayOrder(mpd, url: mediaURL.absoluteString, now: Date().timeIntervalSince1970)
            lock.withLock {
                state.live = order.isLive
                state.targetDuration = order.reloadInterval
                // What is not fetched yet is read again from this MPD: a segment the last one
                // reckoned by the clock may since have become an ad's.
                var known = state.segments
                while let last = known.last, last.start > state.fetchedUpTo, known.count > 1 { known.removeLast() }
                var next = known.last.map { $0.end } ?? 0
                let lastKey = known.last?.sequence ?? Int.min
                for entry in order.entries where entry.key > lastKey {
                    guard let url = URL(string: entry.url) else { continue }
                    known.append(
                        Segment(url: url, start: next, duration: entry.duration, sequence: entry.key, date: entry.date))
                    next += entry.duration
                }
                state.segments = known
            }
            return
        }
        let playlist: MediaPlaylist
        do {
            playlist = try MediaPlaylist(parsing: text)
        } catch {
            throw LoadError(url: mediaURL, status: 200, message: "not a media playlist: \(error)")
        }
        lock.withLock {
            state.live = !playlist.isFinished
            state.targetDuration = Double(max(playlist.targetDuration, 1))
            var known = state.segments
            var next = known.last.map { $0.end } ?? 0
            let lastSequence = known.last?.sequence ?? Int.min
            for (offset, segment) in playlist.segments.enumerated() {
                let sequence = playlist.mediaSequence + offset
                guard sequence > lastSequence, let url = URL(string: segment.uri, relativeTo: mediaURL)?.absoluteURL
                else { continue }
                known.append(
                    Segment(
                        url: url, start: next, duration: segment.duration, sequence: sequence,
                        date: segment.programDateTime?.secondsSince1970))
                next += segment.duration
            }
            // A live window's date-less segments take their date from the last dated one before them.
            for index in known.indices.dropFirst() where known[index].date == nil {
                known[index].date = known[index - 1].date.map { $0 + known[index - 1].duration }
            }
            state.segments = known
            let ranges = playlist.segments.flatMap(\.dateRanges) + (playlist.trailer?.dateRanges ?? [])
            for range in ranges
            where range.isInterstitial && !state.interstitials.contains(where: { $0.id == range.id }) {
                let cue = range.cue
                let date = range.startDate?.secondsSince1970
                let start = known.first.map { $0.start } ?? 0
                let end = known.last.map { $0.end } ?? 0
                var time = start
                if cue.contains("POST") {
                    time = end
                } else if !cue.contains("PRE"), let date {
                    let segment = known.last { ($0.date ?? .infinity) <= date + 0.0005 }
                    time = segment.map { $0.start + (date - ($0.date ?? date)) } ?? start
                }
                state.interstitials.append(
                    InterstitialMark(
                        id: range.id, time: time, pre: cue.contains("PRE"), post: cue.contains("POST"),
                        once: cue.contains("ONCE"),
                        assetList: range.assetList.flatMap { URL(string: $0, relativeTo: mediaURL)?.absoluteURL },
                        assetURI: range.assetURI.flatMap { URL(string: $0, relativeTo: mediaURL)?.absoluteURL },
                        duration: range.duration ?? range.playoutLimit))
            }
        }
    }

    private func fetchText(_ url: URL) async throws(LoadError) -> String {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await urlSession.data(from: url)
        } catch {
            throw LoadError(url: url, status: nil, message: "no answer: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw LoadError(url: url, status: status, message: "answered \(status)") }
        return String(decoding: data, as: UTF8.self)
    }

    private func fetchStatus(_ url: URL) async -> Int? {
        guard let (_, response) = try? await urlSession.data(from: url) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    private static func segment(at time: Double, in segments: [Segment]) -> Segment? {
        segments.last { $0.start <= time } ?? segments.first
    }
}

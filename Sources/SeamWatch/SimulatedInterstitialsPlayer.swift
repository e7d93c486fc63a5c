import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamKit

/// What the headless viewer drives: a simulated player it loads and steps.
package protocol SimulatedPlayback: PlayheadAdapter {
    func load(multivariant: URL) async throws(SimulatedPlayer.LoadError)
    /// Plays `seconds` on; answers the HTTP statuses that were not successes.
    func advance(by seconds: Double) async -> [(status: Int, url: URL)]
    var ended: Bool { get }
    var isLive: Bool { get }
}

extension SimulatedPlayer: SimulatedPlayback {}

/// A player of the interstitials rendering without a screen, as HLS Interstitials players behave
/// (the draft's section on playing interstitials; AVPlayer, hls.js): the primary plays the
/// content; at each interstitial's date (before the first segment for `CUE="PRE"`, after the
/// last for `"POST"`) it fetches the asset list and plays each asset's own playlist (fetching its
/// segments, so Seam's beacons fire), then the primary resumes — at the same point for VOD
/// (`X-RESUME-OFFSET=0`), further on by the break's length for live (the primary's timeline ran
/// on). A `CUE="ONCE"` interstitial plays once. It tells SeamKit where it is through
/// `InterstitialsPlayheadAdapter`.
///
/// Its requests carry the draft's interstitial parameters as hls.js and Shaka send them:
/// `_HLS_primary_id` (one id per player) on asset lists and assets, and, when live playback
/// starts inside an interstitial, `_HLS_start_offset` (seconds from the interstitial's start,
/// to the millisecond) on the asset list; it then passes by the assets that end before that
/// offset and starts the one it falls in that far into it (`AssetList.joinPoint(at:)`'s rule).
package final class SimulatedInterstitialsPlayer: SimulatedPlayback, InterstitialsPlayheadAdapter, @unchecked Sendable {
    package let primary: SimulatedPlayer
    private let urlSession: URLSession
    private let fetchSegments: Bool
    private let lock = NSLock()
    private var played: Set<String> = []
    private var current: Playing?
    /// Asset lists that could not be read, with why (the break is skipped, as players do).
    private var failures: [String] = []
    /// Whether playback has begun: only its start may join an interstitial under way.
    private var started = false
    /// `_HLS_primary_id`: this player's id for its primary playback.
    package let primaryID = UUID().uuidString

    private struct Asset {
        var url: URL
        var duration: Double
    }

    private struct Playing {
        var mark: SimulatedPlayer.InterstitialMark
        var assets: [Asset]
        var index: Int
        var player: SimulatedPlayer?
        var assetTime: Double
    }

    package init(urlSession: URLSession, fetchSegments: Bool = true) {
        self.urlSession = urlSession
        self.fetchSegments = fetchSegments
        primary = SimulatedPlayer(urlSession: urlSession, fetchSegments: fetchSegments)
    }

    // MARK: PlayheadAdapter

    package var currentTime: Double { primary.currentTime }
    package var duration: PlayheadDuration { primary.duration }
    package var volume: Float { 1 }
    package var isPlaying: Bool { lock.withLock { current != nil } || primary.isPlaying }
    package var currentDate: Double? { primary.currentDate }

    package var interstitial: InterstitialPosition? {
        lock.withLock {
            current.map {
                InterstitialPosition(interstitialID: $0.mark.id, assetIndex: $0.index, assetTime: $0.assetTime)
            }
        }
    }

    /// Seeks the primary (a seek over an interstitial does not play it). Going back before an
    /// interstitial without `CUE="ONCE"` plays it again when the primary reaches it.
    package func seek(to seconds: Double) async {
        let again = primary.interstitials.filter { !$0.once && !$0.pre && $0.time >= seconds }.map(\.id)
        lock.withLock { played.subtract(again) }
        await primary.seek(to: seconds)
    }

    // MARK: SimulatedPlayback

    package var isLive: Bool { primary.isLive }

    package var ended: Bool {
        guard primary.ended, lock.withLock({ current == nil }) else { return false }
        let posts = primary.interstitials.filter(\.post).map(\.id)
        return lock.withLock { posts.allSatisfy(played.contains) }
    }

    /// Asset lists or assets that failed, in order.
    package var problems: [String] { lock.withLock { failures } }

    package func load(multivariant: URL) async throws(SimulatedPlayer.LoadError) {
        try await primary.load(multivariant: multivariant)
    }

    package func advance(by seconds: Double) async -> [(status: Int, url: URL)] {
        if lock.withLock({ current != nil }) {
            return await advanceInterstitial(by: seconds)
        }
        var failures: [(status: Int, url: URL)] = []
        let time = primary.currentTime
        // An interstitial plays when the primary reaches it, once per pass (`seek(to:)` clears it).
        let done = lock.withLock { played }
        let marks = primary.interstitials.filter { !done.contains($0.id) }
        let starting = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        // Live playback that starts inside an interstitial joins it there (hls.js, Shaka).
        if starting, primary.isLive,
            let under = marks.first(where: {
                !$0.pre && !$0.post && $0.time < time - 0.0005 && time < $0.time + ($0.duration ?? 0)
            })
        {
            return await enter(under, startOffset: time - under.time)
        }
        if let pre = marks.first(where: { $0.pre }), time <= (primary.segments.first?.start ?? 0) + 0.001 {
            return await enter(pre)
        }
        if primary.ended, let post = marks.first(where: { $0.post }) {
            return await enter(post)
        }
        if let next = marks.filter({ !$0.pre && !$0.post && $0.time > time - 0.001 && $0.time <= time + seconds }).min(
            by: { $0.time < $1.time })
        {
            failures += await primary.advance(by: max(next.time - time, 0))
            return failures + (await enter(next))
        }
        return await primary.advance(by: seconds)
    }

    // MARK: Interstitials

    private func enter(
        _ mark: SimulatedPlayer.InterstitialMark, startOffset: Double = 0
    ) async -> [(status: Int, url: URL)] {
        var assets: [Asset] = []
        if let listURL = mark.assetList {
            var parameters = [URLQueryItem(name: "_HLS_primary_id", value: primaryID)]
            let offset = (startOffset * 1000).rounded() / 1000
            if offset > 0 { parameters.append(URLQueryItem(name: "_HLS_start_offset", value: Self.decimal(offset))) }
            let list = Self.adding(parameters, to: listURL)
            do {
                let (data, response) = try await urlSession.data(from: list)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200 else {
                    finish(mark, problem: "\(mark.id): asset list answered \(status)")
                    return [(status, list)]
                }
                assets = Self.assets(in: data, relativeTo: list)
            } catch {
                finish(mark, problem: "\(mark.id): asset list got no answer: \(error.localizedDescription)")
                return []
            }
        } else if let uri = mark.assetURI {
            assets = [Asset(url: uri, duration: mark.duration ?? 0)]
        }
        // Assets that end at or before the offset are passed by; the one it falls in starts that far in.
        var index = 0
        var assetTime = startOffset
        while index < assets.count, assetTime >= assets[index].duration - 0.0005 {
            assetTime -= assets[index].duration
            index += 1
        }
        guard index < assets.count else {
            finish(mark, problem: nil)
            return []
        }
        let playing = Playing(mark: mark, assets: assets, index: index, player: nil, assetTime: max(0, assetTime))
        lock.withLock { current = playing }
        return await startAsset()
    }

    /// `url` with `parameters` added to its query.
    private static func adding(_ parameters: [URLQueryItem], to url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.queryItems = (components.queryItems ?? []) + parameters
        return components.url ?? url
    }

    /// A number as JavaScript writes it (`12`, `12.5`, `12.345`): what hls.js and Shaka send.
    static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Loads the current asset's playlist; an asset that cannot be loaded is passed over.
    private func startAsset() async -> [(status: Int, url: URL)] {
        while let asset = lock.withLock({ current.map { $0.assets[$0.index] } }) {
            let player = SimulatedPlayer(urlSession: urlSession, fetchSegments: fetchSegments)
            do {
                let url = Self.adding([URLQueryItem(name: "_HLS_primary_id", value: primaryID)], to: asset.url)
                try await player.load(multivariant: url)
                // Joined inside this asset: it starts where the join put it.
                let startAt = lock.withLock { () -> Double in
                    current?.player = player
                    return current?.assetTime ?? 0
                }
                if startAt > 0 { await player.seek(to: startAt) }
                // The asset's first segment (the one it starts in) is requested as it starts.
                return await player.advance(by: 0)
            } catch {
                lock.withLock { failures.append("asset \(asset.url.absoluteString): \(error)") }
                guard nextAsset() else { return error.status.map { [($0, error.url)] } ?? [] }
            }
        }
        return []
    }

    private func advanceInterstitial(by seconds: Double) async -> [(status: Int, url: URL)] {
        guard
            let (player, remaining) = lock.withLock({
                current.flatMap { playing in
                    playing.player.map { ($0, playing.assets[playing.index].duration - playing.assetTime) }
                }
            })
        else { return [] }
        let step = min(seconds, max(remaining, 0))
        var failures = await player.advance(by: step)
        if primary.isLive { failures += await primary.advance(by: step) }
        let done = lock.withLock { () -> Bool in
            current?.assetTime += step
            guard let playing = current else { return true }
            return playing.assetTime >= playing.assets[playing.index].duration - 0.0005 || player.ended
        }
        guard done else { return failures }
        if nextAsset() {
            failures += await startAsset()
        }
        return failures
    }

    /// Moves to the next asset; false (and the interstitial over) after the last.
    private func nextAsset() -> Bool {
        lock.withLock {
            guard var playing = current else { return false }
            playing.index += 1
            playing.assetTime = 0
            playing.player = nil
            if playing.index < playing.assets.count {
                current = playing
                return true
            }
            played.insert(playing.mark.id)
            current = nil
            return false
        }
    }

    private func finish(_ mark: SimulatedPlayer.InterstitialMark, problem: String?) {
        lock.withLock {
            played.insert(mark.id)
            if let problem { failures.append(problem) }
        }
    }

    /// `{"ASSETS": [{"URI": ..., "DURATION": ...}]}`.
    private static func assets(in data: Data, relativeTo list: URL) -> [Asset] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["ASSETS"] as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry in
            guard let uri = entry["URI"] as? String, let url = URL(string: uri, relativeTo: list)?.absoluteURL,
                let duration = (entry["DURATION"] as? NSNumber)?.doubleValue
            else { return nil }
            return Asset(url: url, duration: duration)
        }
    }
}

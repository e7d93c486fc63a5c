import NIOConcurrencyHelpers
import Foundation
import HLS
import Stitching

/// Fetches ad creatives and keeps them for a few minutes: the same ad is stitched into many
/// sessions, and fetching its playlists again for each would slow every session start.
/// Concurrent loads of one creative share one fetch (`RequestCoalescer`), and each waits no
/// longer than its own deadline: a start with a short budget gets its time-out while the fetch
/// goes on for a start with a longer one.
package final class CreativeLoader: Sendable {
    private let upstream: any UpstreamFetching
    private let coalescer: RequestCoalescer<String, AdCreative, CreativeError>

    package struct CreativeError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Longest one creative playlist fetch may take (`upstream.adMediaTimeoutSeconds`), within the deadline.
    private let fetchTimeout: Duration?

    /// - Parameters:
    ///   - fetchTimeout: the time-out of one playlist fetch; nil: until the deadline of the load that starts the fetch.
    ///   - clock: the clock deadlines and the lifetime are read on.
    package init(
        upstream: any UpstreamFetching, lifetime: Duration = .seconds(300), fetchTimeout: Duration? = nil,
        clock: SeamClock = .continuous
    ) {
        self.upstream = upstream
        self.fetchTimeout = fetchTimeout
        coalescer = RequestCoalescer(lifetime: lifetime, capacity: 1000, clock: clock)
    }

    /// The creative at `url`, waited for until `deadline` at most. A fetch is its own time limit
    /// (twice `fetchTimeout`: the playlist, then its renditions) and is not cut by the deadline of
    /// the load that started it: a later load of the same creative with a later deadline waits
    /// for it. It is cancelled when no load waits for it any more.
    package func load(_ url: String, deadline: ContinuousClock.Instant) async -> Result<AdCreative, CreativeError> {
        await load(url, key: url, deadline: deadline) { upstream, limit, fetchTimeout in
            await Self.fetch(url, upstream: upstream, deadline: limit, fetchTimeout: fetchTimeout)
        }
    }

    /// One creative under `key` (an HLS creative's is its URL), fetched by `fetch` with the
    /// upstream client, the fetch's own deadline and the per-request time-out.
    func load(
        _ url: String, key: String, deadline: ContinuousClock.Instant,
        fetch:
            @escaping @Sendable (any UpstreamFetching, ContinuousClock.Instant, Duration?) async -> Result<
                AdCreative, CreativeError
            >
    ) async -> Result<AdCreative, CreativeError> {
        let upstream = self.upstream
        let fetchTimeout = self.fetchTimeout
        let clock = coalescer.clock
        let answer = await coalescer.value(for: key, deadline: deadline) { _ in
            let limit = fetchTimeout.map { clock.now + $0 * 2 } ?? deadline
            return await fetch(upstream, limit, fetchTimeout)
        }
        switch answer {
        case .result(let result):
            return result
        case .timedOut:
            return .failure(
                CreativeError(
                    description: "creative \(url) did not arrive within the ad budget (ads.totalBudgetSeconds)"
                ))
        case .cancelled:
            return .failure(CreativeError(description: "creative \(url): the load was cancelled"))
        }
    }

    /// The time-out of a fetch starting now: the fetch time-out, cut to what is left until the deadline.
    private static func timeout(until deadline: ContinuousClock.Instant, fetchTimeout: Duration?) -> Duration {
        let left = max(.milliseconds(1), deadline - ContinuousClock.now)
        return fetchTimeout.map { min($0, left) } ?? left
    }

    private static func fetchPlaylist(
        _ url: String, upstream: any UpstreamFetching, deadline: ContinuousClock.Instant,
        fetchTimeout: Duration?
    ) async throws(CreativeError) -> (Playlist, String) {
        guard ContinuousClock.now < deadline else {
            throw CreativeError(
                description:
                    "creative playlist \(url) not fetched: the ad budget (ads.totalBudgetSeconds) ran out first")
        }
        let timeout = timeout(until: deadline, fetchTimeout: fetchTimeout)
        let cutByBudget = fetchTimeout.map { timeout < $0 } ?? true
        do {
            let fetched = try await OriginClient(upstream: upstream)
                .fetchPlaylist(UpstreamRequest(url: url, purpose: .adMedia, timeout: timeout, deadline: deadline))
            return (fetched.playlist, fetched.finalURL)
        } catch {
            switch error {
            case .upstream(.timeout) where cutByBudget || ContinuousClock.now >= deadline:
                throw CreativeError(
                    description: "creative playlist \(url) did not arrive within the ad budget (ads.totalBudgetSeconds)"
                )
            case .upstream(.timeout):
                throw CreativeError(
                    description: "creative playlist \(url) did not answer within upstream.adMediaTimeoutSeconds")
            case .upstream(let error):
                throw CreativeError(description: "creative playlist \(url): \(error)")
            case .refused(let reason):
                throw CreativeError(description: "creative playlist \(url): \(reason)")
            case .unreadable(let error):
                if case .valueOutOfRange = error {
                    throw CreativeError(
                        description: "creative playlist \(url) has a number no stream can carry: \(error)")
                }
                throw CreativeError(description: "creative playlist \(url) is not HLS: \(error)")
            }
        }
    }

    /// An ad of more segments than `AdCreative.maxSegments` is no ad (it would also cost every
    /// session that plays it a stitched copy of all of them).
    private static func checkSegments(_ media: MediaPlaylist, url: String) throws(CreativeError) {
        guard media.segments.count <= AdCreative.maxSegments else {
            throw CreativeError(
                description:
                    "creative playlist \(url) lists \(media.segments.count) segments; an ad has at most \(AdCreative.maxSegments)"
            )
        }
    }

    static func fetch(
        _ url: String, upstream: any UpstreamFetching, deadline: ContinuousClock.Instant,
        fetchTimeout: Duration? = nil
    ) async -> Result<AdCreative, CreativeError> {
        do {
            let (playlist, finalURL) = try await fetchPlaylist(
                url, upstream: upstream, deadline: deadline, fetchTimeout: fetchTimeout)
            switch playlist {
            case .media(var media):
                media.resolveURIs(against: finalURL)
                guard media.isFinished else { throw CreativeError(description: "creative \(url) is a live playlist") }
                try checkSegments(media, url: url)
                return .success(AdCreative(url: url, catalog: AdMediaCatalog(mediaPlaylist: media, uri: finalURL)))
            case .multivariant(var multivariant):
                multivariant.resolveURIs(against: finalURL)
                // Variants, audio and subtitle renditions: the matchers choose among all of them.
                let uris = AdMediaCatalog.mediaPlaylistURIs(of: multivariant)
                guard uris.count <= AdCreative.maxRenditions else {
                    throw CreativeError(
                        description:
                            "creative \(url) lists \(uris.count) renditions; Seam fetches at most \(AdCreative.maxRenditions) for one ad"
                    )
                }
                var playlists: [String: MediaPlaylist] = [:]
                try await withThrowingTaskGroup(of: (String, MediaPlaylist).self) { group in
                    for uri in uris {
                        group.addTask {
                            let (playlist, final) = try await fetchPlaylist(
                                uri, upstream: upstream, deadline: deadline, fetchTimeout: fetchTimeout)
                            guard case .media(var media) = playlist else {
                                throw CreativeError(description: "creative rendition \(uri) is not a media playlist")
                            }
                            media.resolveURIs(against: final)
                            try checkSegments(media, url: uri)
                            return (uri, media)
                        }
                    }
                    for try await (uri, media) in group { playlists[uri] = media }
                }
                let catalog = AdMediaCatalog(multivariant: multivariant, playlists: playlists)
                guard !catalog.variants.isEmpty else {
                    throw CreativeError(description: "creative \(url) lists no variants")
                }
                return .success(AdCreative(url: url, catalog: catalog))
            }
        } catch let error as CreativeError {
            return .failure(error)
        } catch {
            return .failure(CreativeError(description: "creative \(url): \(error)"))
        }
    }
}

extension CreativeLoader {
    /// Creative playlists fetched at once for one session start or live break: enough that a
    /// pod's creatives load in about one round trip, few enough that one start cannot take the
    /// whole ad pool (`upstream.adConnectionsPerHost`) from the others.
    static let concurrencyPerPod = 8

    /// Loads `urls` concurrently, at most `concurrency` at a time, by `deadline`. The result has
    /// one entry per URL, in order: nil for a URL not started before the deadline.
    func loadAll(
        _ urls: [String], deadline: ContinuousClock.Instant,
        concurrency: Int = CreativeLoader.concurrencyPerPod,
        load: (@Sendable (String, ContinuousClock.Instant) async -> Result<AdCreative, CreativeError>)? = nil
    ) async -> [Result<AdCreative, CreativeError>?] {
        let fetch = load ?? { url, deadline in await self.load(url, deadline: deadline) }
        // Every fetch ends by the deadline (it is passed to the upstream client), so the group
        // does too; no load starts after it.
        return await withTaskGroup(of: (Int, Result<AdCreative, CreativeError>).self) { group in
            var results = [Result<AdCreative, CreativeError>?](repeating: nil, count: urls.count)
            var next = 0
            func startNext() {
                guard next < urls.count, coalescer.clock.now < deadline else { return }
                let number = next
                next += 1
                group.addTask { (number, await fetch(urls[number], deadline)) }
            }
            for _ in 0..<min(max(1, concurrency), urls.count) { startNext() }
            while let (number, result) = await group.next() {
                results[number] = result
                startNext()
            }
            return results
        }
    }
}

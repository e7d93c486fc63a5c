import HLS
import NIOCore
import Stitching

/// Fetches a title's playlists at session start: the multivariant playlist, then every media
/// playlist Seam stitches, concurrently, within the session's cost limits (one byte budget for
/// all of them, a cap on renditions and on segments per playlist). One failure fails the start.
struct ContentLoader: Sendable {
    let origin: OriginClient
    let limits: SessionCostLimits

    /// Fetches and parses one content playlist: its bytes count against `budget`, and a media
    /// playlist over `sessions.maxSegmentsPerPlaylist` is refused before it is parsed.
    func fetchPlaylist(_ url: String, budget: ContentByteBudget) async throws(SeamError) -> OriginClient.Fetched {
        let observer = limits.observer(for: url, budget: budget)
        let fetched: OriginClient.Fetched
        do {
            fetched = try await origin.fetchPlaylist(
                UpstreamRequest(url: url, purpose: .origin, bodyObserver: observer)
            ) {
                observer.finish($0)
            }
        } catch {
            throw origin.originError(error, url: url)
        }
        if case .media(let media) = fetched.playlist {
            try limits.checkSegments(media.segments.count, url: url)
        }
        return fetched
    }

    func load(_ url: String) async throws(SeamError) -> ContentSet {
        let budget = ContentByteBudget(limit: limits.maxContentBytes)
        let fetched = try await fetchPlaylist(url, budget: budget)
        switch fetched.playlist {
        case .media(var media):
            media.resolveURIs(against: fetched.finalURL)
            return ContentSet(media: media, url: fetched.finalURL)
        case .multivariant(var multivariant):
            multivariant.resolveURIs(against: fetched.finalURL)
            guard !multivariant.variants.isEmpty else {
                throw SeamError(.originInvalidPlaylist, "the multivariant playlist at \(url) lists no variants")
            }
            let wanted = ContentSet.wanted(in: multivariant)
            // Counted before any media playlist is fetched.
            try limits.checkRenditions(wanted.count, url: url)
            let results = await withTaskGroup(of: (RenditionKey, Result<MediaPlaylist, SeamError>).self) { group in
                for item in wanted {
                    group.addTask {
                        let fetched = await Result { () async throws(SeamError) in
                            try await fetchPlaylist(item.uri, budget: budget)
                        }
                        switch fetched {
                        case .failure(let error):
                            return (item.key, .failure(error))
                        case .success(let answer):
                            guard case .media(var media) = answer.playlist else {
                                return (
                                    item.key,
                                    .failure(SeamError(.originInvalidPlaylist, "\(item.uri) is not a media playlist"))
                                )
                            }
                            media.resolveURIs(against: answer.finalURL)
                            return (item.key, .success(media))
                        }
                    }
                }
                var all: [(RenditionKey, Result<MediaPlaylist, SeamError>)] = []
                for await result in group {
                    all.append(result)
                    // One failure fails the start: the other fetches are of no more use.
                    if case .failure = result.1 {
                        group.cancelAll()
                        break
                    }
                }
                return all
            }
            var fetched: [RenditionKey: MediaPlaylist] = [:]
            for (key, result) in results {
                switch result {
                case .success(let media): fetched[key] = media
                case .failure(let error): throw error
                }
            }
            let renditions = wanted.compactMap { item -> ContentSet.Rendition? in
                guard let playlist = fetched[item.key] else { return nil }
                return ContentSet.Rendition(
                    key: item.key, variant: item.variant, rendition: item.rendition, playlist: playlist,
                    sourceURL: item.uri)
            }
            guard let content = ContentSet(multivariant: multivariant, renditions: renditions) else {
                throw SeamError(.originInvalidPlaylist, "the multivariant playlist at \(url) lists no variants")
            }
            return content
        }
    }
}

extension Result {
    /// `Result(catching:)` for async typed-throwing work.
    init(_ body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

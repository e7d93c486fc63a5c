import Foundation
import HLS

/// An ad's HLS creative with every rendition fetched, URIs absolute.
public struct AdCreative: Sendable {
    public struct Variant: Sendable {
        public var stream: VariantStream
        public var playlist: MediaPlaylist
    }

    public struct AudioRendition: Sendable {
        public var rendition: Rendition
        public var playlist: MediaPlaylist
    }

    public var url: String
    public var variants: [Variant]
    public var audio: [AudioRendition]

    /// True when the creative's segments are fMP4 (they carry `EXT-X-MAP`).
    public var isFragmentedMP4: Bool {
        variants.contains { $0.playlist.segments.first?.map != nil }
    }
}

/// Fetches ad creatives and keeps them for a few minutes: the same ad is stitched into many
/// sessions, and fetching its playlists again for each would slow every session start.
public actor CreativeLoader {
    private let upstream: any UpstreamFetching
    private let lifetime: Duration
    private var cache: [String: (creative: AdCreative, loadedAt: ContinuousClock.Instant)] = [:]
    private var inFlight: [String: Task<Result<AdCreative, CreativeError>, Never>] = [:]

    public struct CreativeError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(upstream: any UpstreamFetching, lifetime: Duration = .seconds(300)) {
        self.upstream = upstream
        self.lifetime = lifetime
    }

    public func load(_ url: String, deadline: ContinuousClock.Instant) async -> Result<AdCreative, CreativeError> {
        let now = ContinuousClock.now
        if let hit = cache[url], now - hit.loadedAt < lifetime { return .success(hit.creative) }
        if let task = inFlight[url] { return await task.value }
        let upstream = self.upstream
        let task = Task { await Self.fetch(url, upstream: upstream, deadline: deadline) }
        inFlight[url] = task
        let result = await task.value
        inFlight[url] = nil
        if case .success(let creative) = result {
            cache[url] = (creative, ContinuousClock.now)
            if cache.count > 1000 { cache = cache.filter { ContinuousClock.now - $0.value.loadedAt < lifetime } }
        }
        return result
    }

    private static func timeout(until deadline: ContinuousClock.Instant) -> Duration {
        max(.milliseconds(100), deadline - ContinuousClock.now)
    }

    private static func fetchPlaylist(_ url: String, upstream: any UpstreamFetching, deadline: ContinuousClock.Instant) async throws(CreativeError) -> (Playlist, String) {
        let response: UpstreamResponse
        do {
            response = try await upstream.fetch(UpstreamRequest(url: url, purpose: .adMedia, timeout: timeout(until: deadline)))
        } catch {
            throw CreativeError(description: "creative playlist \(url): \(error)")
        }
        do {
            return (try Playlist(parsing: String(buffer: response.body)), response.finalURL)
        } catch {
            if case .valueOutOfRange = error {
                throw CreativeError(description: "creative playlist \(url) has a number no stream can carry: \(error)")
            }
            throw CreativeError(description: "creative playlist \(url) is not HLS: \(error)")
        }
    }

    static func fetch(_ url: String, upstream: any UpstreamFetching, deadline: ContinuousClock.Instant) async -> Result<AdCreative, CreativeError> {
        do {
            let (playlist, finalURL) = try await fetchPlaylist(url, upstream: upstream, deadline: deadline)
            switch playlist {
            case .media(var media):
                media.resolveURIs(against: finalURL)
                guard media.isFinished else { throw CreativeError(description: "creative \(url) is a live playlist") }
                return .success(AdCreative(url: url, variants: [.init(stream: VariantStream(uri: finalURL, bandwidth: 0), playlist: media)], audio: []))
            case .multivariant(var multivariant):
                multivariant.resolveURIs(against: finalURL)
                let streams = multivariant.variants
                let audio = multivariant.renditions.filter { $0.type == .audio && $0.uri != nil }
                var variants: [AdCreative.Variant] = []
                var audioRenditions: [AdCreative.AudioRendition] = []
                try await withThrowingTaskGroup(of: (Int, MediaPlaylist).self) { group in
                    for (index, uri) in (streams.map(\.uri) + audio.compactMap(\.uri)).enumerated() {
                        group.addTask {
                            let (playlist, final) = try await fetchPlaylist(uri, upstream: upstream, deadline: deadline)
                            guard case .media(var media) = playlist else {
                                throw CreativeError(description: "creative rendition \(uri) is not a media playlist")
                            }
                            media.resolveURIs(against: final)
                            return (index, media)
                        }
                    }
                    var fetched: [Int: MediaPlaylist] = [:]
                    for try await (index, media) in group { fetched[index] = media }
                    for (index, stream) in streams.enumerated() {
                        if let media = fetched[index] { variants.append(.init(stream: stream, playlist: media)) }
                    }
                    for (offset, rendition) in audio.enumerated() {
                        if let media = fetched[streams.count + offset] { audioRenditions.append(.init(rendition: rendition, playlist: media)) }
                    }
                }
                guard !variants.isEmpty else { throw CreativeError(description: "creative \(url) lists no variants") }
                return .success(AdCreative(url: url, variants: variants, audio: audioRenditions))
            }
        } catch let error as CreativeError {
            return .failure(error)
        } catch {
            return .failure(CreativeError(description: "creative \(url): \(error)"))
        }
    }
}

import HLS
import NIOCore

/// Fetches and parses HLS playlists: the one place an upstream answer becomes a `Playlist`.
/// Content starts, the live origin cache and the creative loader all go through it; each then
/// says what a failure means for its caller (`SeamError` for the origin, a skipped ad for a
/// creative).
struct OriginClient: Sendable {
    let upstream: any UpstreamFetching

    /// Why a playlist fetch gave nothing usable.
    enum Failure: Error, Sendable {
        /// The upstream request failed (time-out, status, size, SSRF rules, ...).
        case upstream(UpstreamError)
        /// The body arrived but the caller's check refused it (a content byte budget).
        case refused(String)
        /// The body is not an HLS playlist Seam can read.
        case unreadable(PlaylistParseError)
    }

    struct Fetched: Sendable {
        var playlist: Playlist
        /// After redirects: relative URIs resolve against it.
        var finalURL: String
    }

    /// - Parameter check: looks at the whole body before it is parsed; a reason refuses it.
    func fetchPlaylist(
        _ request: UpstreamRequest, check: (ByteBuffer) -> String? = { _ in nil }
    ) async throws(Failure) -> Fetched {
        let response: UpstreamResponse
        do {
            response = try await upstream.fetch(request)
        } catch {
            throw .upstream(error)
        }
        if let reason = check(response.body) { throw .refused(reason) }
        do {
            return Fetched(playlist: try Playlist(parsing: String(buffer: response.body)), finalURL: response.finalURL)
        } catch {
            throw .unreadable(error)
        }
    }

    /// What an origin playlist failure tells the player (and the fallback decision): the
    /// origin's trouble, or a playlist Seam will not serve, naming the setting when one applies.
    func originError(_ failure: Failure, url: String) -> SeamError {
        switch failure {
        case .upstream(.refused(_, let reason)), .refused(let reason):
            return SeamError(.originInvalidPlaylist, reason)
        case .upstream(.tooLarge(_, let limit)):
            return SeamError(
                .originInvalidPlaylist,
                "the origin's playlist at \(url) is larger than upstream.maxPlaylistBytes (\(limit) bytes); raise upstream.maxPlaylistBytes if this content is meant to play"
            )
        case .upstream(let error):
            return Self.originError(error, url: url)
        case .unreadable(let error):
            if case .valueOutOfRange = error {
                return SeamError(
                    .originInvalidPlaylist,
                    "the origin's playlist at \(url) has a number no stream can carry, so Seam does not serve it: \(error)"
                )
            }
            return SeamError(.originInvalidPlaylist, "the origin's answer for \(url) is not an HLS playlist: \(error)")
        }
    }

    static func originError(_ error: UpstreamError, url: String) -> SeamError {
        switch error {
        case .timeout:
            return SeamError(
                .originTimeout, "the origin did not answer in time for \(url); try again, or check the origin")
        case .blocked(let host, let reason):
            return SeamError(.domainNotAllowed, "Seam may not fetch from \(host): \(reason)")
        case .invalidURL: return SeamError(.invalidPlaybackURL, "\(url) is not an http(s) URL")
        case .notTLS:
            return SeamError(
                .originNotTLS,
                "the origin at \(url) answered plain HTTP to Seam's https request: give its http:// URL, or add seam.scheme=http to a /v1/hls/ stream URL"
            )
        case .status(_, let code) where code == 404 || code == 410:
            return SeamError(
                .originNotFound,
                "the origin answered HTTP \(code) for \(url): nothing is there; check the playlist URL (its path and host)"
            )
        case .loop:
            return SeamError(
                .loopDetected,
                "\(url) is a Seam URL, not the origin's: Seam does not put a Seam session inside another; give the origin's own playlist URL"
            )
        default: return SeamError(.originUnavailable, "the origin could not be reached for \(url): \(error)")
        }
    }
}

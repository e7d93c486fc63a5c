import HLS
import NIOCore
import Testing
@testable import SeamServer

/// The one fetch-and-parse of playlists, against a scripted upstream (no sockets): what each
/// failure means for a content start or a live reload.
@Suite struct OriginClientTests {
    struct Scripted: UpstreamFetching {
        var answer: Result<String, UpstreamError>

        func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
            switch answer {
            case .success(let body):
                return UpstreamResponse(
                    status: 200, body: ByteBuffer(string: body), finalURL: request.url + "?redirected")
            case .failure(let error): throw error
            }
        }
    }

    let url = "https://origin.example/a.m3u8"

    func failure(
        _ answer: Result<String, UpstreamError>, check: @escaping (ByteBuffer) -> String? = { _ in nil }
    ) async -> SeamError? {
        let client = OriginClient(upstream: Scripted(answer: answer))
        do {
            _ = try await client.fetchPlaylist(UpstreamRequest(url: url, purpose: .origin), check: check)
            return nil
        } catch {
            return client.originError(error, url: url)
        }
    }

    @Test func aPlaylistIsParsedWithItsFinalURL() async throws {
        let client = OriginClient(
            upstream: Scripted(
                answer: .success("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n")))
        let fetched = try await client.fetchPlaylist(UpstreamRequest(url: url, purpose: .origin))
        #expect(fetched.finalURL == url + "?redirected")
        guard case .media(let media) = fetched.playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(media.segments.count == 1)
    }

    @Test func eachFailureTellsThePlayerWhatWentWrong() async {
        #expect(await failure(.failure(.timeout(url: url, after: .seconds(2))))?.code == .originTimeout)
        #expect(await failure(.failure(.status(url: url, code: 503)))?.code == .originUnavailable)
        #expect(
            await failure(.failure(.blocked(host: "origin.example", reason: "private address")))?.code
                == .domainNotAllowed)
        let large = await failure(.failure(.tooLarge(url: url, limit: 1000)))
        #expect(large?.code == .originInvalidPlaylist)
        #expect(large?.message.contains("upstream.maxPlaylistBytes (1000 bytes)") == true)
        let refused = await failure(.failure(.refused(url: url, reason: "more than sessions.maxSegmentsPerPlaylist")))
        #expect(refused == SeamError(.originInvalidPlaylist, "more than sessions.maxSegmentsPerPlaylist"))
        let html = await failure(.success("<html>not found</html>"))
        #expect(html?.code == .originInvalidPlaylist)
        #expect(html?.message.contains("is not an HLS playlist") == true)
        let checked = await failure(.success("#EXTM3U\n"), check: { _ in "over sessions.maxContentBytes" })
        #expect(checked == SeamError(.originInvalidPlaylist, "over sessions.maxContentBytes"))
    }
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SeamTesting
@testable import SeamServer

/// An `UpstreamFetching` over AsyncHTTPClient, as the production client is: it enforces
/// `UpstreamRequest.timeout` with an AHC deadline. Tests against real local servers use it.
struct HTTPClientFetcher: UpstreamFetching {
    let recorder = RequestRecorder()

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        await recorder.record(request)
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = .GET
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        let timeout = request.timeout ?? .seconds(5)
        let (seconds, attoseconds) = timeout.components
        let amount = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: amount)
            let body = try await response.body.collect(upTo: 1 << 20)
            return UpstreamResponse(status: Int(response.status.code), body: body, finalURL: request.url)
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw .timeout(url: request.url, after: timeout)
        } catch {
            throw .unreachable(url: request.url, reason: "\(error)")
        }
    }
}

/// Headers a live test server saw, per path.
actor SeenHeaders {
    private(set) var byPath: [String: [HTTPFields]] = [:]
    func record(_ path: String, _ fields: HTTPFields) { byPath[path, default: []].append(fields) }
    func count(_ path: String) -> Int { byPath[path]?.count ?? 0 }
}

/// Runs `body` against a real Hummingbird server on 127.0.0.1 and an ephemeral port; `body`
/// gets the server's base URL.
func withLiveServer<T: Sendable>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: @Sendable (String) async throws -> T
) async throws -> T {
    let router = Router()
    configure(router)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: quietLogger)
    return try await app.test(.live) { client in
        guard let port = client.port else { throw LiveServerError.noPort }
        return try await body("http://127.0.0.1:\(port)")
    }
}

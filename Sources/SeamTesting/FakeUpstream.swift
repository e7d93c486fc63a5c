import NIOCore
import SeamServer

/// Records every request a fake or real upstream received, in order.
package actor RequestRecorder {
    package init() {}

    package private(set) var requests: [UpstreamRequest] = []

    package func record(_ request: UpstreamRequest) { requests.append(request) }

    package var urls: [String] { requests.map(\.url) }

    package func requests(purpose: UpstreamPurpose) -> [UpstreamRequest] { requests.filter { $0.purpose == purpose } }

    package func urls(purpose: UpstreamPurpose) -> [String] { requests(purpose: purpose).map(\.url) }
}

/// What a ``FakeUpstream`` answers for one URL.
package indirect enum FakeRoute: Sendable {
    case body(String)
    case status(Int, String)
    case error(UpstreamError)
    /// Waits (cancellably, as a real client would stop on cancellation), then answers.
    case delay(Duration, FakeRoute)
    /// Answers with the routes in turn, the last one for every later request.
    case sequence([FakeRoute], counter: HitCounter)
}

/// Counts hits per route for ``FakeRoute/sequence(_:counter:)``.
package actor HitCounter {
    package init() {}

    private var hits = 0
    package func next() -> Int {
        defer { hits += 1 }
        return hits
    }
}

/// An in-memory `UpstreamFetching`: routes by URL without its query; unknown URLs answer 404,
/// and beacon-looking URLs (`/track/`) answer 200. Every request is recorded.
///
/// Note it does not enforce `UpstreamRequest.timeout` by itself: tests of the client's own
/// deadline backstop rely on that.
package struct FakeUpstream: UpstreamFetching {
    package let routes: [String: FakeRoute]
    package let recorder = RequestRecorder()

    package init(_ routes: [String: FakeRoute] = [:]) {
        self.routes = routes
    }

    package func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        await recorder.record(request)
        let key = String(request.url.prefix { $0 != "?" })
        guard let route = routes[key] ?? routes[request.url] else {
            if key.contains("/track/") { return FakeUpstream.response(200, "", url: request.url) }
            throw .status(url: request.url, code: 404)
        }
        return try await answer(route, request: request)
    }

    private func answer(_ route: FakeRoute, request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        switch route {
        case .body(let body):
            return FakeUpstream.response(200, body, url: request.url)
        case .status(let code, let body):
            return FakeUpstream.response(code, body, url: request.url)
        case .error(let error):
            throw error
        case .delay(let duration, let then):
            do {
                try await Task.sleep(for: duration)
            } catch {
                throw .unreachable(url: request.url, reason: "cancelled")
            }
            return try await answer(then, request: request)
        case .sequence(let routes, let counter):
            let index = await counter.next()
            guard let route = routes.indices.contains(index) ? routes[index] : routes.last else {
                throw .status(url: request.url, code: 404)
            }
            return try await answer(route, request: request)
        }
    }

    package static func response(_ status: Int, _ body: String, url: String) -> UpstreamResponse {
        UpstreamResponse(status: status, body: ByteBuffer(string: body), finalURL: url)
    }
}

/// An `UpstreamFetching` that records one client span per request Seam makes upstream, named by
/// what the request is for (the request's `purpose`): `origin.fetch`, `ad.request` (the ad tag
/// and each VAST wrapper hop), `creative.fetch`, `beacon.send`, `analytics.send`.
///
/// Attributes follow OpenTelemetry's HTTP client conventions: `http.request.method`, `url.full`
/// without its query or fragment (ad tags and beacons carry device IPs, user agents and consent
/// strings there), `http.response.status_code`, and `error.type` with an error status when the
/// request failed or answered 4xx/5xx. Origin, ad server and ad CDN requests carry the W3C
/// `traceparent` header, so those services can join the trace; beacons and analytics do not
/// (third parties that have no use for it).
///
/// `SeamServices` wraps its upstream in one of these when tracing is on; off, nothing is wrapped.
package struct TracingUpstream: UpstreamFetching {
    package let upstream: any UpstreamFetching
    let tracer: SeamTracer

    package init(_ upstream: any UpstreamFetching, tracer: SeamTracer) {
        self.upstream = upstream
        self.tracer = tracer
    }

    package var keepsDeadlines: Bool { upstream.keepsDeadlines }

    package func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let upstream = self.upstream
        let tracer = self.tracer
        return try await tracer.span(request.purpose.spanName, kind: .client) { span throws(UpstreamError) in
            span.set("http.request.method", request.method)
            span.set("url.full", Self.redacted(request.url))
            span.set("seam.upstream.purpose", request.purpose.rawValue)
            var request = request
            if request.purpose.propagatesTrace { tracer.inject(into: &request.headers) }
            let response: UpstreamResponse
            do throws(UpstreamError) {
                response = try await upstream.fetch(request)
            } catch {
                // The production client reports a non-2xx answer as an error: still its status.
                if case .status(_, let code) = error { span.set("http.response.status_code", code) }
                throw error
            }
            span.set("http.response.status_code", response.status)
            if response.status >= 400 {
                span.fail(type: "\(response.status)", message: "answered HTTP \(response.status)")
            }
            return response
        }
    }

    /// `url` without its query and fragment.
    static func redacted(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

extension UpstreamPurpose {
    /// The span a request for this purpose is recorded as.
    var spanName: String {
        switch self {
        case .origin: return "origin.fetch"
        case .adDecision: return "ad.request"
        case .adMedia: return "creative.fetch"
        case .beacon: return "beacon.send"
        case .analytics: return "analytics.send"
        case .conditioning: return "conditioning.download"
        }
    }

    /// Whether requests for this purpose carry `traceparent`: Seam's own upstreams do, tracking
    /// endpoints and collectors do not.
    var propagatesTrace: Bool {
        switch self {
        case .origin, .adDecision, .adMedia, .conditioning: return true
        case .beacon, .analytics: return false
        }
    }
}

import NIOCore

/// What kind of upstream a request goes to; each has its own limits in configuration.
package enum UpstreamPurpose: String, Sendable {
    /// Content playlists from the origin.
    case origin
    /// VAST/VMAP from the ad decision server.
    case adDecision
    /// Ad creative playlists from the ad CDN.
    case adMedia
    /// Tracking beacons and VAST error URLs.
    case beacon
    /// Batches of session analytics POSTed to the configured collectors.
    case analytics
    /// Ad conditioning's downloads: MP4 creatives, and content segments probed for their shape
    /// (`conditioning.maxInputBytes`, `conditioning.jobTimeoutSeconds`).
    case conditioning
}

/// One request Seam makes upstream. Every request has a time-out and a size limit.
package struct UpstreamRequest: Sendable {
    package var url: String
    package var method: String
    package var headers: [(name: String, value: String)]
    package var purpose: UpstreamPurpose
    /// Overrides the purpose's configured time-out (for the ADS budget, say). The time-out is the
    /// upstream's: how long it may take to answer once a connection to it is free.
    package var timeout: Duration?
    /// The caller's own end (a session start's ad budget, say): neither waiting for a free
    /// connection nor the answer goes past it. Nil: waiting is bounded by the time-out alone.
    package var deadline: ContinuousClock.Instant?
    /// Overrides the purpose's size limit with a smaller one.
    package var sizeLimit: Int?
    /// Sees the body as it streams in and may refuse it part way (`UpstreamError.refused`).
    package var bodyObserver: (any UpstreamBodyObserver)?
    /// The request's own body (an analytics POST); sent again on a redirect that keeps the method.
    package var body: ByteBuffer?

    package init(
        url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
        purpose: UpstreamPurpose, timeout: Duration? = nil, deadline: ContinuousClock.Instant? = nil,
        sizeLimit: Int? = nil, bodyObserver: (any UpstreamBodyObserver)? = nil, body: ByteBuffer? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.purpose = purpose
        self.timeout = timeout
        self.deadline = deadline
        self.sizeLimit = sizeLimit
        self.bodyObserver = bodyObserver
        self.body = body
    }
}

package struct UpstreamResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: ByteBuffer
    /// The URL after redirects: relative URIs in a playlist resolve against this.
    package var finalURL: String

    package init(status: Int, headers: [(name: String, value: String)] = [], body: ByteBuffer, finalURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.finalURL = finalURL
    }

    package var bodyBytes: [UInt8] { Array(buffer: body) }
}

/// Why an upstream request failed, with what the operator needs to fix it.
package enum UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http(s) URL, or unparseable.
    case invalidURL(String)
    /// Configuration does not allow this host, or it resolves to a loopback, link-local or
    /// private address (SSRF protection); `reason` names which.
    case blocked(host: String, reason: String)
    case timeout(url: String, after: Duration)
    case tooLarge(url: String, limit: Int)
    case tooManyRedirects(url: String)
    /// DNS or connection failure.
    case unreachable(url: String, reason: String)
    /// A non-2xx answer.
    case status(url: String, code: Int)
    /// The body was refused part way by the request's `bodyObserver`; `reason` says which cap.
    case refused(url: String, reason: String)
    /// Seam's own connections to the host were all busy until the wait ended: the upstream was
    /// never asked. `setting` is the pool size to raise.
    case noConnection(url: String, waited: Duration, setting: String)
    /// The answer came from a Seam (`Via: 1.1 seam`, `LoopGuard`): a Seam's URL used as the
    /// content, ad or creative of another Seam session.
    case loop(url: String)
    /// Seam spoke TLS (an `https` URL) to a server that answered in plain HTTP.
    case notTLS(url: String)

    package var description: String {
        switch self {
        case .invalidURL(let url): return "not a valid http(s) URL: \(url)"
        case .blocked(let host, let reason): return "fetching from \(host) is not allowed: \(reason)"
        case .timeout(let url, let after): return "\(url) did not answer within \(after)"
        case .tooLarge(let url, let limit): return "\(url) sent more than \(limit) bytes"
        case .tooManyRedirects(let url): return "\(url) redirected too many times"
        case .unreachable(let url, let reason): return "\(url) is unreachable: \(reason)"
        case .status(let url, let code): return "\(url) answered HTTP \(code)"
        case .refused(let url, let reason): return "\(url) was refused: \(reason)"
        case .noConnection(let url, let waited, let setting):
            return
                "\(url) was not requested: every connection to its host was busy for \(waited); raise \(setting) if the host can take more requests at once"
        case .loop(let url):
            return "\(url) is a Seam URL (its answer says Via: 1.1 seam): give the origin's own URL, not a Seam's"
        case .notTLS(let url):
            return "\(url) answered plain HTTP to Seam's TLS handshake: use an http:// URL for it"
        }
    }
}

/// Sees an upstream answer's body as it streams in, and may stop it: a cap on what a body holds
/// (segments of a playlist, a byte budget several fetches share) then ends the download itself,
/// rather than only the parse after the whole body is in memory.
package protocol UpstreamBodyObserver: Sendable {
    /// Called with each chunk of the body, in order. Nil to go on; otherwise why the answer is
    /// refused (the fetch fails with `UpstreamError.refused`).
    func observe(_ chunk: ByteBuffer) -> String?
}

/// Everything Seam fetches goes through one of these. The production implementation
/// (`SafeUpstreamClient`) enforces the host allow-list, SSRF rules, time-outs and size limits;
/// tests may substitute their own.
package protocol UpstreamFetching: Sendable {
    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse

    /// Whether `fetch` ends by the request's `deadline`, and by its `timeout` after a connection
    /// was free, on its own (`SafeUpstreamClient` does). Callers that must not wait past a
    /// deadline race a fetcher that does not (`AdDecisionClient`'s ad requests); racing one that
    /// does only costs a task group, two tasks and a timer per request.
    var keepsDeadlines: Bool { get }
}

extension UpstreamFetching {
    package var keepsDeadlines: Bool { false }
}

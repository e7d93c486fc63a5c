import CoreMetrics
import Foundation
import HLS
import Logging
import VAST

/// Asks the ad decision server (ADS) for the ads of a break and turns the answer into
/// ``AdBreakDecision`` values the stitcher can use, within the viewer's time budget.
///
/// Every request goes through ``UpstreamFetching`` with purpose `.adDecision` (so the host
/// allow-list, SSRF rules and size limits apply) and a time-out of at most
/// `ads.requestTimeoutSeconds`, cut down to what is left of the caller's deadline. Nothing here
/// throws: ADS trouble is a fallback (an avail with a skip reason), never a failure of the session.
/// VAST `Error` URLs are called through the ``BeaconDispatcher`` with the IAB code, without waiting.
///
/// Typical use at session start:
/// ```swift
/// let deadline = ContinuousClock.now + .seconds(configuration.ads.totalBudgetSeconds)
/// switch await client.requestAdTag(context: context, template: configuration.ads.adTagURL, deadline: deadline) {
/// case .vast(let document, let url): decision = await client.decide(document, documentURL: url, context: context, deadline: deadline)
/// case .vmap(let vmap, let url): for each break: await client.decideBreak(adBreak, vmapURL: url, context: ..., deadline: deadline)
/// case .failed(let reason, let detail): avail skipped with `reason`
/// }
/// ```
package struct AdDecisionClient: Sendable {
    package let upstream: any UpstreamFetching
    package let configuration: SeamConfiguration.Ads
    package let beacons: BeaconDispatcher
    package let logger: Logger
    /// Whether ads whose only creatives are progressive MP4s are kept, to be conditioned
    /// (`conditioning.directory` set), instead of skipped.
    package var conditionsProgressive = false
    /// Where ad requests and VAST errors are counted (`seam_ad_requests_total`, ...).
    package var metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance
    /// Holds requests to the hosts `ads.requestsPerSecond` caps; nil: no cap.
    package var shaper: AdRequestShaper?

    package static let requestsName = "seam_ad_requests_total"
    package static let requestDurationName = "seam_ad_request_duration_seconds"
    package static let vastErrorsName = "seam_vast_errors_total"
    package static let wrapperDepthName = "seam_vast_wrapper_depth"

    package init(
        upstream: any UpstreamFetching, configuration: SeamConfiguration.Ads, beacons: BeaconDispatcher, logger: Logger
    ) {
        self.upstream = upstream
        self.configuration = configuration
        self.beacons = beacons
        self.logger = logger
    }

    // MARK: - Ad tag

    /// The ad tag URL for one break: `template` with IAB macros, Seam placeholders, ad parameters,
    /// consent and PAL nonce filled in. Deterministic given its inputs; see ``AdTagURLBuilder``
    /// for the rules.
    ///
    /// - Parameters:
    ///   - cacheBuster: the `[CACHEBUSTING]` value as sent (IAB: 8 digits).
    ///   - timestamp: the `[TIMESTAMP]` value as sent (ISO 8601 UTC with milliseconds).
    package func adTagURL(template: String, context: AdRequestContext, cacheBuster: String, timestamp: String) -> String
    {
        AdTagURLBuilder(template: template, context: context, cacheBuster: cacheBuster, timestamp: timestamp).build()
    }

    /// Fetches the ad tag of one break and reads the answer as VMAP or VAST.
    ///
    /// The body is read as VMAP when it contains `VMAP` and its root element is one, else as VAST.
    /// Outcomes: no time left before the request → `.failed(.budgetExhausted)`; time-out →
    /// `.failed(.adsTimeout)`; non-2xx, unreachable or refused host → `.failed(.adsError)`;
    /// unparseable XML → `.failed(.invalidVAST)` (no `Error` beacon: there is no document to take
    /// the URLs from). An empty body (some servers answer `204` on no fill) is an empty VAST.
    package func requestAdTag(
        context: AdRequestContext, template: String, deadline: ContinuousClock.Instant
    ) async -> AdTagAnswer {
        let url = adTagURL(
            template: template, context: context,
            cacheBuster: AdDecisionClient.newCacheBuster(), timestamp: AdDecisionClient.newTimestamp())
        return await fetchAnswer(url: url, context: context, deadline: deadline)
    }

    /// Fetches `url` (already filled) and parses it as VMAP or VAST.
    func fetchAnswer(url: String, context: AdRequestContext, deadline: ContinuousClock.Instant) async -> AdTagAnswer {
        let budget = AdTimeBudget(deadline: deadline, perRequestSeconds: configuration.requestTimeoutSeconds)
        switch await fetch(url, context: context, budget: budget) {
        case .success(let body):
            let answer = AdDecisionClient.parseAnswer(body, url: url)
            if case .failed(let reason, let detail) = answer {
                logger.info(
                    "ad tag answer unusable",
                    metadata: [
                        "session": "\(context.sessionID)", "reason": "\(reason.rawValue)", "detail": "\(detail)",
                    ])
            }
            return answer
        case .failure(let failure):
            logger.info(
                "ad tag request failed",
                metadata: [
                    "session": "\(context.sessionID)", "reason": "\(failure.reason.rawValue)",
                    "detail": "\(failure.description)",
                ])
            return .failed(failure.reason, detail: failure.description)
        }
    }

    /// Reads a response body as VMAP or VAST.
    static func parseAnswer(_ body: [UInt8], url: String) -> AdTagAnswer {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return .vast(VASTDocument(), url: url)
        }
        if containsVMAP(body) {
            do {
                return .vmap(try VMAPParser().parse(body), url: url)
            } catch {
                // "VMAP" appeared somewhere else (an extension, a URL): read the body as VAST.
                guard case .unexpectedRootElement = error else {
                    return .failed(.invalidVAST, detail: "VMAP from \(url) is not readable: \(error)")
                }
            }
        }
        do {
            return .vast(try VASTParser().parse(body), url: url)
        } catch {
            return .failed(.invalidVAST, detail: "VAST from \(url) is not readable: \(error)")
        }
    }

    private static func containsVMAP(_ body: [UInt8]) -> Bool {
        let needle = Array("VMAP".utf8)
        guard body.count >= needle.count else { return false }
        for start in 0...(body.count - needle.count) where body[start] == needle[0] {
            if body[start + 1] == needle[1], body[start + 2] == needle[2], body[start + 3] == needle[3] { return true }
        }
        return false
    }

    // MARK: - Requests

    /// One GET to the ADS (ad tag or wrapper tag URI) within `budget`.
    ///
    /// The request carries its time-out and the budget's deadline (the fetcher enforces both:
    /// the time-out for the ad server's answer, which a wait for one of Seam's own connections
    /// does not count against, and the deadline for everything). A fetcher that does not say it
    /// keeps them (`UpstreamFetching.keepsDeadlines`) is also raced against them, so it still
    /// cannot hold the viewer past the deadline: the race allows the time-out twice (a wait for a
    /// connection, then the answer), never past the deadline.
    func fetch(
        _ url: String, context: AdRequestContext, budget: AdTimeBudget, wrapper: Bool = false
    ) async -> Result<[UInt8], WrapperFetchError> {
        guard let timeout = budget.requestTimeout() else {
            return .failure(
                WrapperFetchError(
                    reason: .budgetExhausted, description: "ADS time budget spent before requesting \(url)"))
        }
        // A capped host is asked when its turn comes within the budget, or not at all.
        if let shaper, let host = URL(string: url)?.host, await !shaper.admit(host: host, deadline: budget.deadline) {
            // Counted as a request that was not sent: no time, so no duration.
            Counter(label: Self.requestsName, dimensions: [("outcome", "rate_limited")], factory: metricsFactory)
                .increment()
            context.trace?.record(
                .request(
                    url: StoryURLRedaction.redacted(url), outcome: "rate_limited", status: nil, milliseconds: 0,
                    bytes: 0, wrapper: wrapper), breakIndex: context.breakIndex)
            return .failure(
                WrapperFetchError(
                    reason: .budgetExhausted,
                    description:
                        "no turn to ask \(host) within the ad budget: ads.requestsPerSecond caps it and earlier breaks' requests were waiting"
                ))
        }
        let (headers, dropped) = AdRequestHeaders.build(for: context)
        for header in dropped {
            logger.warning(
                "adTagHeaders entry dropped",
                metadata: ["session": "\(context.sessionID)", "header": "\(header.name)", "reason": "\(header.reason)"])
        }
        let request = UpstreamRequest(
            url: url, headers: headers, purpose: .adDecision, timeout: timeout, deadline: budget.deadline)
        let upstream = self.upstream
        let started = ContinuousClock.now
        let ask: @Sendable () async -> Result<UpstreamResponse, UpstreamError> = {
            do throws(UpstreamError) {
                return .success(try await upstream.fetch(request))
            } catch {
                return .failure(error)
            }
        }
        // A fetcher that keeps the deadline itself is not raced: a break's every viewer asks
        // at once, and each race is a task group, two tasks and a timer.
        let outcome: Result<UpstreamResponse, UpstreamError>? =
            upstream.keepsDeadlines
            ? await ask() : await AdTimeBudget.race(until: min(budget.deadline, started + timeout + timeout), ask)
        countRequest(Self.outcomeLabel(outcome), since: started)
        if let trace = context.trace {
            let elapsed = (ContinuousClock.now - started).components
            var status: Int?
            var bytes = 0
            if case .success(let response)? = outcome { (status, bytes) = (response.status, response.bodyBytes.count) }
            if case .failure(.status(_, let code))? = outcome { status = code }
            trace.record(
                .request(
                    url: StoryURLRedaction.redacted(url), outcome: Self.outcomeLabel(outcome), status: status,
                    milliseconds: Int(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000),
                    bytes: bytes, wrapper: wrapper), breakIndex: context.breakIndex)
        }
        switch outcome {
        case nil:
            return .failure(
                WrapperFetchError(reason: .adsTimeout, description: "\(url) did not answer within \(timeout)"))
        case .failure(let error)?:
            if case .timeout = error {
                return .failure(WrapperFetchError(reason: .adsTimeout, description: error.description))
            }
            // Seam's own connections stayed busy: the ad server was never asked, and the budget is what ran out.
            if case .noConnection = error {
                return .failure(WrapperFetchError(reason: .budgetExhausted, description: error.description))
            }
            return .failure(WrapperFetchError(reason: .adsError, description: error.description))
        case .success(let response)?:
            guard (200..<300).contains(response.status) else {
                return .failure(
                    WrapperFetchError(reason: .adsError, description: "\(url) answered HTTP \(response.status)"))
            }
            return .success(response.bodyBytes)
        }
    }

    /// An ad request's outcome as a label of `seam_ad_requests_total`.
    static func outcomeLabel(_ outcome: Result<UpstreamResponse, UpstreamError>?) -> String {
        switch outcome {
        case nil: return "timeout"
        case .success(let response)?: return (200..<300).contains(response.status) ? "ok" : "http_error"
        case .failure(let error)?:
            switch error {
            case .timeout: return "timeout"
            case .noConnection: return "no_connection"
            case .blocked: return "blocked"
            case .status: return "http_error"
            case .unreachable, .refused, .notTLS: return "unreachable"
            case .invalidURL, .tooManyRedirects, .loop, .tooLarge: return "invalid"
            }
        }
    }

    private func countRequest(_ outcome: String, since started: ContinuousClock.Instant) {
        let dimensions = [("outcome", outcome)]
        Counter(label: Self.requestsName, dimensions: dimensions, factory: metricsFactory).increment()
        let elapsed = (ContinuousClock.now - started).components
        Timer(label: Self.requestDurationName, dimensions: dimensions, factory: metricsFactory)
            .recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }

    // MARK: - Beacons and helpers

    /// Calls VAST `Error` URLs with `code` in `[ERRORCODE]`, without waiting.
    func fireErrors(_ urls: [String], code: VASTErrorCode, context: AdRequestContext, what: String) {
        Counter(label: Self.vastErrorsName, dimensions: [("code", String(code.rawValue))], factory: metricsFactory)
            .increment()
        context.trace?.record(
            .vastError(code: code.rawValue, what: what, errorURLs: Set(urls.filter { !$0.isEmpty }).count),
            breakIndex: context.breakIndex)
        var seen = Set<String>()
        let unique = urls.filter { !$0.isEmpty && seen.insert($0).inserted }
        guard !unique.isEmpty else { return }
        beacons.fire(
            unique, event: "error", viewer: BeaconViewer(deviceIP: context.deviceIP, userAgent: context.userAgent),
            context: "VAST error \(code.rawValue) (\(what)), session \(context.sessionID)",
            macros: context.vastMacros(cacheBuster: nil, timestamp: nil, errorCode: code))
    }

    /// A wrapper's tag URI as fetched: resolved against the document it came from when relative,
    /// with the IAB macros filled (wrapper tags carry `[CACHEBUSTING]` and friends too).
    func wrapperURL(_ uri: String, documentURL: String?, context: AdRequestContext) -> String {
        let macros = context.vastMacros(
            cacheBuster: AdDecisionClient.newCacheBuster(), timestamp: AdDecisionClient.newTimestamp())
        let expanded = macros.expand(uri)
        guard let documentURL, !URIReference.isAbsolute(expanded) else { return expanded }
        return URIReference.resolve(expanded, against: documentURL)
    }

    /// A fresh `[CACHEBUSTING]` value: 8 random digits.
    static func newCacheBuster() -> String {
        VASTMacros.formatCacheBuster(UInt64.random(in: 0..<100_000_000))
    }

    /// The current `[TIMESTAMP]` value.
    static func newTimestamp() -> String {
        VASTMacros.formatTimestamp(Date())
    }
}

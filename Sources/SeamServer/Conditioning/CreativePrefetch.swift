import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Stitching

/// `POST /v1/creatives/prefetch`: conditions creatives ahead of the sessions that will play them,
/// so the first session already gets them instead of `TRANSCODE_IN_PROGRESS`.
///
/// The ladder comes from the title (`contentUrl`, loaded as a session start loads it, on a host
/// Seam intercepts), so the result is the one that title's sessions look up. The creatives come
/// from an ad tag (decided as a VOD session's breaks are, through the same ad decision client:
/// the ad server sees an ad request) or from a list of MP4 URLs. Jobs start in the background
/// (queued, de-duplicated, failures not retried for a while); the answer says where each stands,
/// and asking again is how a caller follows them (or `waitSeconds`). `200` when nothing is left
/// to run, `202` while a job runs or waits.
struct CreativePrefetch: Sendable {
    let conditioning: AdConditioning
    let planner: AdPlanner
    let content: ContentLoader
    let domainMatcher: DomainMatcher
    let sessionIDs: SessionIDKey
    /// `conditioning.prefetchToken`; empty: no token asked for.
    let token: String
    /// Whether the client of a request may ask now, and if not when (`PrefetchRateLimiter`).
    let admit: @Sendable (Request, SeamRequestContext) -> (allowed: Bool, retryAfter: Double)

    /// The answer's body.
    struct Answer: Sendable, Encodable, Equatable {
        /// The fingerprint of the title's ladder (the second half of each result's name).
        var ladder: String
        var creatives: [Creative]
        /// The ad tag's ads that are not conditioned, and why (an HLS creative needs none).
        var notConditioned: [NotConditioned]

        struct Creative: Sendable, Encodable, Equatable {
            var url: String
            /// What the result is kept by: the universal ad id, else the URL.
            var identity: String
            /// `conditioned`, `running`, `queued`, `failed` or `refused` (the queue is full).
            var status: String
            /// Where players fetch it, once conditioned.
            var manifestUrl: String?
            /// Jobs ahead of it, while queued.
            var queuePosition: Int?
            /// Why it failed, or was refused.
            var detail: String?
            /// When a failed creative may be tried again (ISO 8601).
            var retryAt: String?
        }

        struct NotConditioned: Sendable, Encodable, Equatable {
            var adId: String?
            var reason: String
        }

        /// Whether a job still runs or waits (`202`).
        var pending: Bool { creatives.contains { ["running", "queued", "refused"].contains($0.status) } }
    }

    func addRoutes(to router: some RouterMethods<SeamRequestContext>, baseURL: @escaping @Sendable (Request) -> String)
    {
        router.post("/v1/creatives/prefetch") { request, context in
            if let refusal = BearerToken(token: token, setting: "conditioning.prefetchToken").refusal(request) {
                return refusal
            }
            let admission = admit(request, context)
            guard admission.allowed else {
                var response = JSONResponses.error(
                    SeamError(
                        .rateLimited,
                        "too many prefetch requests from this address (conditioning.prefetchPerMinute); try again in \(Int(admission.retryAfter.rounded(.up))) s"
                    ))
                response.headers[.retryAfter] = String(max(1, Int(admission.retryAfter.rounded(.up))))
                return response
            }
            let body: CreativePrefetchRequest
            do {
                body = try await request.decode(as: CreativePrefetchRequest.self, context: context)
            } catch let error as SeamError {
                throw error
            } catch {
                throw SeamError(
                    .invalidRequest,
                    "the body must be JSON like {\"contentUrl\": \"https://.../master.m3u8\", \"adTagUrl\": \"https://.../vast.xml\"}: \(error)"
                )
            }
            let answer = try await prefetch(body, baseURL: baseURL(request))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return JSONResponses.json(
                Array(try encoder.encode(answer)), status: answer.pending ? .accepted : .ok,
                headers: [.cacheControl: "no-store"])
        }
    }

    func prefetch(_ request: CreativePrefetchRequest, baseURL: String) async throws(SeamError) -> Answer {
        try request.validate()
        guard domainMatcher.intercepts(url: request.contentUrl) else {
            throw SeamError(
                .domainNotAllowed,
                "Seam does not intercept the host of contentUrl (domains.*): its sessions would get no ads, so there is nothing to condition for"
            )
        }
        // A DASH title is conditioned for as its sessions condition for it: its first period read
        // as the HLS title conditioning knows (`DASHConditioning`), so both find the same ladder.
        let title: ContentSet
        if DASHTitle.names(request.contentUrl) {
            let dash = try await content.loadDASH(request.contentUrl)
            guard let seen = DASHConditioning.contentSet(dash.mpd, url: dash.url) else {
                throw SeamError(
                    .invalidRequest,
                    "the title at contentUrl cannot be conditioned for: its MPD has no video representation whose segments a SegmentTemplate names"
                )
            }
            title = seen
        } else {
            title = try await content.load(request.contentUrl)
        }
        let budget = ContinuousClock.now + .milliseconds(Int64(planner.configuration.totalBudgetSeconds * 1000))
        let ladder: ConditioningLadder
        // Probing a cold title takes as long as its segments do (the prober's time limit), not an ad budget.
        switch await conditioning.ladder(of: title) {
        case .success(let found): ladder = found
        case .failure(let unsupported):
            throw SeamError(.invalidRequest, "the title at contentUrl cannot be conditioned for: \(unsupported)")
        }

        var wanted: [(url: String, identity: String)] = []
        var notConditioned: [Answer.NotConditioned] = []
        for creative in request.creatives ?? [] where !wanted.contains(where: { $0.url == creative.url }) {
            wanted.append((creative.url, creative.universalAdId ?? creative.url))
        }
        if let adTag = request.adTagUrl {
            var tagged = planner
            tagged.configuration.adTagURL = adTag
            let inputs = SessionInputs(
                request: SessionRequest(url: request.contentUrl), deviceIP: nil, userAgent: nil, baseURL: baseURL)
            let decided = tagged.capPods(
                await tagged.decideBreaks(inputs, id: sessionIDs.issue(), content: title, deadline: budget))
            for planned in decided {
                if planned.ads.isEmpty, let reason = planned.skipReason {
                    notConditioned.append(
                        .init(adId: nil, reason: reason.rawValue + (planned.detail.map { ": \($0)" } ?? "")))
                }
                notConditioned += planned.skippedAds.map { .init(adId: $0.adID, reason: $0.reason) }
                for ad in planned.ads {
                    if let identity = planned.progressive[ad.creativeURL] {
                        if let listed = wanted.firstIndex(where: { $0.url == ad.creativeURL }) {
                            // Listed without its universal ad id: the ad tag knows it, and sessions look it up by it.
                            if wanted[listed].identity == ad.creativeURL { wanted[listed].identity = identity }
                        } else {
                            wanted.append((ad.creativeURL, identity))
                        }
                    } else {
                        notConditioned.append(.init(adId: ad.id, reason: "it has an HLS creative: it plays as it is"))
                    }
                }
            }
        }

        let wait = request.waitSeconds ?? 0
        let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
        let conditioner = conditioning.conditioner
        let statuses = await withTaskGroup(of: (Int, CreativeConditioner.Status).self) { group in
            for (index, creative) in wanted.enumerated() {
                group.addTask {
                    if wait > 0 {
                        // Waits within `waitSeconds`, then says where the job stands.
                        _ = await conditioner.condition(
                            creative.url, creative: creative.identity, ladder: ladder, until: deadline)
                    }
                    return (index, conditioner.prefetch(creative.url, creative: creative.identity, ladder: ladder))
                }
            }
            var all: [Int: CreativeConditioner.Status] = [:]
            for await (index, status) in group { all[index] = status }
            return all
        }
        let dates = ISO8601DateFormatter()
        let creatives = wanted.enumerated().map { index, creative -> Answer.Creative in
            var item = Answer.Creative(url: creative.url, identity: creative.identity, status: "refused")
            switch statuses[index] ?? .refused {
            case .conditioned:
                item.status = "conditioned"
                item.manifestUrl = conditioning.url(
                    of: CreativeConditioner.name(creative: creative.identity, ladder: ladder), baseURL: baseURL)
            case .running: item.status = "running"
            case .queued(let position):
                item.status = "queued"
                item.queuePosition = position
            case .failed(let reason, let retryAt):
                item.status = "failed"
                item.detail = reason
                item.retryAt = dates.string(from: retryAt)
            case .refused:
                item.detail = "the conditioning queue is full (conditioning.queueLimit): ask again later"
            }
            return item
        }
        return Answer(ladder: ladder.fingerprint, creatives: creatives, notConditioned: notConditioned)
    }
}

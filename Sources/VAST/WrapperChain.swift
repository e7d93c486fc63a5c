/// Follows VAST wrappers to their InLine ads: the rules as a pure state machine, plus an async
/// driver that takes the network as a closure.
///
/// A `WrapperChain` value is the path walked so far (the wrappers followed, outermost first). The
/// pure steps are ``step(_:)`` (what to do with an ad: keep it, fetch its tag URI, or stop),
/// ``candidates(in:)`` (which ads of a fetched response the last wrapper allows) and ``merged(_:)``
/// (the InLine ad with every wrapper's impressions, errors, tracking, click tracking and
/// verifications added). ``resolve(ad:fetch:)`` and ``resolve(document:initialURI:fetch:)`` drive
/// them, calling `fetch` for each tag URI; the server passes an HTTP client, tests pass files.
public struct WrapperChain: Sendable, Equatable {
    /// Returns the body of the VAST response at a tag URI, or throws (time-out, HTTP error...).
    /// Relative URIs and macro expansion are the closure's business.
    public typealias Fetch = @Sendable (String) async throws -> [UInt8]

    /// Most wrappers followed on one chain (IAB recommends 5).
    public let maxDepth: Int
    /// Most fetches for one resolution, across all chains: protects against fan-out, where each
    /// response returns many wrapper ads.
    public let maxFetches: Int
    /// The parser used for fetched responses.
    public let parser: VASTParser
    /// Wrappers followed so far, outermost first.
    public private(set) var wrappers: [VASTWrapper]
    /// Tag URIs seen on this chain, outermost first (for loop detection).
    public private(set) var adTagURIs: [String]

    public init(maxDepth: Int = 5, maxFetches: Int = 16, parser: VASTParser = VASTParser()) {
        self.maxDepth = maxDepth
        self.maxFetches = maxFetches
        self.parser = parser
        self.wrappers = []
        self.adTagURIs = []
    }

    /// Number of wrappers followed.
    public var depth: Int { wrappers.count }

    /// `Error` URLs of every wrapper on the chain, outermost first.
    public var errorURLs: [String] { wrappers.flatMap(\.errorURLs) }

    // MARK: - Pure steps

    /// What to do with an ad found at this point of the chain.
    public enum Step: Sendable, Equatable {
        /// An InLine ad: done, here merged with the chain's wrappers.
        case inline(VASTAd)
        /// A wrapper to follow: fetch `uri`, then continue with `next` (the chain including it).
        case fetch(uri: String, next: WrapperChain)
        /// A wrapper that must not be followed.
        case stop(WrapperOutcome)
    }

    /// Decides what to do with `ad` given the wrappers already followed.
    public func step(_ ad: VASTAd) -> Step {
        switch ad.body {
        case .inline:
            return .inline(merged(ad))
        case .wrapper(let wrapper):
            let urls = errorURLs + wrapper.errorURLs
            guard let uri = wrapper.vastAdTagURI else { return .stop(.missingAdTagURI(errorURLs: urls)) }
            if adTagURIs.contains(uri) { return .stop(.loop(uri: uri, errorURLs: urls)) }
            guard depth < maxDepth else { return .stop(.limitExceeded(depth: depth + 1, errorURLs: urls)) }
            var next = self
            next.wrappers.append(wrapper)
            next.adTagURIs.append(uri)
            return .fetch(uri: uri, next: next)
        }
    }

    /// The ads of a fetched response that the last wrapper on the chain allows; nil when none is.
    ///
    /// `followAdditionalWrappers="false"` drops wrapper ads. `allowMultipleAds="false"` (the
    /// default) keeps one ad: the first stand-alone ad, or, leniently, the first ad of the pod when
    /// the response is only a pod. `allowMultipleAds="true"` keeps all, in document order.
    public func candidates(in response: VASTDocument) -> [VASTAd]? {
        guard let last = wrappers.last else { return response.ads.isEmpty ? nil : response.ads }
        var ads = response.ads
        if !last.followAdditionalWrappers { ads.removeAll { $0.isWrapper } }
        if !last.allowMultipleAds {
            let choice = ads.first { $0.sequence == nil } ?? VASTDocument(ads: ads).podAds.first
            ads = choice.map { [$0] } ?? []
        }
        return ads.isEmpty ? nil : ads
    }

    /// `ad` (an InLine ad) with the beacons of every wrapper on the chain added, innermost first.
    public func merged(_ ad: VASTAd) -> VASTAd {
        var merged = wrappers.reversed().reduce(ad) { WrapperChain.merge(wrapper: $1, into: $0) }
        merged.wrapperDepth = depth
        return merged
    }

    /// Adds one wrapper's impressions, error URLs, verifications, extensions, and its linear
    /// tracking events and click tracking (to every linear creative) to an InLine ad.
    /// A wrapper's `ClickThrough` is used only when the ad has none. Wrapper ads are returned as they are.
    public static func merge(wrapper: VASTWrapper, into ad: VASTAd) -> VASTAd {
        guard case .inline(var inline) = ad.body else { return ad }
        inline.impressions += wrapper.impressions
        inline.errorURLs += wrapper.errorURLs
        inline.verifications += wrapper.verifications
        inline.extensions += wrapper.extensions
        let wrapperLinears = wrapper.creatives.compactMap(\.linear)
        let tracking = wrapperLinears.flatMap(\.trackingEvents)
        let clickTracking = wrapperLinears.flatMap(\.videoClicks.clickTracking)
        let customClicks = wrapperLinears.flatMap(\.videoClicks.customClicks)
        let clickThrough = wrapperLinears.lazy.compactMap(\.videoClicks.clickThrough).first
        for index in inline.creatives.indices {
            guard var linear = inline.creatives[index].linear else { continue }
            linear.trackingEvents += tracking
            linear.videoClicks.clickTracking += clickTracking
            linear.videoClicks.customClicks += customClicks
            if linear.videoClicks.clickThrough == nil { linear.videoClicks.clickThrough = clickThrough }
            inline.creatives[index].linear = linear
        }
        var result = ad
        result.body = .inline(inline)
        return result
    }

    // MARK: - Driver

    /// Follows `ad` to its InLine ad(s), fetching each tag URI with `fetch`.
    ///
    /// Resolved ads keep the ``VASTAd/sequence`` of `ad` when it has one (they take its place in
    /// the pod); otherwise, under `allowMultipleAds`, the fetched ads keep their own.
    public func resolve(ad: VASTAd, fetch: @escaping Fetch) async -> WrapperOutcome {
        let budget = FetchBudget(limit: maxFetches)
        let (ads, failures) = await walk(ad, fetch: fetch, budget: budget)
        if !ads.isEmpty { return .resolved(ads) }
        return failures.first ?? .noAd(errorURLs: errorURLs)
    }

    /// Resolves every wrapper ad of `document`, sibling chains in parallel.
    ///
    /// - Parameter initialURI: the URI `document` was fetched from, if any, so a chain that leads
    ///   back to it is caught as a loop one step earlier.
    public func resolve(
        document: VASTDocument, initialURI: String? = nil, fetch: @escaping Fetch
    ) async -> VASTResolution {
        var chain = self
        if let initialURI { chain.adTagURIs.append(initialURI) }
        let budget = FetchBudget(limit: maxFetches)
        let results = await chain.walkAll(document.ads, fetch: fetch, budget: budget)
        var resolved = document
        resolved.ads = []
        var failures: [VASTResolution.Failure] = []
        for (ad, result) in zip(document.ads, results) {
            resolved.ads += result.ads
            if result.ads.isEmpty {
                let outcome = result.failures.first ?? .noAd(errorURLs: ad.errorURLs)
                failures.append(VASTResolution.Failure(adId: ad.id, sequence: ad.sequence, outcome: outcome))
            }
        }
        return VASTResolution(document: resolved, failures: failures)
    }

    private func walkAll(
        _ ads: [VASTAd], fetch: @escaping Fetch, budget: FetchBudget
    ) async -> [(ads: [VASTAd], failures: [WrapperOutcome])] {
        if ads.count == 1, let only = ads.first { return [await walk(only, fetch: fetch, budget: budget)] }
        return await withTaskGroup(of: (Int, [VASTAd], [WrapperOutcome]).self) { group in
            for (index, ad) in ads.enumerated() {
                group.addTask {
                    let (found, failures) = await self.walk(ad, fetch: fetch, budget: budget)
                    return (index, found, failures)
                }
            }
            var results = Array(repeating: (ads: [VASTAd](), failures: [WrapperOutcome]()), count: ads.count)
            for await (index, found, failures) in group { results[index] = (found, failures) }
            return results
        }
    }

    private func walk(
        _ ad: VASTAd, fetch: @escaping Fetch, budget: FetchBudget
    ) async -> (ads: [VASTAd], failures: [WrapperOutcome]) {
        switch step(ad) {
        case .inline(let merged):
            return ([merged], [])
        case .stop(let outcome):
            return ([], [outcome])
        case .fetch(let uri, let next):
            guard await budget.take() else { return ([], [.fetchLimitReached(uri: uri, errorURLs: next.errorURLs)]) }
            let bytes: [UInt8]
            do {
                bytes = try await fetch(uri)
            } catch {
                return ([], [.fetchFailed(uri: uri, reason: String(describing: error), errorURLs: next.errorURLs)])
            }
            let response: VASTDocument
            do {
                response = try parser.parse(bytes)
            } catch {
                return ([], [.invalidResponse(uri: uri, error: error, errorURLs: next.errorURLs)])
            }
            guard let candidates = next.candidates(in: response) else {
                return ([], [.noAd(errorURLs: next.errorURLs + response.errorURLs)])
            }
            let results = await next.walkAll(candidates, fetch: fetch, budget: budget)
            let keepsOwnSequence = ad.sequence == nil && (next.wrappers.last?.allowMultipleAds ?? false)
            var found: [VASTAd] = []
            for result in results {
                for var resolved in result.ads {
                    if !keepsOwnSequence { resolved.sequence = ad.sequence }
                    found.append(resolved)
                }
            }
            return (found, results.flatMap { $0.failures })
        }
    }
}

/// Counts fetches across the parallel chains of one resolution.
private actor FetchBudget {
    private var remaining: Int

    init(limit: Int) { remaining = limit }

    func take() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }
}

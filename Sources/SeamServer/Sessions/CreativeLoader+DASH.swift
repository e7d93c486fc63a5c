import DASH
import NIOCore
import Stitching

extension CreativeLoader {
    /// The DASH creative (the ad's MPD) at `url`, waited for until `deadline` at most; shared and
    /// kept like HLS creatives (one fetch for concurrent loads, kept for its lifetime), under a
    /// key of its own.
    package func loadDASH(_ url: String, deadline: ContinuousClock.Instant) async -> Result<AdCreative, CreativeError> {
        await load(url, key: "dash " + url, deadline: deadline) { upstream, deadline, fetchTimeout in
            await Self.fetchDASH(url, upstream: upstream, deadline: deadline, fetchTimeout: fetchTimeout)
        }
    }

    /// `loadAll` for DASH creatives: the same few at a time, none started after the deadline.
    func loadAllDASH(_ urls: [String], deadline: ContinuousClock.Instant) async -> [Result<AdCreative, CreativeError>?]
    {
        await loadAll(urls, deadline: deadline) { url, deadline in await self.loadDASH(url, deadline: deadline) }
    }

    /// Fetches and reads an ad's MPD: static, with its segments named by `SegmentTemplate`s (what
    /// `DASHCreativeFit` checks against the content comes later, per session). Its location after
    /// redirects becomes its first `BaseURL`, so its relative addresses resolve wherever it is
    /// read.
    static func fetchDASH(
        _ url: String, upstream: any UpstreamFetching, deadline: ContinuousClock.Instant, fetchTimeout: Duration?
    ) async -> Result<AdCreative, CreativeError> {
        guard ContinuousClock.now < deadline else {
            return .failure(
                CreativeError(
                    description: "creative MPD \(url) not fetched: the ad budget (ads.totalBudgetSeconds) ran out first"
                ))
        }
        let left = max(.milliseconds(1), deadline - ContinuousClock.now)
        let timeout = fetchTimeout.map { min($0, left) } ?? left
        let cutByBudget = fetchTimeout.map { timeout < $0 } ?? true
        let response: UpstreamResponse
        do {
            response = try await upstream.fetch(
                UpstreamRequest(
                    url: url, purpose: .adMedia, timeout: timeout, deadline: deadline,
                    sizeLimit: XMLReader().maxBytes))
        } catch .timeout {
            return .failure(
                CreativeError(
                    description: cutByBudget || ContinuousClock.now >= deadline
                        ? "creative MPD \(url) did not arrive within the ad budget (ads.totalBudgetSeconds)"
                        : "creative MPD \(url) did not answer within upstream.adMediaTimeoutSeconds"))
        } catch {
            return .failure(CreativeError(description: "creative MPD \(url): \(error)"))
        }
        var mpd: MPD
        do {
            mpd = try MPD(parsing: Array(buffer: response.body))
        } catch {
            return .failure(CreativeError(description: "creative MPD \(url) is not an MPD Seam can read: \(error)"))
        }
        guard !mpd.isDynamic else {
            return .failure(CreativeError(description: "creative MPD \(url) is dynamic; an ad is a static (VOD) MPD"))
        }
        // Counted before anything is built, as the HLS loader counts renditions and segments.
        let representations = mpd.periods.first?.adaptationSets.flatMap(\.representations) ?? []
        guard representations.count <= AdCreative.maxRenditions else {
            return .failure(
                CreativeError(
                    description:
                        "creative MPD \(url) lists \(representations.count) representations; Seam reads at most \(AdCreative.maxRenditions) for one ad"
                ))
        }
        let segments = representations.map { representation in
            representation.segmentTemplate?.segmentCount(
                periodDuration: mpd.periods.first?.duration ?? mpd.mediaPresentationDuration) ?? 0
        }
        if let most = segments.max(), most > AdCreative.maxSegments {
            return .failure(
                CreativeError(
                    description:
                        "creative MPD \(url) lists \(most) segments in one representation; an ad has at most \(AdCreative.maxSegments)"
                ))
        }
        mpd.anchor(at: response.finalURL)
        return .success(AdCreative(url: url, dash: mpd))
    }
}

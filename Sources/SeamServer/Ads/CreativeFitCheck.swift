import Foundation
import Stitching

/// Whether the ads an ad tag returned would play in one title, decided as a session start decides
/// it: the title's playlists through the same content loader and limits, each ad's HLS creative
/// through the same creative loader, the same fit rule (`CreativeFit`) and, for an ad that plays,
/// the creative variant chosen for each of the title's variants. `seam vast resolve --content`.
package enum CreativeFitCheck {
    /// One ad's verdict.
    package struct Verdict: Sendable, Equatable {
        package var adID: String
        /// The media the ad server gave (its HLS MediaFile, or the MP4 to condition).
        package var media: String
        /// Content variant key (`v0`, ...) → the creative variant that plays in it; nil when the
        /// ad does not play.
        package var renditions: [String: String]?
        /// Why it does not play (or what happens to an MP4), as a code and in words.
        package var code: AdSkipCode?
        package var reason: String?
    }

    /// Why the title could not be read.
    package struct ContentError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The verdict of each of `ads` in the title at `contentURL`, all by `deadline`.
    /// - Parameter ads: each ad's id, its media URL, and whether that is an MP4 to condition.
    package static func check(
        _ ads: [(adID: String, media: String, progressive: Bool)], contentURL: String,
        upstream: any UpstreamFetching, configuration: SeamConfiguration, deadline: ContinuousClock.Instant
    ) async throws(ContentError) -> [Verdict] {
        let loader = ContentLoader(
            origin: OriginClient(upstream: upstream), limits: SessionCostLimits(configuration.sessions))
        let content: ContentSet
        do {
            content = try await loader.load(contentURL)
        } catch {
            throw ContentError(description: "the title at \(contentURL) could not be read: \(error.message)")
        }
        let creatives = CreativeLoader(
            upstream: upstream,
            fetchTimeout: UpstreamPolicy.duration(seconds: configuration.upstream.adMediaTimeoutSeconds))
        var verdicts: [Verdict] = []
        for ad in ads {
            var verdict = Verdict(adID: ad.adID, media: ad.media)
            if ad.progressive {
                verdict.code = .conditioning
                verdict.reason =
                    "an MP4 creative: a session conditions it for this title's ladder (conditioning.directory) and plays it once conditioned"
                verdicts.append(verdict)
                continue
            }
            switch await creatives.load(ad.media, deadline: deadline) {
            case .failure(let error):
                verdict.code = .creativeFailed
                verdict.reason = error.description
            case .success(let creative):
                if let why = CreativeFit.incompatibility(of: creative, with: content) {
                    verdict.code = .creativeMismatch
                    verdict.reason = why
                } else {
                    verdict.renditions = SessionStoryEntries.renditions(of: creative, in: content)
                }
            }
            verdicts.append(verdict)
        }
        return verdicts
    }
}

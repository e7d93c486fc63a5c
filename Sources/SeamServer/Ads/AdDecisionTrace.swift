import NIOConcurrencyHelpers

/// What an ad decision did, step by step, in the order it happened: each request to an ad
/// server (ad tag or wrapper, its URL with secrets redacted, how it ended, how long it took, how
/// many bytes), each ad's creative verdict, each VAST error met, and the break's outcome. Ad ops
/// read it from `seam vast resolve`. Bounded: a trace keeps its first `limit` steps and counts
/// the rest.
package final class AdDecisionTrace: Sendable {
    package enum Step: Sendable, Equatable {
        /// One document fetched: `outcome` as `seam_ad_requests_total` labels it; `wrapper`: a
        /// wrapper's VASTAdTagURI (else the ad tag, or a VMAP break's ad tag).
        case request(url: String, outcome: String, status: Int?, milliseconds: Int, bytes: Int, wrapper: Bool)
        /// An ad whose creative Seam can play (`media`: the HLS MediaFile, or the MP4 to condition).
        case usableAd(adID: String, seconds: Double, media: String)
        /// An ad left out, with why.
        case skippedAd(adID: String, reason: String)
        /// A VAST error code met; `errorURLs` is how many Error URLs it is reported to.
        case vastError(code: Int, what: String, errorURLs: Int)
        /// What the break came to.
        case decision(breakIndex: Int, ads: [String], skipReason: String?, detail: String?)
    }

    package let limit: Int
    private let state = NIOLockedValueBox<(steps: [(breakIndex: Int?, step: Step)], dropped: Int)>(([], 0))

    package init(limit: Int = 200) {
        self.limit = limit
    }

    /// - Parameter breakIndex: the break whose decision took the step (a session's story sorts
    ///   the steps of breaks decided together by it).
    package func record(_ step: Step, breakIndex: Int? = nil) {
        state.withLockedValue { state in
            if state.steps.count < limit { state.steps.append((breakIndex, step)) } else { state.dropped += 1 }
        }
    }

    package var steps: [Step] { state.withLockedValue { $0.steps.map(\.step) } }

    /// The steps with the break each was taken for.
    package var stepsByBreak: [(breakIndex: Int?, step: Step)] { state.withLockedValue { $0.steps } }
    /// Steps past `limit`, not kept.
    package var dropped: Int { state.withLockedValue { $0.dropped } }
}

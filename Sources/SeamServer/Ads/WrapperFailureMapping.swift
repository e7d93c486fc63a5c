import Stitching
import VAST

/// How a failed wrapper chain maps to an avail skip reason. The IAB code for its `Error` URLs is
/// ``WrapperOutcome/errorCode`` of the VAST module, used as it is:
///
/// | Outcome | Skip reason | `[ERRORCODE]` |
/// |---|---|---|
/// | `limitExceeded` (more than `maxWrapperDepth` wrappers) | `WRAPPER_LIMIT` | 302 |
/// | `fetchLimitReached` (more than 16 fetches in one decision) | `WRAPPER_LIMIT` | 302 |
/// | `loop` (a tag URI seen twice on one chain) | `WRAPPER_LOOP` | 302 (IAB has no loop code; a loop would end at the limit) |
/// | `fetchFailed`, timed out or budget spent | `ADS_TIMEOUT` | 301 |
/// | `fetchFailed`, HTTP error, unreachable, refused host | `ADS_ERROR` | 301 |
/// | `invalidResponse` (wrapper target not VAST) | `INVALID_VAST` | 100 / 101 / 102 |
/// | `missingAdTagURI` | `INVALID_VAST` | 300 |
/// | `noAd` (wrapper target had no ad) | `NO_FILL` | 303 |
enum WrapperFailureMapping {
    static func skipReason(for outcome: WrapperOutcome, fetchReason: AvailSkipReason?) -> AvailSkipReason {
        switch outcome {
        case .resolved, .noAd: return .noFill
        case .limitExceeded, .fetchLimitReached: return .wrapperLimit
        case .loop: return .wrapperLoop
        case .fetchFailed: return fetchReason ?? .adsError
        case .invalidResponse, .missingAdTagURI: return .invalidVAST
        }
    }

    /// A sentence for logs and the decision's `detail`.
    static func detail(for outcome: WrapperOutcome, adID: String?, maxDepth: Int) -> String {
        let ad = adID.map { "ad \"\($0)\"" } ?? "an ad without id"
        switch outcome {
        case .resolved: return "\(ad) resolved"
        case .noAd: return "wrapper chain of \(ad) ended in a response with no ad"
        case .limitExceeded(let depth, _):
            return "wrapper chain of \(ad) needs \(depth) wrappers, more than the limit of \(maxDepth)"
        case .fetchLimitReached(let uri, _):
            return "too many wrapper requests for one break; \(uri) of \(ad) not fetched"
        case .loop(let uri, _): return "wrapper chain of \(ad) loops back to \(uri)"
        case .fetchFailed(let uri, let reason, _): return "wrapper \(uri) of \(ad) failed: \(reason)"
        case .invalidResponse(let uri, let error, _): return "wrapper \(uri) of \(ad) answered invalid VAST: \(error)"
        case .missingAdTagURI: return "wrapper \(ad) has no VASTAdTagURI"
        }
    }
}

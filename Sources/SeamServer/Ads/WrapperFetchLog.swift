import Stitching

/// Why a wrapper tag URI could not be fetched, kept while a chain resolves.
///
/// `WrapperChain` reports a failed fetch as text only (`WrapperOutcome.fetchFailed`); the avail's
/// skip reason needs to know whether it was a time-out (`ADS_TIMEOUT`) or an error (`ADS_ERROR`),
/// so the fetch closure records the kind here, keyed by the tag URI as the chain wrote it.
actor WrapperFetchLog {
    private var reasons: [String: AvailSkipReason] = [:]

    func record(_ uri: String, _ reason: AvailSkipReason) {
        reasons[uri] = reason
    }

    func reason(for uri: String) -> AvailSkipReason? {
        reasons[uri]
    }
}

/// The error a wrapper fetch throws; its description ends up in the decision's detail.
struct WrapperFetchError: Error, Sendable, CustomStringConvertible {
    var reason: AvailSkipReason
    var description: String
}

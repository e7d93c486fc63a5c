import VAST

/// The ad decision operations a session needs. `AdDecisionClient` is the production one;
/// the protocol keeps session building testable without an ad server.
package protocol AdDecisionProviding: Sendable {
    func requestAdTag(
        context: AdRequestContext, template: String, deadline: ContinuousClock.Instant
    ) async -> AdTagAnswer
    func decide(
        _ document: VASTDocument, documentURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision
    /// One VMAP break: its AdSource fetched (or embedded VAST used), VMAP error tracking called.
    func decideBreak(
        _ adBreak: VMAPAdBreak, vmapURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision
}

/// Where server-side beacons go. Must return at once: it is called while answering players.
package protocol BeaconSending: Sendable {
    /// `event` is the label it is counted under (`seam_beacons_total`): an `AdProgressEvent`'s name.
    /// `viewer`: the device they are for (sent as VAST's server-side request headers).
    /// `report`: told how each URL ended (a session's story), nil when no one asks.
    func send(_ urls: [String], event: String, viewer: BeaconViewer, context: String, report: BeaconReport?)
    /// Returns once every URL sent so far is delivered or given up (tests; an orderly shutdown).
    func drain() async
}

extension BeaconSending {
    package func send(_ urls: [String], event: String, viewer: BeaconViewer, context: String) {
        send(urls, event: event, viewer: viewer, context: context, report: nil)
    }
}

import Instrumentation
import VAST

/// One beacon URL waiting to be sent.
///
/// The URL is kept with its macro values rather than expanded at `fire` time, so the caller's
/// hot path does no string work beyond the enqueue; `[TIMESTAMP]` is captured at `fire` time
/// (the moment of the event), `[CACHEBUSTING]` is drawn per URL when it is sent.
struct BeaconJob: Sendable {
    var url: String
    var macros: VASTMacros
    /// The event it reports (`impression`, `start`, ..., `error`), the label it is counted under.
    var event: String
    /// Who it is for: the device headers it is sent with (`BeaconViewer.headers`).
    var viewer: BeaconViewer
    /// What the beacon is for, for logs (e.g. `impression ad1, session ...`).
    var context: String
    /// The trace of the request that fired it (tracing on), so its `beacon.send` spans join that
    /// trace though they are sent later, from a worker.
    var trace: InstrumentationContext? = nil
    /// Told how the URL ended (a session's story); nil: no one asks.
    var report: BeaconReport? = nil

    /// Tells the reporter, when there is one.
    func reportAnswer(
        _ url: String, _ outcome: BeaconAnswer.Outcome, status: Int? = nil, attempts: Int, reason: String? = nil
    ) {
        report?(BeaconAnswer(url: url, outcome: outcome, status: status, attempts: attempts, reason: reason))
    }

    /// The URL to request, macros filled.
    func expandedURL() -> String {
        var macros = self.macros
        if macros.cacheBuster == nil && macros.custom["CACHEBUSTING"] == nil {
            macros.cacheBuster = UInt64.random(in: 0..<100_000_000)
        }
        return macros.expand(url)
    }
}

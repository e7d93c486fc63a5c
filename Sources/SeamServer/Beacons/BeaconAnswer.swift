/// How one beacon URL ended, told to whoever fired it (`BeaconDispatcher.fire(...report:)`): a
/// session's story lists each server-side beacon with its answer.
package struct BeaconAnswer: Sendable, Equatable {
    package enum Outcome: String, Sendable {
        case sent, failed, blocked, dropped
    }

    /// The URL as requested (macros filled).
    package var url: String
    package var outcome: Outcome
    /// The tracker's HTTP status, when it answered.
    package var status: Int?
    /// Requests made (retries included); 0 when never sent.
    package var attempts: Int
    /// Why it failed, was blocked or dropped.
    package var reason: String?
}

/// Told each beacon's answer; runs on the dispatcher's worker, so it must return at once.
package typealias BeaconReport = @Sendable (BeaconAnswer) -> Void

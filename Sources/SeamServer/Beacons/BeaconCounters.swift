/// What a ``BeaconDispatcher`` has done since it was made; for `/metrics` and tests.
///
/// Each URL passed to `fire` counts once in `accepted` or `dropped`, and once it is done, once in
/// `sent`, `failed` or `abandoned`. `attempts` counts requests made, `retried` the attempts after
/// the first.
package struct BeaconCounters: Sendable, Equatable {
    /// URLs queued for sending.
    package var accepted = 0
    /// URLs the endpoint took (a 2xx or 3xx answer).
    package var sent = 0
    /// URLs given up on: every attempt failed, or the failure was permanent (a 4xx, a refused host).
    package var failed = 0
    /// Of `failed`, those never sent because `upstream.allowedHosts` (or the address rules) refuse
    /// the host.
    package var blocked = 0
    /// URLs not queued because the queue was full or the dispatcher had stopped.
    package var dropped = 0
    /// Queued URLs thrown away because the dispatcher was cancelled before sending them.
    package var abandoned = 0
    /// Requests made, first attempts included.
    package var attempts = 0
    /// Requests that were second or later attempts.
    package var retried = 0
    /// URLs accepted and not done yet (queued or in flight).
    package var pending = 0

    package init() {}
}

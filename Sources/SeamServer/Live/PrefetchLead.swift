/// How long before a known break one session decides it (`live.prefetchSeconds`), spread over
/// `live.prefetchSpreadSeconds` by the session id: the viewers of a channel reach the lead
/// together (one origin window), so without a spread every one of them would ask the ad server in
/// the same second. Each session's share comes from a hash of its id — the same on every replica
/// and every reload — so its lead never moves.
enum PrefetchLead {
    /// The lead of `session`: `seconds`, less up to `spread` seconds; nil when prefetch is off.
    static func lead(for session: SessionID, seconds: Double, spread: Double) -> Duration? {
        guard seconds > 0 else { return nil }
        let share = spread > 0 ? min(spread, seconds) * session.stableFraction : 0
        return .milliseconds(Int64((seconds - share) * 1000))
    }
}

import NIOConcurrencyHelpers

/// The replicas sharing this one's PostgreSQL store that it hears from. Every replica's listener
/// hears every heartbeat on the store's notification channel, its own and the others'
/// (`PostgresSessionListener`), so each can count the replicas alive without a table of its
/// own: a replica counts from its heartbeat until `heartbeats` of its intervals pass without one.
/// The caps meant for the whole deployment (`ads.requestsPerSecond`) are shared among them
/// (`AdRequestShaper`).
///
/// Without notifications (`store.notifications` off, `store.cacheSeconds` 0, no PostgreSQL) a
/// replica hears no one and counts itself alone; when its listener stops hearing (a lost
/// connection, a heartbeat not back in time) it keeps the count it had.
package final class ReplicaCensus: Sendable {
    /// The roll as a value: who was heard when, and how long each counts.
    struct Roll: Sendable, Equatable {
        private var lastHeard: [String: ContinuousClock.Instant] = [:]
        /// Since when this replica's listener hears nothing (its connection lost, a heartbeat not
        /// back in time); nil while it hears.
        private var deafSince: ContinuousClock.Instant?
        /// How long a replica counts after its last heartbeat.
        var staysFor: Duration = .seconds(16)

        /// Heartbeats a replica may miss (a busy database, a slow event loop) before it stops counting.
        static let heartbeats = 3.0

        /// The others' heartbeats come every `interval` seconds (as this replica's do).
        mutating func heartbeatsEvery(_ interval: Double) {
            staysFor = .milliseconds(Int64((interval * Self.heartbeats + 1) * 1000))
        }

        /// Records `replica`'s heartbeat; true when it did not count until now (a newcomer, or one
        /// back after a silence), which the listener answers with a heartbeat of its own at once.
        @discardableResult
        mutating func heard(_ replica: String, at now: ContinuousClock.Instant) -> Bool {
            let counted = lastHeard[replica].map { $0 + staysFor > now } ?? false
            lastHeard[replica] = now
            // Replicas gone long ago leave the roll (a rolling restart names new ones).
            lastHeard = lastHeard.filter { $0.value + staysFor * 4 > now }
            return !counted
        }

        /// This replica and the others heard from within `staysFor`. While this replica's
        /// listener is deaf the count stays what it was when it stopped hearing: the others most
        /// likely go on, and taking a whole cap for itself would send the ad servers more than
        /// their caps (a lost replica is then still counted, and its share unused, until the
        /// listener hears again and its heartbeats stay missing).
        func count(at now: ContinuousClock.Instant) -> Int {
            let at = deafSince ?? now
            return 1 + lastHeard.values.count { $0 + staysFor > at }
        }

        /// The listener stopped hearing at `now` (nothing changes when it already had).
        mutating func deaf(at now: ContinuousClock.Instant) {
            if deafSince == nil { deafSince = now }
        }

        /// The listener hears again at `now`: the time it was deaf is not counted against anyone,
        /// so each replica last heard before it went deaf counts for what was left of its
        /// `staysFor` (one heard since, as the listener came back, counts from then).
        mutating func hearing(at now: ContinuousClock.Instant) {
            guard let since = deafSince else { return }
            let deafFor = since.duration(to: now)
            lastHeard = lastHeard.mapValues { $0 < since ? $0 + deafFor : $0 }
            deafSince = nil
        }
    }

    private let roll = NIOLockedValueBox(Roll())
    private let now: @Sendable () -> ContinuousClock.Instant

    package init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// The heartbeats come every `seconds` (the listener's interval).
    func heartbeatsEvery(_ seconds: Double) {
        roll.withLockedValue { $0.heartbeatsEvery(seconds) }
    }

    /// Another replica's heartbeat (not this one's); true when it did not count until now.
    @discardableResult
    func heard(_ replica: Substring) -> Bool {
        let now = now()
        return roll.withLockedValue { $0.heard(String(replica), at: now) }
    }

    /// The listener hears the store's notifications again (`PostgresSessionListener`).
    func hearing() {
        let now = now()
        roll.withLockedValue { $0.hearing(at: now) }
    }

    /// The listener stopped hearing, as of `since` (its last heartbeat back, not when the loss was
    /// found out: that takes a time-out, during which the others' heartbeats were not heard
    /// either); until it hears again, the count stays what it was then (`Roll.count`).
    func deaf(since: ContinuousClock.Instant?) {
        let now = now()
        let at = min(since ?? now, now)
        roll.withLockedValue { $0.deaf(at: at) }
    }

    /// The replicas alive, this one included.
    package var count: Int {
        let now = now()
        return roll.withLockedValue { $0.count(at: now) }
    }
}

import NIOConcurrencyHelpers

/// The replicas sharing this one's PostgreSQL store that it hears from. Every replica's listener
/// hears every heartbeat on the store's notification channel, its own and the others'
/// (`PostgresSessionListener`), so each can count the replicas alive without a table of its
/// own: a replica counts from its heartbeat until `heartbeats` of its intervals pass without one.
/// The caps meant for the whole deployment (`ads.requestsPerSecond`) are shared among them
/// (`AdRequestShaper`).
///
/// Without notifications (`store.notifications` off, `store.cacheSeconds` 0, no PostgreSQL, or
/// the listener's connection lost for a few heartbeats) a replica hears no one and counts itself
/// alone.
package final class ReplicaCensus: Sendable {
    /// The roll as a value: who was heard when, and how long each counts.
    struct Roll: Sendable, Equatable {
        private var lastHeard: [String: ContinuousClock.Instant] = [:]
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

        /// This replica and the others heard from within `staysFor`.
        func count(at now: ContinuousClock.Instant) -> Int {
            1 + lastHeard.values.count { $0 + staysFor > now }
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

    /// The replicas alive, this one included.
    package var count: Int {
        let now = now()
        return roll.withLockedValue { $0.count(at: now) }
    }
}

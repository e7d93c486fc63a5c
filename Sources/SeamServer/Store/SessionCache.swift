import Foundation
import NIOConcurrencyHelpers

/// The sessions a replica holds in memory in front of PostgreSQL, so a playlist request of a
/// session it already served does not read the database.
///
/// What may be trusted and for how long: a VOD session's record never changes after it is
/// created, so its bytes are good for its whole life; only whether it still exists can change
/// (a delete or an expiry on another replica). An entry is therefore trusted for `cacheSeconds`
/// after the store last heard from PostgreSQL about it; after that, and whenever the local
/// expiry has passed, the store asks again. Activity seen from the cache moves the local expiry
/// only; PostgreSQL's `expires_at` is moved when the entry is checked again (so it trails the
/// last request by at most `cacheSeconds`).
///
/// Time is passed in; entries go when the store removes them or when `evict(before:)` finds
/// their local expiry passed.
final class SessionCache: Sendable {
    struct Entry: Sendable {
        var session: SeamSession
        /// The session's expiry as this replica knows it (moved by each request it serves).
        var expiresAt: Date
        /// When PostgreSQL last confirmed the session (written, read or touched).
        var checkedAt: Date
    }

    /// What the cache can say about a session.
    enum Lookup: Sendable {
        /// Trusted: serve it without asking PostgreSQL.
        case fresh(SeamSession)
        /// Held, but to be checked with PostgreSQL first; `aliveLocally` when its local expiry has
        /// not passed (requests this replica served kept it alive).
        case stale(SeamSession, aliveLocally: Bool)
        case missing
    }

    let cacheSeconds: Double
    let ttl: Double
    private let entries = NIOLockedValueBox<[SessionID: Entry]>([:])

    init(cacheSeconds: Double, ttlSeconds: Double) {
        self.cacheSeconds = cacheSeconds
        ttl = ttlSeconds
    }

    var count: Int { entries.withLockedValue { $0.count } }

    /// Looks `id` up at `now`; a fresh hit counts as activity (its local expiry moves).
    func lookup(_ id: SessionID, now: Date) -> Lookup {
        entries.withLockedValue { entries in
            guard let entry = entries[id] else { return .missing }
            let aliveLocally = entry.expiresAt >= now
            guard aliveLocally, now.timeIntervalSince(entry.checkedAt) < cacheSeconds else {
                return .stale(entry.session, aliveLocally: aliveLocally)
            }
            entries[id]?.expiresAt = now.addingTimeInterval(ttl)
            return .fresh(entry.session)
        }
    }

    /// PostgreSQL confirmed the session at `now`, with expiry `expiresAt`.
    func store(_ session: SeamSession, expiresAt: Date, now: Date) {
        entries.withLockedValue { $0[session.id] = Entry(session: session, expiresAt: expiresAt, checkedAt: now) }
    }

    func remove(_ id: SessionID) {
        _ = entries.withLockedValue { $0.removeValue(forKey: id) }
    }

    /// The session held for `id`, fresh or not (its `beaconOwner` never changes).
    func session(_ id: SessionID) -> SeamSession? {
        entries.withLockedValue { $0[id]?.session }
    }

    /// Drops the entries whose local expiry passed before `now`.
    func evict(before now: Date) {
        entries.withLockedValue { entries in
            let stale = entries.compactMap { $0.value.expiresAt < now ? $0.key : nil }
            for id in stale { entries[id] = nil }
        }
    }
}

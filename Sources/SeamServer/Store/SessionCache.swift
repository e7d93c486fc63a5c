import Foundation
import NIOConcurrencyHelpers

/// The sessions a replica holds in memory in front of PostgreSQL, so a playlist request of a
/// session it already served does not read the database.
///
/// What may be trusted and for how long: a VOD session's record never changes after it is
/// created, and a live session's changes only when a replica writes it; what else can happen is a
/// delete or an expiry through another replica. PostgreSQL tells every replica of each delete and
/// rewrite (a trigger's `NOTIFY`, `PostgresSessionListener`), so while this replica listens, an
/// entry confirmed by a read that began while it listened is trusted until a notification names it
/// or its local expiry passes. Without the notifications (not listening yet, the connection lost,
/// `store.notifications` off) an entry is trusted for `cacheSeconds` after PostgreSQL last
/// confirmed it, then the store asks again.
///
/// Activity served from the cache moves the local expiry; the store writes those expiries to
/// PostgreSQL in batches (`unflushedExpiries`), so the database's `expires_at` trails the last
/// request by at most the flush interval.
///
/// A read races the notifications: a delete may be notified while a read that still saw the row
/// is on its way back. Each read therefore begins with a `ReadMark` and ends with `endRead`; a
/// session named by a notification after the mark was taken is stored untrusted by notifications
/// (for `cacheSeconds` only), so it is read again soon after.
///
/// Time is passed in; entries go when the store removes them, when a notification names them, or
/// when `evict(before:)` finds their local expiry passed.
final class SessionCache: Sendable {
    struct Entry: Sendable {
        var session: SeamSession
        /// The session's expiry as this replica knows it (moved by each request it serves).
        var expiresAt: Date
        /// The expiry PostgreSQL holds, as far as this replica knows (written or read).
        var storedExpiresAt: Date
        /// When PostgreSQL last confirmed the session (written, read or touched).
        var checkedAt: Date
        /// The listening epoch the confirming read began in: the entry is trusted while that epoch
        /// lasts. Nil: confirmed without notifications (trusted for `cacheSeconds`).
        var epoch: UInt64?
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

    /// Taken when a read of PostgreSQL begins: what the cache had heard by then.
    struct ReadMark: Sendable, Equatable {
        /// Notifications received before the read.
        var generation: UInt64
        /// The listening epoch, nil when not listening.
        var epoch: UInt64?
    }

    /// An expiry to write to PostgreSQL, and what the cache believed stored before (put back if
    /// the write fails).
    struct PendingExpiry: Sendable, Equatable {
        var id: SessionID
        var expiresAt: Date
        var previous: Date
    }

    private struct State {
        var entries: [SessionID: Entry] = [:]
        /// Counts the listening periods; `listening` says whether the current one lasts.
        var epoch: UInt64 = 0
        var listening = false
        /// Counts the notifications received.
        var generation: UInt64 = 0
        /// The generation at which a session was last named, kept while a read older than it is
        /// open.
        var named: [SessionID: UInt64] = [:]
        /// Open reads, by the generation of their mark.
        var openReads: [UInt64: Int] = [:]

        func trusted(_ entry: Entry, now: Date, cacheSeconds: Double) -> Bool {
            if listening, let confirmed = entry.epoch, confirmed == epoch { return true }
            return now.timeIntervalSince(entry.checkedAt) < cacheSeconds
        }

        /// Forgets the names no open read can be older than.
        mutating func prune() {
            guard let oldest = openReads.keys.min() else {
                named.removeAll(keepingCapacity: true)
                return
            }
            named = named.filter { $0.value > oldest }
        }
    }

    let cacheSeconds: Double
    let ttl: Double
    private let state = NIOLockedValueBox(State())

    init(cacheSeconds: Double, ttlSeconds: Double) {
        self.cacheSeconds = cacheSeconds
        ttl = ttlSeconds
    }

    var count: Int { state.withLockedValue { $0.entries.count } }

    /// Whether notifications are being received now.
    var isListening: Bool { state.withLockedValue { $0.listening } }

    /// Looks `id` up at `now`; a fresh hit counts as activity (its local expiry moves).
    func lookup(_ id: SessionID, now: Date) -> Lookup {
        state.withLockedValue { state in
            guard let entry = state.entries[id] else { return .missing }
            let aliveLocally = entry.expiresAt >= now
            guard aliveLocally, state.trusted(entry, now: now, cacheSeconds: cacheSeconds) else {
                return .stale(entry.session, aliveLocally: aliveLocally)
            }
            state.entries[id]?.expiresAt = max(entry.expiresAt, now.addingTimeInterval(ttl))
            return .fresh(entry.session)
        }
    }

    // MARK: Reads

    /// Begins a read of PostgreSQL; end it with `endRead` whatever happens (`defer`).
    func beginRead() -> ReadMark {
        state.withLockedValue { state in
            state.openReads[state.generation, default: 0] += 1
            return ReadMark(generation: state.generation, epoch: state.listening ? state.epoch : nil)
        }
    }

    func endRead(_ mark: ReadMark) {
        state.withLockedValue { state in
            guard let open = state.openReads[mark.generation] else { return }
            if open <= 1 {
                state.openReads[mark.generation] = nil
                if state.openReads.isEmpty { state.named.removeAll(keepingCapacity: true) }
            } else {
                state.openReads[mark.generation] = open - 1
            }
        }
    }

    /// PostgreSQL confirmed the session, with expiry `expiresAt`, by a read that began at `mark`.
    func store(_ session: SeamSession, expiresAt: Date, now: Date, mark: ReadMark) {
        state.withLockedValue { state in
            // Named by a notification while the read was on its way: what it read may be gone.
            let namedSince = state.named[session.id].map { $0 > mark.generation } ?? false
            state.entries[session.id] = Entry(
                session: session, expiresAt: expiresAt, storedExpiresAt: expiresAt,
                checkedAt: now, epoch: namedSince ? nil : mark.epoch)
        }
    }

    func remove(_ id: SessionID) {
        _ = state.withLockedValue { $0.entries.removeValue(forKey: id) }
    }

    /// The session held for `id`, fresh or not (its `beaconOwner` never changes).
    func session(_ id: SessionID) -> SeamSession? {
        state.withLockedValue { $0.entries[id]?.session }
    }

    /// Drops the entries whose local expiry passed before `now`.
    func evict(before now: Date) {
        state.withLockedValue { state in
            let gone = state.entries.compactMap { $0.value.expiresAt < now ? $0.key : nil }
            for id in gone { state.entries[id] = nil }
        }
    }

    // MARK: Notifications

    /// Notifications are now received (the listener's `LISTEN` is answered and a heartbeat came
    /// back): entries confirmed from here on are trusted until named.
    func listeningStarted() {
        state.withLockedValue { state in
            state.epoch &+= 1
            state.listening = true
        }
    }

    /// Notifications may be lost from here: every entry falls back to `cacheSeconds`.
    func listeningStopped() {
        state.withLockedValue { $0.listening = false }
    }

    /// Another replica deleted the session (`version` nil) or wrote its state as `version`: the
    /// entry goes, unless it already holds that version.
    func invalidate(_ id: SessionID, version: Int64?) {
        state.withLockedValue { state in
            state.generation &+= 1
            if !state.openReads.isEmpty {
                state.named[id] = state.generation
                if state.named.count > 4096 { state.prune() }
            }
            guard let entry = state.entries[id] else { return }
            if let version, case .live(let live) = entry.session, live.pipOf == nil, live.savedVersion >= version {
                return
            }
            state.entries[id] = nil
        }
    }

    // MARK: Activity

    /// The local expiries PostgreSQL has not been told, marked as told. Give them back with
    /// `flushFailed` when the write fails.
    func unflushedExpiries() -> [PendingExpiry] {
        state.withLockedValue { state in
            var pending: [PendingExpiry] = []
            for (id, entry) in state.entries where entry.expiresAt > entry.storedExpiresAt {
                pending.append(PendingExpiry(id: id, expiresAt: entry.expiresAt, previous: entry.storedExpiresAt))
                state.entries[id]?.storedExpiresAt = entry.expiresAt
            }
            return pending
        }
    }

    /// The write of `pending` failed: they are to be written again.
    func flushFailed(_ pending: [PendingExpiry]) {
        state.withLockedValue { state in
            for item in pending where state.entries[item.id]?.storedExpiresAt == item.expiresAt {
                state.entries[item.id]?.storedExpiresAt = item.previous
            }
        }
    }
}

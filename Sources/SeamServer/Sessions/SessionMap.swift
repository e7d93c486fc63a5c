import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// The sessions this replica has built, by id: the one map of live objects in the process
/// (`SessionRuntime` owns it), in front of the store's records.
///
/// What may be trusted and for how long is the store's word (`SessionTrust`). A store in this
/// process (`.always`): an entry is the truth until its local expiry passes. A shared store
/// (`.confirmed`): a VOD session's record never changes after it is created, and a live session's
/// changes only when a replica writes it; what else can happen is a delete or an expiry through
/// another replica. The store tells of each (`SessionStore.watch`: PostgreSQL's `NOTIFY`), so
/// while it is heard, an entry confirmed by a read that began while it was heard is trusted
/// until a change names it or its local expiry passes. Without the changes (not heard yet, the
/// connection lost, `store.notifications` off) an entry is trusted for the store's seconds after
/// the store last confirmed it, then the runtime asks again.
///
/// Activity served from the map moves the local expiry; the runtime writes those expiries to the
/// store in batches (`unflushedExpiries`), a shared store's `expiryLead` ahead, so the stored
/// expiry trails the local one by at most the flush interval.
///
/// A read races the changes: a delete may be heard while a read that still saw the session is on
/// its way back. Each read therefore begins with a `ReadMark` and ends with `endRead`; a session
/// named by a change after the mark was taken is kept untrusted by changes (for the store's
/// seconds only), so it is read again soon after.
///
/// Sharded by id, each shard behind its own lock, so requests for different sessions rarely wait
/// for one another; a lookup takes only its shard's lock (whether changes are heard is an
/// atomic). What reads and changes share (`Hearing`) has its own lock, always taken before a
/// shard's. Time is passed in.
final class SessionMap: SessionChangeListening, Sendable {
    /// A live main's record as this replica last wrote or read it: the store's version, and the
    /// timeline's `changes` then (the record needs writing again once they differ).
    struct Saved: Sendable, Equatable {
        var version: Int64
        /// Kept in 32 bits (a timeline counts two changes a break), so the entry packs its fields.
        private var changeCount: Int32
        var changes: Int { Int(changeCount) }

        init(version: Int64, changes: Int) {
            self.version = version
            changeCount = Int32(clamping: changes)
        }
    }

    struct Entry: Sendable {
        var session: SeamSession
        /// The session's expiry as this replica knows it (moved by each request it serves).
        var expiresAt: Date
        /// The expiry the store holds, as far as this replica knows (written or read).
        var storedExpiresAt: Date
        /// When the store last confirmed the session (written, read or touched).
        var checkedAt: Date
        /// For a live main: what its stored record holds.
        var saved: Saved?
        /// `epoch`, with `UInt64.max` for nil: the entry packs into seven words (every session
        /// has one; epochs count from 0, one per reconnection).
        private var confirmedEpoch: UInt64

        /// The hearing epoch the confirming read began in: the entry is trusted while that epoch
        /// lasts. Nil: confirmed while changes were not heard (trusted for the store's seconds).
        var epoch: UInt64? {
            get { confirmedEpoch == .max ? nil : confirmedEpoch }
            set { confirmedEpoch = newValue ?? .max }
        }

        init(
            session: SeamSession, expiresAt: Date, storedExpiresAt: Date, checkedAt: Date, epoch: UInt64?,
            saved: Saved?
        ) {
            self.session = session
            self.expiresAt = expiresAt
            self.storedExpiresAt = storedExpiresAt
            self.checkedAt = checkedAt
            self.saved = saved
            confirmedEpoch = epoch ?? .max
        }
    }

    /// What the map can say about a session.
    enum Lookup: Sendable {
        /// Trusted: serve it without asking the store.
        case fresh(SeamSession)
        /// Held, but to be checked with the store first; `aliveLocally` when its local expiry has
        /// not passed (requests this replica served kept it alive); `saved` for a live main.
        case stale(SeamSession, aliveLocally: Bool, saved: Saved?)
        case missing
    }

    /// Taken when a read of the store begins: what the map had heard by then.
    struct ReadMark: Sendable, Equatable {
        /// Changes heard before the read.
        var generation: UInt64
        /// The hearing epoch, nil when changes were not heard.
        var epoch: UInt64?
    }

    /// An expiry to write to the store, and what the map believed stored before (put back if the
    /// write fails).
    struct PendingExpiry: Sendable, Equatable {
        var id: SessionID
        var expiresAt: Date
        var previous: Date
    }

    /// What reads and heard changes share.
    private struct Hearing {
        var epoch: UInt64 = 0
        var listening = false
        /// Counts the changes heard.
        var generation: UInt64 = 0
        /// The generation at which a session was last named, kept while a read older than it is open.
        var named: [SessionID: UInt64] = [:]
        /// Open reads, by the generation of their mark.
        var openReads: [UInt64: Int] = [:]

        /// Forgets the names no open read can be older than.
        mutating func prune() {
            guard let oldest = openReads.keys.min() else {
                named.removeAll(keepingCapacity: true)
                return
            }
            named = named.filter { $0.value > oldest }
        }
    }

    let trust: SessionTrust
    let ttl: Double
    /// How far ahead of a session's expiry its activity is written to a shared store
    /// (`expiryLead(trust:ttlSeconds:)`).
    let expiryLead: Double
    let shards: [NIOLockedValueBox<[SessionID: Entry]>]
    private let hearing = NIOLockedValueBox(Hearing())
    /// The live records this replica is writing now, by session: the version each write makes.
    /// The store's notification of a write may come before its answer, and must not drop the
    /// entry; nor may a read in between take the session up again from the record being written.
    /// Only sessions being written are here.
    let writing = NIOLockedValueBox([SessionID: Int64]())
    /// `epoch << 1 | listening`, read by lookups without the hearing lock.
    private let heard = Atomic<UInt64>(0)

    init(trust: SessionTrust, ttlSeconds: Double, expiryLead: Double? = nil, shardCount: Int = 16) {
        self.trust = trust
        ttl = ttlSeconds
        self.expiryLead = expiryLead ?? Self.expiryLead(trust: trust, ttlSeconds: ttlSeconds)
        shards = (0..<max(1, shardCount)).map { _ in NIOLockedValueBox([:]) }
    }

    /// A store other replicas share (PostgreSQL) is told a session's expiry a tenth of its TTL
    /// ahead (at most 30 s), and told again only once requests move the expiry past what it was
    /// told. Without the lead every session a viewer reloads was written at every flush
    /// (`store.cacheSeconds`): 10,000 viewers reloading every 6 s made about 1,700 row updates a
    /// second, each a new row version with its index entries in PostgreSQL, beside the live
    /// records' writes (BENCHMARKS.md, 2026-12-01 afternoon). With it, a viewer's row is updated
    /// once per lead, and an idle session stays in the store at most that much past its TTL
    /// (never less than its TTL). A store in this process keeps the exact expiry.
    static func expiryLead(trust: SessionTrust, ttlSeconds: Double) -> Double {
        guard case .confirmed = trust else { return 0 }
        return min(max(0, ttlSeconds) / 10, 30)
    }

    func shard(_ id: SessionID) -> NIOLockedValueBox<[SessionID: Entry]> {
        var hasher = Hasher()
        hasher.combine(id)
        return shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
    }

    var count: Int { shards.reduce(0) { $0 + $1.withLockedValue { $0.count } } }

    /// How many sessions of each kind the map holds (`seam_sessions_active`, read at each scrape).
    func countByKind() -> (vod: Int, live: Int) {
        shards.reduce((vod: 0, live: 0)) { total, shard in
            shard.withLockedValue { entries in
                var total = total
                for entry in entries.values {
                    if case .live = entry.session { total.live += 1 } else { total.vod += 1 }
                }
                return total
            }
        }
    }

    /// Whether the store's changes are heard now.
    var isListening: Bool { heard.load(ordering: .relaxed) & 1 == 1 }

    private func trusted(_ entry: Entry, now: Date) -> Bool {
        switch trust {
        case .always: return true
        case .never: return false
        case .confirmed(let seconds):
            let heard = heard.load(ordering: .acquiring)
            if heard & 1 == 1, let confirmed = entry.epoch, confirmed == heard >> 1 { return true }
            return now.timeIntervalSince(entry.checkedAt) < seconds
        }
    }

    /// Looks `id` up at `now`; a fresh hit counts as activity (its local expiry moves).
    func lookup(_ id: SessionID, now: Date) -> Lookup {
        shard(id).withLockedValue { entries in
            guard let entry = entries[id] else { return .missing }
            let aliveLocally = entry.expiresAt >= now
            guard aliveLocally, trusted(entry, now: now) else {
                return .stale(entry.session, aliveLocally: aliveLocally, saved: entry.saved)
            }
            // Moved a second at a time: a player's reloads come many a second, and each write is
            // a second hash lookup under the shard's lock.
            let extended = now.addingTimeInterval(ttl)
            if extended.timeIntervalSince(entry.expiresAt) >= min(1, ttl / 2) { entries[id]?.expiresAt = extended }
            return .fresh(entry.session)
        }
    }

    // MARK: Reads

    /// Begins a read of the store; end it with `endRead` whatever happens (`defer`).
    func beginRead() -> ReadMark {
        hearing.withLockedValue { hearing in
            hearing.openReads[hearing.generation, default: 0] += 1
            return ReadMark(generation: hearing.generation, epoch: hearing.listening ? hearing.epoch : nil)
        }
    }

    func endRead(_ mark: ReadMark) {
        hearing.withLockedValue { hearing in
            guard let open = hearing.openReads[mark.generation] else { return }
            if open <= 1 {
                hearing.openReads[mark.generation] = nil
                if hearing.openReads.isEmpty { hearing.named.removeAll(keepingCapacity: true) }
            } else {
                hearing.openReads[mark.generation] = open - 1
            }
        }
    }

    /// The store confirmed the session, with expiry `expiresAt`, by a read that began at `mark`
    /// (or by its insert); `saved` for a live main (nil keeps what the entry had, for the same
    /// session object).
    func store(_ session: SeamSession, expiresAt: Date, now: Date, mark: ReadMark, saved: Saved? = nil) {
        guard trust != .never else { return }
        hearing.withLockedValue { hearing in
            // Named by a change while the read was on its way: what it read may be gone.
            let namedSince = hearing.named[session.id].map { $0 > mark.generation } ?? false
            shard(session.id).withLockedValue { entries in
                var kept = saved
                if kept == nil, let old = entries[session.id], old.session.isSameObject(as: session) {
                    kept = old.saved
                }
                entries[session.id] = Entry(
                    session: session, expiresAt: expiresAt, storedExpiresAt: expiresAt, checkedAt: now,
                    epoch: namedSince ? nil : mark.epoch, saved: kept)
            }
        }
    }

    func remove(_ id: SessionID) {
        _ = shard(id).withLockedValue { $0.removeValue(forKey: id) }
    }

    /// Drops the entries whose local expiry passed before `now`.
    func evict(before now: Date) {
        for shard in shards {
            shard.withLockedValue { entries in
                let gone = entries.compactMap { $0.value.expiresAt < now ? $0.key : nil }
                for id in gone { entries[id] = nil }
            }
        }
    }

    /// Moves the local expiry of a session the store just extended (keep-alive).
    func extend(_ id: SessionID, to expiresAt: Date, now: Date) {
        shard(id).withLockedValue { entries in
            guard var entry = entries[id] else { return }
            entry.expiresAt = max(entry.expiresAt, expiresAt)
            entry.storedExpiresAt = expiresAt
            entry.checkedAt = now
            entries[id] = entry
        }
    }

    // MARK: Changes heard (SessionChangeListening)

    func listeningStarted() {
        hearing.withLockedValue { hearing in
            hearing.epoch &+= 1
            hearing.listening = true
            heard.store(hearing.epoch << 1 | 1, ordering: .releasing)
        }
    }

    func listeningStopped() {
        hearing.withLockedValue { hearing in
            hearing.listening = false
            heard.store(hearing.epoch << 1, ordering: .releasing)
        }
    }

    /// The entry goes, unless it already holds that version (this replica's own write).
    func changed(_ id: SessionID, version: Int64?) {
        hearing.withLockedValue { hearing in
            hearing.generation &+= 1
            if !hearing.openReads.isEmpty {
                hearing.named[id] = hearing.generation
                if hearing.named.count > 4096 { hearing.prune() }
            }
            shard(id).withLockedValue { entries in
                guard let entry = entries[id] else { return }
                if let version, let saved = entry.saved,
                    saved.version >= version || writing.withLockedValue({ $0[id] }) == version
                {
                    return
                }
                entries[id] = nil
            }
        }
    }
}

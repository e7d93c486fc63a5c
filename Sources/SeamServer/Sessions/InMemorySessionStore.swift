import Foundation
import NIOConcurrencyHelpers
import Stitching

/// Every session record in this process's memory: the default store. Requests are answered from
/// `SessionRuntime`'s map of built sessions, which trusts what it holds (`SessionTrust.always`);
/// this store keeps the records, their versions and expiries, and the beacon claims. A VOD
/// record made from a session holds that session's value (`SessionRecord.VOD`), so keeping it
/// costs a reference; the runtime writes a live record at the start only (`saveLive`).
///
/// Sharded by id, each shard behind its own lock, so requests for different sessions rarely wait
/// for one another. `sessions.maxSessions` is held by `SessionPlaces`, one counter changed under
/// its own lock, so checking for room and taking it is a single step however many starts run at
/// once. The beacons a session has fired live in its entry, so they go when it goes; a main with
/// picture-in-picture sessions leaves its set behind until the last of them goes (they claim in it).
///
/// No list of expired or deleted ids is kept: a keyed session id tells "issued here, now gone"
/// (`410`) from "never issued" (`404`) by itself, so memory follows the sessions alive.
package final class InMemorySessionStore: SessionStore {
    private let shards: [Shard]
    private let ttl: Double
    package let maxSessions: Int
    package var trust: SessionTrust { .always }
    private let places: SessionPlaces

    /// - Parameters:
    ///   - ttlSeconds: how long a session lives after its last request (`sessions.ttlSeconds`).
    ///   - maxSessions: `sessions.maxSessions`.
    package init(ttlSeconds: Double, maxSessions: Int, shardCount: Int = 16) {
        ttl = ttlSeconds
        self.maxSessions = maxSessions
        let places = SessionPlaces(limit: maxSessions)
        self.places = places
        shards = (0..<max(1, shardCount)).map { _ in Shard(places: places) }
    }

    private func shard(_ id: SessionID) -> Shard {
        var hasher = Hasher()
        hasher.combine(id)
        return shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
    }

    /// Places taken now: stored sessions plus starts under way.
    package var placesTaken: Int { places.taken }

    /// Claim sets removed mains left to their pips (for tests: none once the last pip is gone).
    var retiredClaimSets: Int { shards.reduce(0) { $0 + $1.retiredCount } }

    // MARK: SessionStore

    package func reserve() -> SessionReservation? {
        places.reserve()
    }

    package func release(_ reservation: SessionReservation) {
        places.release(reservation)
    }

    @discardableResult
    package func insert(_ record: SessionRecord, into reservation: SessionReservation, now: Date) -> Date? {
        guard places.occupy(reservation) else { return nil }
        let expiry = now.addingTimeInterval(ttl)
        // A pip counts in its main's claim set before it can be asked for anything.
        if let main = record.pipOf { shard(main).join(main) }
        shard(record.id).insert(record, expiresAt: expiry)
        return expiry
    }

    package func load(_ id: SessionID, now: Date, readAbove: Int64?, keptAlive: Bool) -> StoredLookup {
        let (lookup, left) = shard(id).lookup(id, now: now, ttl: ttl, readAbove: readAbove, keptAlive: keptAlive)
        leave(left)
        return lookup
    }

    package func replaceLive(_ record: SessionRecord, version: Int64) -> Bool {
        shard(record.id).replace(record, version: version)
    }

    package func touch(_ activity: [SessionActivity]) {
        for item in activity { shard(item.id).extend(item.id, to: item.expiresAt) }
    }

    package func claimBeacons(
        _ events: [AdProgressEvent], breakNumber: Int, ad: Int, in id: SessionID
    ) -> [AdProgressEvent] {
        let key = BeaconKey(breakNumber: breakNumber, ad: ad)
        switch shard(id).claim(events, key: key, in: id) {
        case .claimed(let fresh): return fresh
        case .inMain(let main): return shard(main).claimShared(events, key: key, owner: main)
        }
    }

    package func delete(_ id: SessionID) -> Bool {
        let (removed, left) = shard(id).delete(id)
        leave(left)
        return removed
    }

    @discardableResult
    package func expire(now: Date) -> [SessionID] {
        var removed: [SessionID] = []
        for shard in shards {
            let (ids, left) = shard.expire(now: now)
            removed += ids
            for main in left { leave(main) }
        }
        return removed
    }

    /// A removed pip leaves its main's claim set (taken after the pip's shard lock is let go:
    /// the main may live in the same shard).
    private func leave(_ main: SessionID?) {
        if let main { shard(main).leave(main) }
    }

    package func appendStory(_ entries: [SessionStoryEntry], to id: SessionID, keep: Int) -> Bool {
        shard(id).appendStory(entries, to: id, keep: keep)
    }

    package func story(of id: SessionID) -> SessionStory? {
        shard(id).story(of: id)
    }

    package func count() -> Int {
        shards.reduce(0) { $0 + $1.count }
    }

    // MARK: Shards

    /// An ad of a session, for the beacons it has fired.
    struct BeaconKey: Hashable {
        var breakNumber: Int
        var ad: Int
    }

    struct Entry {
        /// A few words inline: the kind and the inputs are boxed, shared with the session.
        var record: SessionRecord
        /// Counts the writes of a live record (`replaceLive`).
        var version: Int64 = 0
        var expiresAt: Date
        /// Events fired per ad; empty (no storage) until the first server-side beacon. A main's
        /// set is its pips' too; a pip's stays empty.
        var fired: [BeaconKey: Set<AdProgressEvent>] = [:]
        /// Pips stored that claim in this session's set.
        var pips = 0

        init(record: SessionRecord, expiresAt: Date) {
            self.record = record
            self.expiresAt = expiresAt
        }
    }

    /// The claim set of a main removed while pips of it live: kept until the last pip goes, so
    /// they never fire an event the main already fired.
    struct Retired {
        var pips: Int
        var fired: [BeaconKey: Set<AdProgressEvent>]
    }

    /// A shard's sessions, and the claim sets of its removed mains that pips still use.
    struct Contents {
        var entries: [SessionID: Entry] = [:]
        var retired: [SessionID: Retired] = [:]
        /// The stories of the sessions that have one (`debug.token`): apart from the entries, so
        /// a session costs nothing for them while the route is off.
        var stories: [SessionID: SessionStory] = [:]

        /// Takes `id` out; a main with pips leaves its claim set behind. Returns the main a
        /// removed pip must leave.
        mutating func remove(_ id: SessionID) -> (removed: Bool, leaves: SessionID?) {
            guard let entry = entries.removeValue(forKey: id) else { return (false, nil) }
            stories[id] = nil
            if entry.pips > 0 { retired[id] = Retired(pips: entry.pips, fired: entry.fired) }
            return (true, entry.record.pipOf)
        }
    }

    /// What a pip's claim needs: done here, or in its main's shard.
    enum Claim {
        case claimed([AdProgressEvent])
        case inMain(SessionID)
    }
}

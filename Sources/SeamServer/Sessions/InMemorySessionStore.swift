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
        var record: SessionRecord
        /// Counts the writes of a live record (`replaceLive`).
        var version: Int64 = 0
        var expiresAt: Date
        /// Events fired per ad; empty (no storage) until the first server-side beacon. A main's
        /// set is its pips' too; a pip's stays empty.
        var fired: [BeaconKey: Set<AdProgressEvent>] = [:]
        /// Pips stored that claim in this session's set.
        var pips = 0
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

        /// Takes `id` out; a main with pips leaves its claim set behind. Returns the main a
        /// removed pip must leave.
        mutating func remove(_ id: SessionID) -> (removed: Bool, leaves: SessionID?) {
            guard let entry = entries.removeValue(forKey: id) else { return (false, nil) }
            if entry.pips > 0 { retired[id] = Retired(pips: entry.pips, fired: entry.fired) }
            return (true, entry.record.pipOf)
        }
    }

    /// What a pip's claim needs: done here, or in its main's shard.
    enum Claim {
        case claimed([AdProgressEvent])
        case inMain(SessionID)
    }

    /// One lock's worth of sessions. Every method is one critical section.
    final class Shard: Sendable {
        /// Every removal gives its place back here.
        let places: SessionPlaces
        private let contents = NIOLockedValueBox(Contents())

        init(places: SessionPlaces) {
            self.places = places
        }

        var count: Int { contents.withLockedValue { $0.entries.count } }
        var retiredCount: Int { contents.withLockedValue { $0.retired.count } }

        func insert(_ record: SessionRecord, expiresAt: Date) {
            let replaced = contents.withLockedValue {
                $0.entries.updateValue(Entry(record: record, expiresAt: expiresAt), forKey: record.id) != nil
            }
            // Same id stored twice (ids are random, so in practice never): one place, not two.
            if replaced { places.vacate(1) }
        }

        func lookup(
            _ id: SessionID, now: Date, ttl: Double, readAbove: Int64?, keptAlive: Bool
        ) -> (StoredLookup, leaves: SessionID?) {
            let (lookup, removed, leaves) = contents.withLockedValue { contents -> (StoredLookup, Bool, SessionID?) in
                guard let entry = contents.entries[id] else { return (.notFound, false, nil) }
                if entry.expiresAt < now, !keptAlive {
                    return (.expired, true, contents.remove(id).leaves)
                }
                let expiry = max(entry.expiresAt, now.addingTimeInterval(ttl))
                contents.entries[id]?.expiresAt = expiry
                let record = readAbove.map { entry.version > $0 } ?? true ? entry.record : nil
                return (.found(StoredSession(record: record, version: entry.version, expiresAt: expiry)), false, nil)
            }
            if removed { places.vacate(1) }
            return (lookup, leaves)
        }

        /// Compare and swap: the record is written as `version + 1` only over `version`.
        func replace(_ record: SessionRecord, version: Int64) -> Bool {
            contents.withLockedValue { contents in
                guard contents.entries[record.id]?.version == version else { return false }
                contents.entries[record.id]?.record = record
                contents.entries[record.id]?.version = version + 1
                return true
            }
        }

        /// Moves a session's expiry to `expiresAt` when that is later.
        func extend(_ id: SessionID, to expiresAt: Date) {
            contents.withLockedValue { contents in
                if let entry = contents.entries[id], entry.expiresAt < expiresAt {
                    contents.entries[id]?.expiresAt = expiresAt
                }
            }
        }

        func delete(_ id: SessionID) -> (Bool, leaves: SessionID?) {
            let (removed, leaves) = contents.withLockedValue { $0.remove(id) }
            if removed { places.vacate(1) }
            return (removed, leaves)
        }

        /// Claims in the session's own set, or says which main's set to claim in.
        func claim(_ events: [AdProgressEvent], key: BeaconKey, in id: SessionID) -> Claim {
            contents.withLockedValue { contents in
                // A session removed since its segment was looked up fires nothing.
                guard let entry = contents.entries[id] else { return .claimed([]) }
                if let main = entry.record.pipOf { return .inMain(main) }
                return .claimed(contents.entries[id]?.fired.claim(events, key: key) ?? [])
            }
        }

        /// Claims in the set of main `owner` for one of its pips: the main's entry, or the set it
        /// left behind.
        func claimShared(_ events: [AdProgressEvent], key: BeaconKey, owner: SessionID) -> [AdProgressEvent] {
            contents.withLockedValue { contents in
                if contents.entries[owner] != nil {
                    return contents.entries[owner]?.fired.claim(events, key: key) ?? []
                }
                return contents.retired[owner]?.fired.claim(events, key: key) ?? []
            }
        }

        /// A pip of `main` is stored: main's set stays until that pip goes. A main already gone
        /// (removed between the pip's lookup and now) leaves a fresh set for its pips.
        func join(_ main: SessionID) {
            contents.withLockedValue { contents in
                if contents.entries[main] != nil {
                    contents.entries[main]?.pips += 1
                } else {
                    contents.retired[main, default: Retired(pips: 0, fired: [:])].pips += 1
                }
            }
        }

        /// A pip of `main` is gone: the set a removed main left goes with its last pip.
        func leave(_ main: SessionID) {
            contents.withLockedValue { contents in
                if contents.entries[main] != nil {
                    contents.entries[main]?.pips -= 1
                } else if let retired = contents.retired[main] {
                    if retired.pips <= 1 { contents.retired[main] = nil } else { contents.retired[main]?.pips -= 1 }
                }
            }
        }

        /// Drops the expired sessions; returns them, and the mains the removed pips leave.
        func expire(now: Date) -> ([SessionID], leaves: [SessionID]) {
            let (removed, leaves) = contents.withLockedValue { contents -> ([SessionID], [SessionID]) in
                // Only the stale keys are collected: a sweep that finds nothing copies nothing.
                let stale = contents.entries.compactMap { $0.value.expiresAt < now ? $0.key : nil }
                var leaves: [SessionID] = []
                for id in stale {
                    if let main = contents.remove(id).leaves { leaves.append(main) }
                }
                return (stale, leaves)
            }
            if !removed.isEmpty { places.vacate(removed.count) }
            return (removed, leaves)
        }
    }
}

extension Dictionary where Key == InMemorySessionStore.BeaconKey, Value == Set<AdProgressEvent> {
    /// Which of `events` ad `key` has not fired yet; marks them fired.
    mutating func claim(_ events: [AdProgressEvent], key: Key) -> [AdProgressEvent] {
        var fresh: [AdProgressEvent] = []
        var done = self[key] ?? []
        for event in events where done.insert(event).inserted { fresh.append(event) }
        if !fresh.isEmpty { self[key] = done }
        return fresh
    }
}

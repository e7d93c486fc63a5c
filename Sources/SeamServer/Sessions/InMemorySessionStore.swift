import Foundation
import NIOConcurrencyHelpers
import Stitching

/// All sessions in this process's memory: the default store, and the fastest (a playlist request
/// is a hash and a lock, no actor hop and no copy of the playlists).
///
/// Sharded by id, each shard behind its own lock, so requests for different sessions rarely wait
/// for one another. `sessions.maxSessions` is held by `SessionPlaces`, one counter changed under
/// its own lock, so checking for room and taking it is a single step however many starts run at
/// once. The beacons a session has fired live in its entry, so they go when it goes.
///
/// No list of expired or deleted ids is kept: a keyed session id tells "issued here, now gone"
/// (`410`) from "never issued" (`404`) by itself, so memory follows the sessions alive.
public final class InMemorySessionStore: SessionStore, ExpiryNaming {
    private let shards: [Shard]
    private let ttl: Double
    public let maxSessions: Int
    private let places: SessionPlaces

    /// - Parameters:
    ///   - ttlSeconds: how long a session lives after its last request (`sessions.ttlSeconds`).
    ///   - maxSessions: `sessions.maxSessions`.
    public init(ttlSeconds: Double, maxSessions: Int, shardCount: Int = 16) {
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
    public var placesTaken: Int { places.taken }

    // MARK: SessionStore

    public func reserve() -> SessionReservation? {
        places.reserve()
    }

    public func release(_ reservation: SessionReservation) {
        places.release(reservation)
    }

    @discardableResult
    public func put(_ session: SeamSession, inputs: SessionInputs, into reservation: SessionReservation, now: Date) -> Date? {
        guard places.occupy(reservation) else { return nil }
        let expiry = now.addingTimeInterval(ttl)
        shard(session.id).insert(session, expiresAt: expiry)
        return expiry
    }

    public func get(_ id: SessionID, now: Date) -> SessionLookup {
        shard(id).lookup(id, now: now, ttl: ttl)
    }

    public func touch(_ id: SessionID, now: Date) -> Date? {
        shard(id).touch(id, now: now, ttl: ttl)
    }

    public func claimBeacons(_ events: [AdProgressEvent], breakNumber: Int, ad: Int, in id: SessionID) -> [AdProgressEvent] {
        shard(id).claim(events, key: BeaconKey(breakNumber: breakNumber, ad: ad), in: id)
    }

    public func delete(_ id: SessionID) -> Bool {
        shard(id).delete(id)
    }

    @discardableResult
    public func expire(now: Date) -> Int {
        expireNamed(now: now).count
    }

    /// Like `expire(now:)`, naming the sessions dropped (for session analytics).
    public func expireNamed(now: Date) -> [SessionID] {
        shards.flatMap { $0.expire(now: now) }
    }

    public func count() -> Int {
        shards.reduce(0) { $0 + $1.count }
    }

    // MARK: Shards

    /// An ad of a session, for the beacons it has fired.
    struct BeaconKey: Hashable {
        var breakNumber: Int
        var ad: Int
    }

    struct Entry {
        var session: SeamSession
        var expiresAt: Date
        /// Events fired per ad; empty (no storage) until the first server-side beacon.
        var fired: [BeaconKey: Set<AdProgressEvent>] = [:]
    }

    /// One lock's worth of sessions. Every method is one critical section.
    final class Shard: Sendable {
        /// Every removal gives its place back here.
        let places: SessionPlaces
        private let entries = NIOLockedValueBox<[SessionID: Entry]>([:])

        init(places: SessionPlaces) {
            self.places = places
        }

        var count: Int { entries.withLockedValue { $0.count } }

        func insert(_ session: SeamSession, expiresAt: Date) {
            let replaced = entries.withLockedValue { $0.updateValue(Entry(session: session, expiresAt: expiresAt), forKey: session.id) != nil }
            // Same id stored twice (ids are random, so in practice never): one place, not two.
            if replaced { places.vacate(1) }
        }

        func lookup(_ id: SessionID, now: Date, ttl: Double) -> SessionLookup {
            let (lookup, removed) = entries.withLockedValue { entries -> (SessionLookup, Bool) in
                guard let entry = entries[id] else { return (.notFound, false) }
                if entry.expiresAt < now {
                    entries[id] = nil
                    return (.expired, true)
                }
                entries[id]?.expiresAt = now.addingTimeInterval(ttl)
                return (.found(entry.session), false)
            }
            if removed { places.vacate(1) }
            return lookup
        }

        func touch(_ id: SessionID, now: Date, ttl: Double) -> Date? {
            let (expiry, removed) = entries.withLockedValue { entries -> (Date?, Bool) in
                guard let entry = entries[id] else { return (nil, false) }
                guard entry.expiresAt >= now else {
                    entries[id] = nil
                    return (nil, true)
                }
                let expiry = now.addingTimeInterval(ttl)
                entries[id]?.expiresAt = expiry
                return (expiry, false)
            }
            if removed { places.vacate(1) }
            return expiry
        }

        func delete(_ id: SessionID) -> Bool {
            let removed = entries.withLockedValue { $0.removeValue(forKey: id) != nil }
            if removed { places.vacate(1) }
            return removed
        }

        func claim(_ events: [AdProgressEvent], key: BeaconKey, in id: SessionID) -> [AdProgressEvent] {
            entries.withLockedValue { entries in
                // A session removed since its segment was looked up fires nothing.
                guard entries[id] != nil else { return [] }
                var fresh: [AdProgressEvent] = []
                var done = entries[id]?.fired[key] ?? []
                for event in events where done.insert(event).inserted { fresh.append(event) }
                if !fresh.isEmpty { entries[id]?.fired[key] = done }
                return fresh
            }
        }

        func expire(now: Date) -> [SessionID] {
            let removed = entries.withLockedValue { entries -> [SessionID] in
                // Only the stale keys are collected: a sweep that finds nothing copies nothing.
                let stale = entries.compactMap { $0.value.expiresAt < now ? $0.key : nil }
                for id in stale { entries[id] = nil }
                return stale
            }
            if !removed.isEmpty { places.vacate(removed.count) }
            return removed
        }
    }
}

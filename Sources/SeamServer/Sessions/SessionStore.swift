import Foundation
import NIOConcurrencyHelpers
import Stitching

/// A session of either kind: VOD sessions are computed once; live ones are state machines.
public enum SeamSession: Sendable {
    case vod(StitchedSession)
    case live(LiveSession)

    public var id: SessionID {
        switch self {
        case .vod(let session): return session.id
        case .live(let session): return session.id
        }
    }
}

/// All sessions, in memory. Sharded by id so playlist requests for different sessions
/// never queue behind one another on a single actor.
///
/// `sessions.maxSessions` is held by one counter of places taken (sessions stored plus
/// reservations for sessions being built), changed under a lock: a session start takes its
/// place with `reserve()` before Seam asks the origin or the ad server anything, so a full
/// server answers `429` at once and concurrent starts can never together exceed the limit.
public final class SessionStore: Sendable {
    public enum Lookup: Sendable {
        case found(SeamSession)
        case expired
        case notFound
    }

    private let shards: [Shard]
    private let ttl: Double
    public let maxSessions: Int
    private let places: SessionPlaces

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

    /// Takes a place for a session about to be built; nil when the store is full
    /// (`sessions.maxSessions` places are taken by stored sessions and other starts).
    /// Hand the reservation to `insert(_:into:)` when the session is built, or to `release(_:)`
    /// when the start fails.
    public func reserve() -> SessionReservation? {
        places.reserve()
    }

    /// Gives back the place of a start that failed. Releasing twice, or after `insert`, does nothing.
    public func release(_ reservation: SessionReservation) {
        places.release(reservation)
    }

    /// Stores a built session in the place `reservation` holds. A reservation already used or
    /// released holds no place: the session is stored only if a place is free now.
    /// Returns false when it was not stored (the store is full).
    @discardableResult
    public func insert(_ session: SeamSession, into reservation: SessionReservation, now: Date = Date()) async -> Bool {
        guard places.occupy(reservation) else { return false }
        await shard(session.id).insert(session, expiresAt: now.addingTimeInterval(ttl))
        return true
    }

    /// Stores a new session; fails when the configured maximum is reached.
    public func insert(_ session: SeamSession, now: Date = Date()) async -> Bool {
        guard let reservation = reserve() else { return false }
        return await insert(session, into: reservation, now: now)
    }

    /// Places taken now: stored sessions plus starts under way.
    public var placesTaken: Int { places.taken }

    /// Finds a session and extends its life (every playlist request counts as activity).
    public func lookup(_ id: SessionID, now: Date = Date()) async -> Lookup {
        await shard(id).lookup(id, now: now, extendBy: ttl)
    }

    /// Extends the session's time to live; the new expiry, or nil when gone.
    public func keepAlive(_ id: SessionID, now: Date = Date()) async -> Date? {
        await shard(id).keepAlive(id, now: now, ttl: ttl)
    }

    public func delete(_ id: SessionID) async -> Bool {
        await shard(id).delete(id)
    }

    /// Which of `events` have not fired yet for this ad; marks them fired. Makes server-side
    /// beacons fire once each, whatever the rendition or how often a segment is re-fetched.
    public func claim(_ events: [AdProgressEvent], pod: Int, ad: Int, in id: SessionID) async -> [AdProgressEvent] {
        await shard(id).claim(events, key: ClaimKey(session: id, pod: pod, ad: ad))
    }

    /// Drops expired sessions; returns how many.
    @discardableResult
    public func sweep(now: Date = Date()) async -> Int {
        var removed = 0
        for shard in shards { removed += await shard.sweep(now: now) }
        return removed
    }

    public var count: Int {
        get async {
            var total = 0
            for shard in shards { total += await shard.count }
            return total
        }
    }

    struct ClaimKey: Hashable {
        var session: SessionID
        var pod: Int
        var ad: Int
    }

    actor Shard {
        /// Every removal gives its place back here.
        let places: SessionPlaces
        private var sessions: [SessionID: (session: SeamSession, expiresAt: Date)] = [:]
        /// Beacons fired, by session then (pod, ad): removing a session drops its entry in one step.
        /// (No list of expired ids: a keyed session id tells "issued here, now gone" (410) from
        /// "never issued" (404) by itself, so nothing needs remembering.)
        private var fired: [SessionID: [ClaimKey: Set<AdProgressEvent>]] = [:]

        init(places: SessionPlaces) {
            self.places = places
        }

        var count: Int { sessions.count }

        func insert(_ session: SeamSession, expiresAt: Date) {
            if sessions.updateValue((session, expiresAt), forKey: session.id) != nil {
                // Same id stored twice (ids are random, so in practice never): one place, not two.
                places.vacate(1)
            }
        }

        func lookup(_ id: SessionID, now: Date, extendBy ttl: Double) -> Lookup {
            guard let entry = sessions[id] else { return .notFound }
            if entry.expiresAt < now {
                remove(id, at: now)
                return .expired
            }
            sessions[id]?.expiresAt = now.addingTimeInterval(ttl)
            return .found(entry.session)
        }

        func keepAlive(_ id: SessionID, now: Date, ttl: Double) -> Date? {
            guard let entry = sessions[id], entry.expiresAt >= now else {
                if sessions[id] != nil { remove(id, at: now) }
                return nil
            }
            let expiry = now.addingTimeInterval(ttl)
            sessions[id]?.expiresAt = expiry
            return expiry
        }

        func delete(_ id: SessionID) -> Bool {
            guard sessions.removeValue(forKey: id) != nil else { return false }
            places.vacate(1)
            fired[id] = nil
            return true
        }

        func claim(_ events: [AdProgressEvent], key: ClaimKey) -> [AdProgressEvent] {
            // A session removed since its segment was looked up fires nothing (and leaves no entry).
            guard sessions[key.session] != nil else { return [] }
            var done = fired[key.session]?[key] ?? []
            let fresh = events.filter { done.insert($0).inserted }
            fired[key.session, default: [:]][key] = done
            return fresh
        }

        func sweep(now: Date) -> Int {
            let stale = sessions.filter { $0.value.expiresAt < now }.map(\.key)
            for id in stale { remove(id, at: now) }
            return stale.count
        }

        private func remove(_ id: SessionID, at now: Date) {
            if sessions.removeValue(forKey: id) != nil { places.vacate(1) }
            fired[id] = nil
        }
    }
}

import Foundation
import NIOConcurrencyHelpers
import Stitching

extension InMemorySessionStore {
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

        /// Appends to a stored session's story; false when the shard does not hold it.
        func appendStory(_ entries: [SessionStoryEntry], to id: SessionID, keep: Int) -> Bool {
            contents.withLockedValue { contents in
                guard contents.entries[id] != nil else { return false }
                contents.stories[id, default: SessionStory()].append(entries, keep: keep)
                return true
            }
        }

        func story(of id: SessionID) -> SessionStory? {
            contents.withLockedValue { $0.stories[id] }
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

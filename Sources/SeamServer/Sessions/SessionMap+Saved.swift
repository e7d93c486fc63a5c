import Foundation

// What the runtime keeps beside the built sessions: each live main's stored version, and the
// expiries requests moved that the store has not been told.

extension SessionMap {
    // MARK: Live records

    /// What the store holds of `owner`'s state, when this map holds that very session object
    /// (a pip's main that was taken up again since is another object: nil).
    func saved(of owner: LiveSession) -> Saved? {
        shard(owner.id).withLockedValue { entries in
            guard let entry = entries[owner.id], case .live(let held) = entry.session, held === owner else {
                return nil
            }
            return entry.saved
        }
    }

    /// Whether the map holds a session of this id.
    func holds(_ id: SessionID) -> Bool {
        shard(id).withLockedValue { $0[id] != nil }
    }

    /// The store holds `owner`'s state as `saved`. Only moves forward: of two saves racing on
    /// one replica, the later version stands.
    func markSaved(_ owner: LiveSession, as saved: Saved) {
        shard(owner.id).withLockedValue { entries in
            guard let entry = entries[owner.id], case .live(let held) = entry.session, held === owner else { return }
            if let old = entry.saved, old.version > saved.version { return }
            entries[owner.id]?.saved = saved
        }
    }

    /// This replica is writing `id`'s record as `version` (nil: no more).
    func markWriting(_ id: SessionID, version: Int64?) {
        writing.withLockedValue { $0[id] = version }
    }

    /// The version this replica is writing for `id`, if it is writing one.
    func writingVersion(_ id: SessionID) -> Int64? {
        writing.withLockedValue { $0[id] }
    }

    // MARK: Activity

    /// The local expiries the store has not been told, each `expiryLead` ahead (the store is told
    /// again once requests move a session's expiry past that), marked as told. Give them back
    /// with `flushFailed` when the write fails.
    func unflushedExpiries() -> [PendingExpiry] {
        let lead = expiryLead
        var pending: [PendingExpiry] = []
        for shard in shards {
            shard.withLockedValue { entries in
                // Marked in place through the values' indices: changing `entries` while a for-in
                // holds it would copy the whole shard's table at the first change, every sweep.
                var index = entries.startIndex
                while index != entries.endIndex {
                    let entry = entries.values[index]
                    if entry.expiresAt > entry.storedExpiresAt {
                        let told = entry.expiresAt.addingTimeInterval(lead)
                        pending.append(
                            PendingExpiry(id: entries.keys[index], expiresAt: told, previous: entry.storedExpiresAt))
                        entries.values[index].storedExpiresAt = told
                    }
                    entries.formIndex(after: &index)
                }
            }
        }
        return pending
    }

    /// The write of `pending` failed: they are to be written again.
    func flushFailed(_ pending: [PendingExpiry]) {
        for item in pending {
            shard(item.id).withLockedValue { entries in
                if entries[item.id]?.storedExpiresAt == item.expiresAt {
                    entries[item.id]?.storedExpiresAt = item.previous
                }
            }
        }
    }
}

extension SeamSession {
    /// Whether both are the same built session (a live session is an object; a VOD one is
    /// compared by id, its record never changes).
    func isSameObject(as other: SeamSession) -> Bool {
        switch (self, other) {
        case (.live(let a), .live(let b)): return a === b
        case (.vod(let a), .vod(let b)): return a.id == b.id
        default: return false
        }
    }
}

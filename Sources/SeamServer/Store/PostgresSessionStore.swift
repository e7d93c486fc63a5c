import Foundation
import CoreMetrics
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Stitching

/// Sessions in PostgreSQL, shared by every replica that points `store.postgresURL` at the same
/// database: a session created through one replica is served by any other, a beacon event fires
/// once whichever replica sees its segment, and a session deleted or expired through one is gone
/// (`410`) through all.
///
/// Each session is one row of `seam_sessions` (`PostgresSchema`): its encoded `SessionRecord`,
/// its `live_version` and its `expires_at`. The store keeps no session of its own: a replica's
/// runtime holds the sessions it serves in its map (`SessionMap`), so playlist requests do not
/// read the database each time. The store tells it of every session deleted or rewritten
/// through another replica (`watch`: `PostgresSessionListener`), and the runtime writes the
/// activity it served (the sessions' new `expires_at`, `touch`) every `store.cacheSeconds`
/// (`SessionTrust.confirmed`: what is trusted for how long).
///
/// `sessions.maxSessions` counts the rows of the table, shared by all replicas: the count is read
/// at most every `store.cacheSeconds`, plus this replica's starts under way. Replicas starting
/// sessions at the same moment may together pass the limit by the starts each has under way and
/// by what was created since the count was read; the limit is a guard against overload, not an
/// exact quota.
///
/// Live sessions: the record holds the session machine's snapshot; it is written when the session
/// starts and again when a break is decided or ends (`replaceLive`, by the runtime before the
/// request that may show the change is answered), never on a plain reload. A replica that does
/// not hold the session takes it up from the record on the shared channel, and the timeline
/// continues where the other replica's was (`docs/store.md`). `live_version` counts the writes: a
/// write only lands on the version it was based on, so two replicas serving one session at once
/// cannot both write, and a replica whose copy is behind the stored version reads the stored one.
///
/// The store is a `Service`: `run()` runs the connection pool, and first migrates the schema; a
/// database that cannot be reached then stops Seam with an error naming `store.postgresURL`. Every
/// operation has `store.postgresTimeoutSeconds`: a database lost at runtime is a
/// `SessionStoreError.unavailable` (`503`), never a hang.
package final class PostgresSessionStore: SessionStore, Service {
    package let maxSessions: Int
    package let settings: PostgresStoreSettings
    let client: PostgresClient
    private let ttl: Double
    private let logger: Logger
    /// Starts under way on this replica (they hold a place before their row exists).
    private let places: SessionPlaces
    private let counted = NIOLockedValueBox<(count: Int, at: ContinuousClock.Instant)?>(nil)
    private let monotonic: @Sendable () -> ContinuousClock.Instant
    /// Sessions per sweep statement: each removes at most this many, by the `expires_at` index.
    let sweepBatch: Int
    private let migrated = NIOLockedValueBox(false)
    private let metrics: StoreMetrics
    /// This replica's `application_name` on its connections: the notifications of its own writes
    /// say so, and it skips them.
    let replicaName: String
    /// Counts the replicas heard through the notifications (`ReplicaCensus`); the same for
    /// every store of the process.
    package let census: ReplicaCensus

    /// - Parameters:
    ///   - ttlSeconds: `sessions.ttlSeconds`.
    ///   - maxSessions: `sessions.maxSessions`, across all replicas (approximately, see above).
    ///   - now: the monotonic clock the count's age is measured with.
    ///   - metricsFactory: where `StoreMetrics` are recorded (`SeamMetrics.factory` in production).
    package init(
        settings: PostgresStoreSettings, ttlSeconds: Double, maxSessions: Int, logger: Logger,
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance,
        sweepBatch: Int = 500, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        census: ReplicaCensus = ReplicaCensus()
    ) throws(ConfigurationError) {
        self.settings = settings
        self.census = census
        metrics = StoreMetrics(factory: metricsFactory)
        self.maxSessions = maxSessions
        self.ttl = ttlSeconds
        self.logger = logger
        self.sweepBatch = max(1, sweepBatch)
        monotonic = now
        places = SessionPlaces(limit: maxSessions)
        replicaName = "seam-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let configuration: PostgresClient.Configuration
        do {
            configuration = try settings.clientConfiguration(applicationName: replicaName)
        } catch {
            throw ConfigurationError(
                .invalidValue, key: "store.postgresURL", source: "configuration",
                message: "TLS cannot be set up for \(settings.redacted): \(error)")
        }
        // The pool logs every failed connection attempt at info; Seam's own errors say what failed
        // (with the operation and the setting), so the pool speaks only of worse.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
    }

    // MARK: Service

    /// Why the store could not start.
    package struct StartupError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Runs the connection pool until graceful shutdown, after migrating the schema. A database
    /// that cannot be reached or migrated ends `run()` with a `StartupError` that names the setting.
    package func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            do {
                try await migrate()
            } catch {
                group.cancelAll()
                throw StartupError(
                    description: "store.postgresURL: the session store cannot start on \(settings.redacted): \(error)")
            }
            try await group.waitForAll()
        }
    }

    /// Replicas serve what they read for `store.cacheSeconds`, or until a notification names it.
    package var trust: SessionTrust { .confirmed(seconds: settings.cacheSeconds) }

    /// Tells `listener` of the sessions other replicas delete or rewrite (`PostgresSessionListener`),
    /// until cancelled; nothing when `store.notifications` is off or there is no cache
    /// (`store.cacheSeconds` 0).
    package func watch(_ listener: any SessionChangeListening) async {
        guard settings.cacheSeconds > 0, settings.notifications else { return }
        var watcher = PostgresSessionListener(
            replica: replicaName, settings: settings, client: client, listener: listener, logger: logger
        ) { what, sql in
            try await self.run(what) { _ = try await self.client.query(sql, logger: self.logger) }
        }
        watcher.census = census
        await watcher.run()
    }

    /// Writes the expiries requests moved, in one statement per 5,000 sessions; each row's
    /// `expires_at` only ever moves later. Rows are locked in id order, as the live records'
    /// batch locks its own (`replaceLive`), so the two never deadlock.
    package func touch(_ activity: [SessionActivity]) async throws(SessionStoreError) {
        var start = 0
        while start < activity.count {
            let chunk = activity[start..<min(activity.count, start + 5000)]
            start += chunk.count
            let ids = chunk.map(\.id.value), expiries = chunk.map(\.expiresAt)
            try await run("writing sessions' activity") {
                _ = try await self.client.query(
                    """
                    WITH v AS (SELECT * FROM unnest(\(ids)::text[], \(expiries)::timestamptz[]) AS v(id, expires_at)),
                    locked AS (
                        SELECT s.id FROM seam_sessions s JOIN v ON s.id = v.id
                        WHERE s.expires_at < v.expires_at ORDER BY s.id FOR UPDATE OF s)
                    UPDATE seam_sessions s SET expires_at = v.expires_at
                    FROM v, locked
                    WHERE s.id = v.id AND s.id = locked.id AND s.expires_at < v.expires_at
                    """, logger: self.logger)
            }
        }
    }

    /// Creates or updates the schema (under the advisory lock; see `PostgresSchema`). `run()` does
    /// it first; tests that run the client themselves call it.
    ///
    /// - Parameter seconds: how long it may take; default the startup allowance (10 s, or the
    ///   operation time-out when longer), for a database that starts alongside Seam.
    @discardableResult
    package func migrate(within seconds: Double? = nil) async throws -> [Int] {
        let applied = try await withDeadline(
            "migrating the schema", seconds: seconds ?? max(settings.timeoutSeconds, 10),
            limit: seconds == nil ? "the startup allowance" : "store.postgresTimeoutSeconds"
        ) {
            do {
                return try await PostgresSchema.migrate(self.client, schema: self.settings.schema, logger: self.logger)
            } catch let error as PostgresTransactionError {
                // What went wrong inside the transaction, not the wrapper around it.
                throw error.closureError ?? error.beginError ?? error.commitError ?? error
            }
        }
        migrated.withLockedValue { $0 = true }
        if !applied.isEmpty { logger.info("session store schema migrated", metadata: ["versions": "\(applied)"]) }
        return applied
    }

    /// Takes the schema as migrated without asking: for tests of a database lost after startup.
    func assumeMigrated() {
        migrated.withLockedValue { $0 = true }
    }

    // MARK: SessionStore

    package func reserve() async throws(SessionStoreError) -> SessionReservation? {
        let stored = try await storedCount()
        // The local places count only starts under way; the table counts what is stored.
        guard let reservation = places.reserve() else { return nil }
        if stored + places.taken > maxSessions {
            places.release(reservation)
            return nil
        }
        return reservation
    }

    package func release(_ reservation: SessionReservation) async {
        places.release(reservation)
    }

    package func insert(
        _ record: SessionRecord, into reservation: SessionReservation, now: Date
    ) async throws(SessionStoreError) -> Date? {
        let bytes: [UInt8]
        do {
            bytes = try record.encoded()
        } catch {
            throw .unavailable(reason: "the session could not be written: \(PostgresErrorText.plain(error))")
        }
        // The start's place is given back whatever happens: from here the row counts.
        defer { places.release(reservation) }
        let expiry = now.addingTimeInterval(ttl)
        let kind: String
        switch record.kind {
        case .vod: kind = "vod"
        case .live: kind = "live"
        }
        let id = record.id.value, owner = record.beaconOwner.value
        let body = ByteBuffer(bytes: bytes)
        try await run("storing a session") {
            _ = try await self.client.query(
                """
                INSERT INTO seam_sessions (id, record, kind, beacon_owner, expires_at, created_at, live_version)
                VALUES (\(id), \(body), \(kind), \(owner), \(expiry), \(now), 0)
                ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record, expires_at = EXCLUDED.expires_at, live_version = 0
                """, logger: self.logger)
        }
        counted.withLockedValue { if let known = $0 { $0 = (known.count + 1, known.at) } }
        return expiry
    }

    package func load(
        _ id: SessionID, now: Date, readAbove: Int64?, keptAlive: Bool
    ) async throws(SessionStoreError) -> StoredLookup {
        guard let (expiry, bytes, version) = try await extend(id, now: now, keptAlive: keptAlive, readAbove: readAbove)
        else {
            return try await removeExpired(id) ? .expired : .notFound
        }
        guard let bytes else { return .found(StoredSession(record: nil, version: version, expiresAt: expiry)) }
        do {
            let record = try SessionRecord(decoding: bytes.readableBytesView)
            return .found(StoredSession(record: record, version: version, expiresAt: expiry))
        } catch .earlierRelease {
            // Written by the previous release in a form this one cannot take up: lost, as in a restart.
            return .notFound
        } catch {
            throw .unavailable(
                reason: "session \(id) is stored in a form this Seam cannot read: \(PostgresErrorText.plain(error))")
        }
    }

    package func replaceLive(_ record: SessionRecord, version: Int64) async throws(SessionStoreError) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try record.encoded()
        } catch {
            throw .unavailable(reason: "the session could not be written: \(PostgresErrorText.plain(error))")
        }
        let key = record.id.value, body = ByteBuffer(bytes: bytes), next = Int(version) + 1, expected = Int(version)
        // Lands only on the version this state was based on: of two replicas serving the
        // session at once, one writes; the other finds itself superseded.
        return try await run("writing a live session's state") { () async throws -> Bool in
            var written = false
            let rows = try await self.client.query(
                """
                UPDATE seam_sessions SET record = \(body), live_version = \(next)
                WHERE id = \(key) AND live_version = \(expected)
                RETURNING 1::bigint
                """, logger: self.logger)
            for try await _ in rows.decode(Int.self) { written = true }
            return written
        }
    }

    /// One statement for all of them: a break opens and ends for every viewer of a channel
    /// within one reload interval, and a transaction per viewer was most of what PostgreSQL and
    /// the replicas' connections spent on live sessions (BENCHMARKS.md, PostgreSQL ×2).
    ///
    /// The rows are locked in id order first (`locked`), as the activity write locks its own:
    /// two statements updating many rows each, locking them in whatever order their plans
    /// reach them, deadlocked (PostgreSQL then waits `deadlock_timeout`, 1 s, and fails one).
    package func replaceLive(_ records: [LiveRecordWrite]) async throws(SessionStoreError) -> Set<SessionID> {
        guard records.count > 1 else {
            guard let only = records.first else { return [] }
            return try await replaceLive(only.record, version: only.version) ? [only.record.id] : []
        }
        var keys: [String] = [], bodies: [ByteBuffer] = [], versions: [Int] = []
        var ids: [String: SessionID] = [:]
        for write in records {
            do {
                bodies.append(ByteBuffer(bytes: try write.record.encoded()))
            } catch {
                throw .unavailable(reason: "the session could not be written: \(PostgresErrorText.plain(error))")
            }
            keys.append(write.record.id.value)
            versions.append(Int(write.version))
            ids[write.record.id.value] = write.record.id
        }
        let (keyList, bodyList, versionList) = (keys, bodies, versions)
        let written = try await run("writing live sessions' state") { () async throws -> [String] in
            var written: [String] = []
            let rows = try await self.client.query(
                """
                WITH v AS (
                    SELECT * FROM unnest(\(keyList)::text[], \(bodyList)::bytea[], \(versionList)::bigint[])
                    AS v(id, record, expected)),
                locked AS (SELECT s.id FROM seam_sessions s JOIN v ON s.id = v.id ORDER BY s.id FOR UPDATE OF s)
                UPDATE seam_sessions AS s SET record = v.record, live_version = v.expected + 1
                FROM v, locked
                WHERE s.id = v.id AND s.id = locked.id AND s.live_version = v.expected
                RETURNING s.id
                """, logger: self.logger)
            for try await id in rows.decode(String.self) { written.append(id) }
            return written
        }
        return Set(written.compactMap { ids[$0] })
    }

    package func claimBeacons(
        _ events: [AdProgressEvent], breakNumber: Int, ad: Int,
        in id: SessionID
    ) async throws(SessionStoreError) -> [AdProgressEvent] {
        guard !events.isEmpty else { return [] }
        let names = events.map(\.rawValue)
        let key = id.value
        // One statement: only a session that still exists claims, in its owner's set, and the
        // primary key lets exactly one of any number of concurrent claims insert each event.
        let claimed = try await run("claiming beacons") { () async throws -> Set<String> in
            var claimed: Set<String> = []
            let rows = try await self.client.query(
                """
                INSERT INTO seam_beacon_claims (owner, break_number, ad, event)
                SELECT s.beacon_owner, \(breakNumber), \(ad), e.event
                FROM seam_sessions s, unnest(\(names)::text[]) AS e(event)
                WHERE s.id = \(key)
                ON CONFLICT DO NOTHING
                RETURNING event
                """, logger: self.logger)
            for try await name in rows.decode(String.self) { claimed.insert(name) }
            return claimed
        }
        return events.filter { claimed.contains($0.rawValue) }
    }

    package func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool {
        let owners = try await removeRows("deleting a session", where: id)
        return !owners.isEmpty
    }

    /// Removes the sessions expired at `now`, a batch at a time by the `expires_at` index, and
    /// names them (for session analytics). `SKIP LOCKED`: replicas sweeping together each remove,
    /// and name, different rows, so each end is reported once.
    @discardableResult
    package func expire(now: Date) async throws(SessionStoreError) -> [SessionID] {
        var removed: [SessionID] = []
        while true {
            let batch = sweepBatch
            let rows = try await run("sweeping expired sessions") { () async throws -> [(String, String)] in
                var rows: [(String, String)] = []
                let result = try await self.client.query(
                    """
                    DELETE FROM seam_sessions WHERE id IN (
                        SELECT id FROM seam_sessions WHERE expires_at < \(now)
                        ORDER BY expires_at LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                    RETURNING id, beacon_owner
                    """, logger: self.logger)
                for try await row in result.decode((String, String).self) { rows.append(row) }
                return rows
            }
            for (id, _) in rows {
                if let id = SessionID(id[...]) { removed.append(id) }
            }
            try await dropClaimSets(of: Set(rows.map(\.1)))
            if rows.count < batch { break }
        }
        if !removed.isEmpty { counted.withLockedValue { $0 = nil } }
        return removed
    }

    package func count() async throws(SessionStoreError) -> Int {
        try await run("counting sessions") { () async throws -> Int in
            var count = 0
            for try await value in try await self.client.query(
                "SELECT count(*)::bigint FROM seam_sessions", logger: self.logger
            ).decode(Int.self) {
                count = value
            }
            return count
        }
    }

    package func appendStory(
        _ entries: [SessionStoryEntry], to id: SessionID, keep: Int
    ) async throws(SessionStoreError) -> Bool {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
        } catch {
            throw .unavailable(reason: "the session's story could not be written: \(PostgresErrorText.plain(error))")
        }
        let key = id.value, kept = max(1, keep)
        // One statement: appended, then the oldest beyond `kept` dropped and counted.
        return try await run("writing a session's story") { () async throws -> Bool in
            var found = false
            let rows = try await self.client.query(
                """
                UPDATE seam_sessions SET
                    story = (
                        SELECT coalesce(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb)
                        FROM jsonb_array_elements(coalesce(story, '[]'::jsonb) || \(json)::jsonb)
                            WITH ORDINALITY AS t(e, i)
                        WHERE t.i > jsonb_array_length(coalesce(story, '[]'::jsonb) || \(json)::jsonb) - \(kept)),
                    story_dropped = story_dropped
                        + greatest(0, jsonb_array_length(coalesce(story, '[]'::jsonb) || \(json)::jsonb) - \(kept))
                WHERE id = \(key)
                RETURNING 1::bigint
                """, logger: self.logger)
            for try await _ in rows.decode(Int.self) { found = true }
            return found
        }
    }

    package func story(of id: SessionID) async throws(SessionStoreError) -> SessionStory? {
        let key = id.value
        let row = try await run("reading a session's story") { () async throws -> (String, Int)? in
            var row: (String, Int)?
            let rows = try await self.client.query(
                "SELECT story::text, story_dropped FROM seam_sessions WHERE id = \(key) AND story IS NOT NULL",
                logger: self.logger)
            for try await (text, dropped) in rows.decode((String, Int).self) { row = (text, dropped) }
            return row
        }
        guard let (text, dropped) = row else { return nil }
        do {
            return SessionStory(
                entries: try JSONDecoder().decode([SessionStoryEntry].self, from: Data(text.utf8)), dropped: dropped)
        } catch {
            throw .unavailable(
                reason:
                    "session \(id)'s story is stored in a form this Seam cannot read: \(PostgresErrorText.plain(error))"
            )
        }
    }

    // MARK: Queries

    /// Moves the session's expiry to `now` plus the time to live when it has not passed (or when
    /// this replica's requests kept it alive); its new expiry, its record when its `live_version`
    /// is above `readAbove` (nil: always), and that version. Nil when there is no live row.
    private func extend(
        _ id: SessionID, now: Date, keptAlive: Bool, readAbove: Int64?
    ) async throws(SessionStoreError) -> (Date, ByteBuffer?, Int64)? {
        let expiry = now.addingTimeInterval(ttl)
        let key = id.value, known = readAbove.map { Int($0) } ?? -1, aliveLocally = keptAlive
        return try await run("reading a session") { () async throws -> (Date, ByteBuffer?, Int64)? in
            var found: (Date, ByteBuffer?, Int64)?
            let rows = try await self.client.query(
                """
                UPDATE seam_sessions SET expires_at = \(expiry)
                WHERE id = \(key) AND (expires_at >= \(now) OR \(aliveLocally))
                RETURNING CASE WHEN live_version > \(known) THEN record END, live_version
                """, logger: self.logger)
            for try await (record, version) in rows.decode((ByteBuffer?, Int).self) {
                found = (expiry, record, Int64(version))
            }
            return found
        }
    }

    /// Removes the row of a session found expired; true when there was one (`.expired`).
    private func removeExpired(_ id: SessionID) async throws(SessionStoreError) -> Bool {
        !(try await removeRows("removing an expired session", where: id)).isEmpty
    }

    /// Deletes the row of `id`; the beacon owners of the rows removed.
    private func removeRows(_ what: String, where id: SessionID) async throws(SessionStoreError) -> Set<String> {
        let key = id.value
        let owners = try await run(what) { () async throws -> Set<String> in
            var owners: Set<String> = []
            let rows = try await self.client.query(
                "DELETE FROM seam_sessions WHERE id = \(key) RETURNING beacon_owner", logger: self.logger)
            for try await owner in rows.decode(String.self) { owners.insert(owner) }
            return owners
        }
        if !owners.isEmpty { counted.withLockedValue { $0 = nil } }
        try await dropClaimSets(of: owners)
        return owners
    }

    /// Drops the claim sets no session uses any more (a main with pips alive keeps its set).
    private func dropClaimSets(of owners: Set<String>) async throws(SessionStoreError) {
        guard !owners.isEmpty else { return }
        let list = Array(owners)
        try await run("dropping beacon claims") {
            _ = try await self.client.query(
                """
                DELETE FROM seam_beacon_claims c WHERE c.owner = ANY(\(list)::text[])
                AND NOT EXISTS (SELECT 1 FROM seam_sessions s WHERE s.beacon_owner = c.owner)
                """, logger: self.logger)
        }
    }

    /// The table's row count, read again when older than `cacheSeconds`.
    private func storedCount() async throws(SessionStoreError) -> Int {
        let now = monotonic()
        if let known = counted.withLockedValue({ $0 }),
            known.at.duration(to: now) < .milliseconds(Int64(settings.cacheSeconds * 1000))
        {
            return known.count
        }
        let count = try await count()
        counted.withLockedValue { $0 = (count, now) }
        return count
    }

    /// One `SELECT 1` within `store.postgresTimeoutSeconds`: `/readyz` says not ready while it fails.
    package func isReachable() async -> Bool {
        do {
            try await run("checking reachability") { _ = try await self.client.query("SELECT 1", logger: self.logger) }
            return true
        } catch {
            return false
        }
    }

    // MARK: Time-outs

    /// Runs one database operation within `store.postgresTimeoutSeconds`; any failure is the
    /// store being unavailable, said with what was being done.
    @discardableResult
    private func run<Value: Sendable>(
        _ what: String, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws(SessionStoreError) -> Value {
        do {
            // A request that comes before `run()` has migrated (the server and the store start
            // together) migrates first, with the startup allowance: idempotent, and serialized by
            // the advisory lock, so it waits for the startup migration rather than failing.
            if !migrated.withLockedValue({ $0 }) { try await migrate() }
            let value = try await withDeadline(
                what, seconds: settings.timeoutSeconds, limit: "store.postgresTimeoutSeconds", operation)
            metrics.query(what, ok: true)
            return value
        } catch let error as SessionStoreError {
            metrics.query(what, ok: false)
            throw error
        } catch {
            metrics.query(what, ok: false)
            throw .unavailable(reason: "PostgreSQL failed \(what): \(PostgresErrorText.plain(error))")
        }
    }

    /// The operation's result, or `SessionStoreError.unavailable` once `seconds` have passed. The
    /// caller is answered at the deadline without waiting for the operation to notice: it is
    /// cancelled (a pool waiting for a connection gives the request up) and left to finish.
    private func withDeadline<Value: Sendable>(
        _ what: String, seconds: Double, limit: String,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let waiter = NIOLockedValueBox<CheckedContinuation<Value, any Error>?>(nil)
        /// Resumes the caller once; false when it was already resumed.
        @Sendable func finish(_ result: Result<Value, any Error>) -> Bool {
            guard
                let continuation = waiter.withLockedValue({ waiter -> CheckedContinuation<Value, any Error>? in
                    defer { waiter = nil }
                    return waiter
                })
            else { return false }
            continuation.resume(with: result)
            return true
        }
        let tasks = NIOLockedValueBox<(work: Task<Void, Never>?, timer: Task<Void, Never>?)>((nil, nil))
        return try await withCheckedThrowingContinuation { continuation in
            waiter.withLockedValue { $0 = continuation }
            let work = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if finish(result) { tasks.withLockedValue { $0.timer?.cancel() } }
            }
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                guard !Task.isCancelled else { return }
                let late = SessionStoreError.unavailable(
                    reason:
                        "PostgreSQL did not answer within \(seconds) s (\(limit)) \(what); is it running and reachable at \(self.settings.host):\(self.settings.port)?"
                )
                if finish(.failure(late)) { work.cancel() }
            }
            tasks.withLockedValue { $0 = (work, timer) }
        }
    }
}

// MARK: Announced breaks

extension PostgresSessionStore: BreakAnnouncementSharing {
    package func saveAnnouncement(_ announcement: BreakAnnouncements.Announcement) async throws(SessionStoreError) {
        let parameters: String
        do {
            parameters = String(decoding: try JSONEncoder().encode(announcement.adParameters), as: UTF8.self)
        } catch {
            throw .unavailable(reason: "the break could not be written: \(PostgresErrorText.plain(error))")
        }
        let id = announcement.id, prefix = announcement.channelPrefix, start = announcement.start
        let duration = announcement.durationSeconds
        let retired = start.addingTimeInterval(-BreakAnnouncements.retentionSeconds - 86_400)
        try await run("writing an announced break") {
            _ = try await self.client.query(
                """
                INSERT INTO seam_break_announcements (id, channel_prefix, start_at, duration_seconds, ad_params)
                VALUES (\(id), \(prefix), \(start), \(duration), \(parameters))
                """, logger: self.logger)
            // Breaks long over go as new ones come (a day past their start at the latest).
            _ = try await self.client.query(
                "DELETE FROM seam_break_announcements WHERE start_at < \(retired)", logger: self.logger)
        }
    }

    package func deleteAnnouncement(_ id: String) async throws(SessionStoreError) -> Bool {
        try await run("cancelling an announced break") { () async throws -> Bool in
            var found = false
            let rows = try await self.client.query(
                "DELETE FROM seam_break_announcements WHERE id = \(id) RETURNING 1::bigint", logger: self.logger)
            for try await _ in rows.decode(Int.self) { found = true }
            return found
        }
    }

    package func announcements(
        endingAfter date: Date
    ) async throws(SessionStoreError) -> [BreakAnnouncements.Announcement] {
        try await run("reading announced breaks") { () async throws -> [BreakAnnouncements.Announcement] in
            var list: [BreakAnnouncements.Announcement] = []
            let rows = try await self.client.query(
                """
                SELECT id, channel_prefix, start_at, duration_seconds, ad_params FROM seam_break_announcements
                WHERE start_at + make_interval(secs => duration_seconds) > \(date)
                ORDER BY start_at LIMIT \(BreakAnnouncements.capacity)
                """, logger: self.logger)
            for try await (id, prefix, start, duration, parameters) in rows.decode(
                (String, String, Date, Double, String).self)
            {
                let decoded = (try? JSONDecoder().decode([String: String].self, from: Data(parameters.utf8))) ?? [:]
                list.append(
                    BreakAnnouncements.Announcement(
                        id: id, channelPrefix: prefix, start: start, durationSeconds: duration, adParameters: decoded))
            }
            return list
        }
    }
}

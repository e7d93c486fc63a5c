import Foundation
import MetricsTestKit
import NIOCore
import PostgresNIO
import Stitching
import Testing
@testable import SeamServer

/// The PostgreSQL store against a real database on loopback: the same contract the in-memory store
/// keeps (time to live, keep-alive, delete, sweep, places, claims), then what only a shared store
/// must do: two stores on one database serve, claim, delete and sweep as one.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
struct PostgresSessionStoreTests {
    typealias Memory = InMemorySessionStoreTests
    static let t0 = Memory.t0

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// Stores a session's record at `t0 + seconds` in `store`; the session.
    static func stored(
        in store: some SessionStore, at seconds: Double = 0, pipOf main: SessionID? = nil
    ) async throws -> SeamSession {
        let session = main.map { pip(of: $0) } ?? Memory.session()
        let reservation = try #require(try await store.reserve())
        #expect(try await store.insert(Memory.record(session), into: reservation, now: at(seconds)) != nil)
        return session
    }

    /// Stores a session through `replica`'s runtime (built there, then written) at `t0 + seconds`.
    static func stored(in replica: PostgresTestDatabase.Replica, at seconds: Double = 0) async throws -> SessionID {
        let session = Memory.session()
        let reservation = try #require(try await replica.store.reserve())
        #expect(
            try await replica.runtime.insert(session, inputs: Memory.inputs, into: reservation, now: at(seconds)) != nil
        )
        return session.id
    }

    static func pip(of main: SessionID) -> SeamSession {
        let id = Memory.ids.issue()
        guard case .vod(let vod) = Memory.session(id) else { return Memory.session(id) }
        return .vod(
            StitchedSession(
                id: id, contentURL: vod.contentURL, trackingMode: .server, multivariant: vod.multivariant,
                media: [:], gzipped: [:], tracking: vod.tracking, adSegments: [:], beacons: [:],
                createdAt: t0, mode: .stitched, interstitials: vod.interstitials, pipOf: main))
    }

    @Test("A stored VOD session comes back serving the same bytes, from another store on the same database")
    func servedByAnother() async throws {
        try await PostgresTestDatabase.withReplicas(2) { replicas in
            let session = try await Self.stored(in: replicas[0].store)
            guard case .found(.vod(let served)) = try await replicas[1].runtime.lookup(session.id, now: Self.at(1)),
                case .vod(let original) = session
            else {
                Issue.record("the second store did not find the session")
                return
            }
            #expect(served.multivariant == original.multivariant)
            #expect(served.tracking == original.tracking)
            #expect(try await replicas[1].store.count() == 1)
        }
    }

    @Test("Places: maxSessions counts the sessions every store on the database holds, and starts under way")
    func places() async throws {
        try await PostgresTestDatabase.withStores(2, maxSessions: 3) { stores in
            _ = try await Self.stored(in: stores[0])
            _ = try await Self.stored(in: stores[1])
            let third = try #require(try await stores[0].reserve())
            // Two stored and one start under way: the limit is reached for both stores.
            #expect(try await stores[0].reserve() == nil)
            await stores[0].release(third)
            let again = try #require(try await stores[0].reserve())
            #expect(
                try await stores[0].insert(Memory.record(), into: again, now: Self.at(0)) != nil)
            #expect(try await stores[1].reserve() == nil)
            #expect(try await stores[1].count() == 3)
        }
    }

    @Test("Beacon claims: each event of an ad once, per (break, ad); a session gone claims nothing")
    func claims() async throws {
        try await PostgresTestDatabase.withStores { stores in
            let store = stores[0]
            let id = try await Self.stored(in: store).id
            #expect(
                try await store.claimBeacons([.impression, .start], breakNumber: 0, ad: 0, in: id) == [
                    .impression, .start,
                ])
            #expect(
                try await store.claimBeacons([.start, .firstQuartile], breakNumber: 0, ad: 0, in: id) == [
                    .firstQuartile
                ])
            #expect(try await store.claimBeacons([.impression], breakNumber: 0, ad: 1, in: id) == [.impression])
            #expect(try await store.claimBeacons([.impression], breakNumber: 1, ad: 0, in: id) == [.impression])
            #expect(try await store.delete(id))
            #expect(try await store.claimBeacons([.complete], breakNumber: 0, ad: 0, in: id) == [])
            #expect(
                try await PostgresTestDatabase.integers("SELECT count(*)::bigint FROM seam_beacon_claims", on: store)
                    == [0])
        }
    }

    @Test("Two replicas claiming the same events at once: each event fires once in all")
    func concurrentClaimsAcrossStores() async throws {
        try await PostgresTestDatabase.withStores(2) { stores in
            let id = try await Self.stored(in: stores[0]).id
            let events: [AdProgressEvent] = [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete]
            let fired = try await withThrowingTaskGroup(of: [AdProgressEvent].self) { group in
                for attempt in 0..<40 {
                    group.addTask { try await stores[attempt % 2].claimBeacons(events, breakNumber: 2, ad: 1, in: id) }
                }
                var all: [AdProgressEvent] = []
                for try await claimed in group { all += claimed }
                return all
            }
            #expect(fired.sorted { $0.rawValue < $1.rawValue } == events.sorted { $0.rawValue < $1.rawValue })
        }
    }

    @Test("A picture-in-picture session claims in its main's set; the set outlives the main while the pip lives")
    func pipClaims() async throws {
        try await PostgresTestDatabase.withStores(2) { stores in
            let main = try await Self.stored(in: stores[0]).id
            let pip = try await Self.stored(in: stores[1], pipOf: main).id
            #expect(
                try await stores[1].claimBeacons([.impression, .start], breakNumber: 0, ad: 0, in: pip) == [
                    .impression, .start,
                ])
            #expect(
                try await stores[0].claimBeacons([.impression, .start, .complete], breakNumber: 0, ad: 0, in: main) == [
                    .complete
                ])
            #expect(try await stores[0].delete(main))
            #expect(
                try await stores[1].claimBeacons([.complete, .midpoint], breakNumber: 0, ad: 0, in: pip) == [.midpoint])
            #expect(try await stores[1].delete(pip))
            #expect(
                try await PostgresTestDatabase.integers(
                    "SELECT count(*)::bigint FROM seam_beacon_claims", on: stores[0]) == [0])
        }
    }

    @Test("Without notifications, a delete through one replica is gone through the other within cacheSeconds")
    func deleteSeenByAnotherWithoutNotifications() async throws {
        try await PostgresTestDatabase.withReplicas(2, cacheSeconds: 2, notifications: false) { replicas in
            let id = try await Self.stored(in: replicas[0])
            let other = replicas[1].runtime
            guard case .found = try await other.lookup(id, now: Self.at(1)) else { Issue.record("not found"); return }
            #expect(try await replicas[0].runtime.delete(id))
            // Within the cache time the replica that holds it may still serve it...
            guard case .found = try await other.lookup(id, now: Self.at(2)) else {
                Issue.record("map not used"); return
            }
            // ...and once it passes, it asks PostgreSQL and the session is gone.
            guard case .notFound = try await other.lookup(id, now: Self.at(3.5)) else {
                Issue.record("delete not seen"); return
            }
            #expect(try await other.keepAlive(id, now: Self.at(4)) == nil)
        }
    }

    @Test(
        "With notifications, a replica serves the sessions it holds without a query, long past cacheSeconds; a delete or a sweep elsewhere reaches it at once"
    )
    func notifiedDeletes() async throws {
        let metrics = [TestMetrics(), TestMetrics()]
        try await PostgresTestDatabase.withReplicas(2, cacheSeconds: 2, metrics: metrics) { replicas in
            try await PostgresTestDatabase.untilListening(replicas)
            let stores = replicas.map(\.store), other = replicas[1].runtime
            let deleted = try await Self.stored(in: replicas[0])
            let swept = try await Self.stored(in: replicas[0])
            for id in [deleted, swept] {
                guard case .found = try await other.lookup(id, now: Self.at(1)) else {
                    Issue.record("not found"); return
                }
            }
            // Reloads every 6 s for a minute of the session's time: all from the cache.
            let reads = { Self.count(metrics[1], operation: "reading a session") }
            let before = reads()
            for seconds in stride(from: 7.0, through: 55, by: 6) {
                for id in [deleted, swept] {
                    guard case .found = try await other.lookup(id, now: Self.at(seconds)) else {
                        Issue.record("lost at \(seconds) s"); return
                    }
                }
            }
            #expect(reads() == before, "reloads of held sessions read PostgreSQL")
            // A delete through the other replica, and a sweep (an operator's expiry) of the other session.
            #expect(try await replicas[0].runtime.delete(deleted))
            _ = try await PostgresTestDatabase.integers(
                "WITH d AS (DELETE FROM seam_sessions WHERE id = '\(swept.value)' RETURNING 1) SELECT count(*)::bigint FROM d",
                on: stores[0])
            for id in [deleted, swept] {
                // A hang guard: the notification usually lands within milliseconds.
                let deadline = ContinuousClock.now.advanced(by: .seconds(30))
                var outcome = try await other.lookup(id, now: Self.at(56))
                while case .found = outcome, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                    outcome = try await other.lookup(id, now: Self.at(56))
                }
                guard case .notFound = outcome else {
                    Issue.record("\(id == deleted ? "delete" : "sweep") not heard: still \(outcome)"); return
                }
            }
        }
    }

    @Test("Replicas sharing the store count one another by their heartbeats, each itself and the other")
    func replicasCountOneAnother() async throws {
        try await PostgresTestDatabase.withReplicas(2, cacheSeconds: 0.5) { replicas in
            try await PostgresTestDatabase.untilListening(replicas)
            // Each replica's count as soon as it has heard the other: heartbeats come every half
            // second, whenever a busy machine lets them (a hang guard, not a budget; a count is
            // kept once seen, so a late heartbeat afterwards cannot undo what was heard).
            var heard = replicas.map { _ in 1 }
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while heard.contains(where: { $0 < 2 }), ContinuousClock.now < deadline {
                for (index, replica) in replicas.enumerated() {
                    heard[index] = max(heard[index], replica.store.census.count)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(heard == [2, 2])
        }
    }

    @Test(
        "A replica heard for the first time is answered with a heartbeat at once by every replica there, so it counts them within a round trip"
    )
    func aNewcomerIsAnsweredAtOnce() async throws {
        // Heartbeats every 5 s: the answers (numbered 0) are what this test hears, not the beats.
        try await PostgresTestDatabase.withReplicas(2, cacheSeconds: 30) { replicas in
            try await PostgresTestDatabase.untilListening(replicas)
            // Until the two count each other (a hang guard): their own answers to each other
            // are over before this test listens.
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while replicas.contains(where: { $0.store.census.count < 2 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let settings = replicas[0].store.settings
            let channel = "seam_sessions_" + (try #require(settings.schema))
            let connection = try await PostgresConnection.connect(
                configuration: try settings.connectionConfiguration(applicationName: "seam-test-newcomer"),
                id: 1, logger: PostgresTestDatabase.logger)
            defer { Task { try? await connection.close() } }
            var answered: Set<String> = []
            try await connection.listen(on: channel) { notifications in
                // The newcomer's first heartbeat, sent once this test hears the channel.
                try await replicas[0].store.client.query(
                    "SELECT pg_notify(\(channel), \("seam-test-newcomer heartbeat 1"))::text",
                    logger: PostgresTestDatabase.logger)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // A hang guard, not a budget: a replica that never answers ends the wait here.
                    group.addTask {
                        try await Task.sleep(for: .seconds(60))
                        try await replicas[0].store.client.query(
                            "SELECT pg_notify(\(channel), \("seam-test-newcomer gave up waiting"))::text",
                            logger: PostgresTestDatabase.logger)
                    }
                    defer { group.cancelAll() }
                    // Notifications come in commit order: the replicas' answers to each other (sent
                    // as each first heard the other, before this test's heartbeat) come before it
                    // and are not counted; only those after it answer this newcomer.
                    var heardMine = false
                    for try await notification in notifications {
                        let parts = notification.payload.split(separator: " ")
                        if parts.count == 3, parts[0] == "seam-test-newcomer" { heardMine = true }
                        if heardMine, parts.count == 3, parts[1] == "heartbeat", parts[2] == "0" {
                            answered.insert(String(parts[0]))
                        }
                        if answered.count == 2 || parts.count == 4 { break }
                    }
                }
            }
            #expect(answered.count == 2, "answered by \(answered)")
            #expect(!answered.contains("seam-test-newcomer"))
        }
    }

    @Test(
        "The activity a replica serves from its cache reaches expires_at in PostgreSQL, so another replica's sweep keeps the session"
    )
    func activityWritten() async throws {
        let metrics = [TestMetrics(), TestMetrics()]
        try await PostgresTestDatabase.withReplicas(2, ttlSeconds: 60, cacheSeconds: 0.5, metrics: metrics) {
            replicas in
            try await PostgresTestDatabase.untilListening(replicas)
            let stores = replicas.map(\.store)
            let id = try await Self.stored(in: replicas[0])
            guard case .found = try await replicas[1].runtime.lookup(id, now: Self.at(1)) else {
                Issue.record("not found"); return
            }
            let readsBefore = Self.count(metrics[1], operation: "reading a session")
            guard case .found = try await replicas[1].runtime.lookup(id, now: Self.at(50)) else {
                Issue.record("not found at 50 s"); return
            }
            // Served from the cache unless the heartbeat was late (a loaded machine): then read.
            let servedFromCache = Self.count(metrics[1], operation: "reading a session") == readsBefore
            // The activity writer (every cacheSeconds) moves expires_at to 50 + 60 s, and a tenth
            // of the TTL ahead (`SessionMap.expiryLead`: 6 s). The wait is a hang guard, not a
            // budget: under stress-suite a write each 0.5 s once took over 5 s to land (the loop
            // ends as soon as it has).
            let expected = Int(Self.at(116).timeIntervalSince1970)
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            var stored: [Int] = []
            repeat {
                try await Task.sleep(for: .milliseconds(50))
                stored = try await PostgresTestDatabase.integers(
                    "SELECT extract(epoch FROM expires_at)::bigint FROM seam_sessions WHERE id = '\(id.value)'",
                    on: stores[0])
            } while stored != [expected] && ContinuousClock.now < deadline
            #expect(stored == [expected])
            // (Sent by the activity writer; on a loaded machine its answer may come after the time-out.
            // The row can show the write before the writer hears PostgreSQL's answer and counts it.)
            func written() -> Int64 {
                Self.count(metrics[1], operation: "writing sessions' activity")
                    + Self.count(metrics[1], operation: "writing sessions' activity", outcome: "unavailable")
            }
            let counted = ContinuousClock.now.advanced(by: .seconds(60))
            while written() < 1, ContinuousClock.now < counted { try await Task.sleep(for: .milliseconds(50)) }
            if servedFromCache { #expect(written() >= 1) }
            // Swept at 100 s through the replica that did not serve it: kept.
            #expect(try await replicas[0].runtime.sweep(now: Self.at(100)).isEmpty)
            guard case .found = try await replicas[0].runtime.lookup(id, now: Self.at(101)) else {
                Issue.record("swept"); return
            }
        }
    }

    /// Statements the store sent for `operation` and PostgreSQL answered.
    static func count(_ metrics: TestMetrics, operation: String, outcome: String = "ok") -> Int64 {
        metrics.counters(label: StoreMetrics.queriesName, dimensions: [("operation", operation), ("outcome", outcome)])
            .reduce(0) { $0 + $1.totalValue }
    }

    @Test(
        "Over HTTP, two replicas on one database: created through one, played, kept alive and claimed through the other; deleted through one, 410 through the other"
    )
    func twoReplicasOverHTTP() async throws {
        try await PostgresTestDatabase.withStores(2) { stores in
            let harness = SessionRouteHarness()
            let id = try await harness.test(store: stores[0]) { client in
                try #require(
                    try await client.call("/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL])
                        .json["sessionId"] as? String)
            }
            try await harness.test(store: stores[1]) { client in
                let master = try await client.call("/v1/sessions/\(id)/master.m3u8")
                #expect(master.status == 200, "\(master.body)")
                #expect(master.body.hasPrefix("#EXTM3U"))
                #expect(try await client.call("/v1/sessions/\(id)/media/v0.m3u8").status == 200)
                #expect(try await client.call("/v1/sessions/\(id)/keepalive", method: .post).status == 200)
                // The pre-roll's first segment fires its impression once, whichever replica serves it.
                #expect(try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts").status == 302)
            }
            try await harness.test(store: stores[0]) { client in
                let again = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts")
                #expect(again.status == 302)
                let deleted = try await client.call("/v1/sessions/\(id)", method: .delete)
                #expect(deleted.status == 204)
            }
            try await harness.test(store: stores[1]) { client in
                let gone = try await client.call("/v1/sessions/\(id)/master.m3u8")
                #expect(gone.status == 410)
                #expect(gone.errorCode == "SESSION_EXPIRED")
            }
            let fired = harness.beacons.urls
            #expect(!fired.isEmpty)
            #expect(fired.count == Set(fired).count, "a beacon fired twice: \(fired)")
        }
    }

    /// What ended the wait is the store's deadline (the message says so); the time limit guards the
    /// hang a store without it would be.
    @Test(
        "A database lost at runtime: requests answer 503 STORE_UNAVAILABLE at the time-out, not a hang",
        .timeLimit(.minutes(5)))
    func lostAtRuntime() async throws {
        var settings = try PostgresStoreSettings(url: "postgres://seam@127.0.0.1:1/seam")
        settings.timeoutSeconds = 0.5
        let store = try PostgresSessionStore(
            settings: settings, ttlSeconds: 60, maxSessions: 10, logger: PostgresTestDatabase.logger)
        // As if the database had been there at startup and was lost since.
        store.assumeMigrated()
        let running = Task { await store.client.run() }
        defer { running.cancel() }
        let harness = SessionRouteHarness()
        try await harness.test(store: store) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL])
            #expect(created.status == 503)
            #expect(created.errorCode == "STORE_UNAVAILABLE")
            let played = try await client.call("/v1/sessions/\(harness.sessionIDs.issue().value)/master.m3u8")
            #expect(played.status == 503)
            #expect(
                played.errorMessage?.contains("PostgreSQL did not answer within 0.5 s (store.postgresTimeoutSeconds)")
                    == true, "\(played.body)")
        }
    }

    @Test(
        "The sweep removes expired sessions in batches by the index and names each once, across two sweeping replicas")
    func sweep() async throws {
        try await PostgresTestDatabase.withStores(2, sweepBatch: 3) { stores in
            var expiring: Set<SessionID> = []
            for index in 0..<8 { expiring.insert(try await Self.stored(in: stores[index % 2], at: 0).id) }
            let staying = try await Self.stored(in: stores[0], at: 50).id
            _ = try await stores[0].claimBeacons([.impression], breakNumber: 0, ad: 0, in: expiring.first!)
            async let first = stores[0].expire(now: Self.at(61))
            async let second = stores[1].expire(now: Self.at(61))
            let (a, b) = try await (first, second)
            #expect(Set(a).isDisjoint(with: Set(b)))
            #expect(Set(a + b) == expiring)
            #expect(a.count + b.count == 8)
            #expect(try await stores[1].count() == 1)
            guard case .found = try await stores[1].load(staying, now: Self.at(62), readAbove: nil, keptAlive: false)
            else {
                Issue.record("the live session was swept"); return
            }
            #expect(
                try await PostgresTestDatabase.integers(
                    "SELECT count(*)::bigint FROM seam_beacon_claims", on: stores[0]) == [0])
            // Through the protocol (the sweeper's path), the names come too.
            #expect(try await stores[0].expire(now: Self.at(200)) == [staying])
        }
    }

    @Test(
        "Live records written together lock their rows in id order: a transaction holding the lower row, then taking the higher one, waits for no deadlock"
    )
    func liveBatchLocksInIdOrder() async throws {
        try await PostgresTestDatabase.withStores { stores in
            let store = stores[0]
            let live = SessionRecord.Live(
                channelURL: "https://origin.test/live.m3u8",
                session: .init(
                    timeline: LiveTimeline(configuration: .init(targetDuration: 6)), decisions: [], served: []))
            // The higher id stored first and listed first: the table's order and the batch's both
            // reach it before the lower one.
            let records = (0..<2).map { _ -> SessionRecord in
                var record = Memory.record()
                record.kind = .live(live)
                return record
            }.sorted { $0.id.value > $1.id.value }
            for record in records {
                let reservation = try #require(try await store.reserve())
                #expect(try await store.insert(record, into: reservation, now: Self.at(0)) != nil)
            }
            let (higher, lower) = (records[0].id.value, records[1].id.value)
            let logger = PostgresTestDatabase.logger
            let batch = try await store.client.withTransaction(logger: logger) { connection in
                var holder = -1
                for try await pid in try await connection.query("SELECT pg_backend_pid()::bigint", logger: logger)
                    .decode(Int.self)
                {
                    holder = pid
                }
                try await connection.query("SELECT 1 FROM seam_sessions WHERE id = \(lower) FOR UPDATE", logger: logger)
                let batch = Task { try await store.replaceLive(records.map { LiveRecordWrite($0, version: 0) }) }
                // The batch waits for the lower row, blocked by this transaction and nothing else
                // (other tests share the database; 60 s: a hang guard)...
                let blocked = holder
                let waiting = await liveEventually(timeout: .seconds(60)) {
                    let count = try? await PostgresTestDatabase.integers(
                        "SELECT count(*)::bigint FROM pg_stat_activity WHERE \(blocked) = ANY(pg_blocking_pids(pid))",
                        on: store)
                    return (count?.first ?? 0) > 0
                }
                #expect(waiting, "the batch never waited for the row this transaction holds")
                // ...holding nothing: the higher row is free to take. Locked in the batch's own
                // order it would hold it, and PostgreSQL would fail one of the two as a deadlock.
                try await connection.query(
                    "SELECT 1 FROM seam_sessions WHERE id = \(higher) FOR UPDATE", logger: logger)
                return batch
            }
            #expect(try await batch.value == Set(records.map(\.id)))
        }
    }

    @Test("The sweep's query uses the expires_at index, not a scan of the table")
    func sweepUsesIndex() async throws {
        try await PostgresTestDatabase.withStores { stores in
            let store = stores[0]
            try await store.client.query("SET enable_seqscan = off", logger: PostgresTestDatabase.logger)
            var plan = ""
            let rows = try await store.client.query(
                "EXPLAIN SELECT id FROM seam_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 500",
                logger: PostgresTestDatabase.logger)
            for try await line in rows.decode(String.self) { plan += line + "\n" }
            #expect(plan.contains("seam_sessions_expires_at"), "\(plan)")
        }
    }

    @Test("Migration: five replicas starting together apply it once; starting again changes nothing")
    func migration() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let stores = try (0..<5).map { _ in
            try PostgresSessionStore(
                settings: try PostgresTestDatabase.settings(schema: schema), ttlSeconds: 60, maxSessions: 10,
                logger: PostgresTestDatabase.logger)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { await store.client.run() } }
            defer { group.cancelAll() }
            let applied = try await withThrowingTaskGroup(of: [Int].self) { migrations in
                for store in stores { migrations.addTask { try await store.migrate() } }
                var all: [[Int]] = []
                for try await versions in migrations { all.append(versions) }
                return all
            }
            #expect(applied.filter { !$0.isEmpty } == [[1, 2, 3, 4, 5]])
            #expect(try await stores[0].migrate() == [])
            #expect(
                try await PostgresTestDatabase.integers(
                    "SELECT version::bigint FROM seam_schema_version ORDER BY version", on: stores[0]) == [
                        1, 2, 3, 4, 5,
                    ])
            try await PostgresTestDatabase.drop(schema, on: stores[0])
        }
    }

    @Test("A database migrated by a newer Seam is refused, saying so")
    func newerSchema() async throws {
        try await PostgresTestDatabase.withStores { stores in
            try await stores[0].client.query(
                "INSERT INTO seam_schema_version (version) VALUES (99)", logger: PostgresTestDatabase.logger)
            await #expect(
                throws: PostgresSchema.MigrationError.newerSchema(found: 99, known: PostgresSchema.currentVersion)
            ) {
                try await stores[0].migrate()
            }
        }
    }

    @Test(
        "TLS with a private CA: sslmode=verify-full (and verify-ca) with sslrootcert connect over TLS; without the CA the server's certificate is refused"
    )
    func privateCA() async throws {
        guard let ca = ProcessInfo.processInfo.environment["SEAM_TEST_POSTGRES_CA"], !ca.isEmpty,
            let base = PostgresTestDatabase.url
        else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record(
                    "SEAM_TEST_POSTGRES_CA is not set: .ci/run exports the CA of scripts/test-postgres.sh's cluster")
            } else {
                print(
                    "PostgresSessionStoreTests.privateCA skipped: SEAM_TEST_POSTGRES_CA is not set (scripts/test-postgres.sh writes DIR/tls/ca.pem)"
                )
            }
            return
        }
        for mode in ["verify-full", "verify-ca"] {
            var settings = try PostgresStoreSettings(url: base + "?sslmode=\(mode)&sslrootcert=\(ca)")
            // Hang guards, not budgets: a stress run once took more than 10 s to connect over TLS
            // and migrate here while every other test ran beside it.
            settings.timeoutSeconds = 30
            let store = try PostgresSessionStore(
                settings: settings, ttlSeconds: 60, maxSessions: 10, logger: PostgresTestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) {
                (group: inout ThrowingTaskGroup<Void, any Error>) async throws -> Void in
                group.addTask { await store.client.run() }
                defer { group.cancelAll() }
                // Within a deadline first: a refused certificate fails here, not in a pool wait.
                try await store.migrate(within: 60)
                let encrypted = try await PostgresTestDatabase.integers(
                    "SELECT (ssl)::int::bigint FROM pg_stat_ssl WHERE pid = pg_backend_pid()", on: store)
                #expect(encrypted == [1], "\(mode): the connection is not encrypted")
            }
        }
        // The system's roots do not know the test CA: nothing is sent over the connection, and the
        // store answers as unavailable within its time-out (never an unverified connection).
        var untrusted = try PostgresStoreSettings(url: base + "?sslmode=require")
        untrusted.timeoutSeconds = 2
        let store = try PostgresSessionStore(
            settings: untrusted, ttlSeconds: 60, maxSessions: 10, logger: PostgresTestDatabase.logger)
        try await withThrowingTaskGroup(of: Void.self) {
            (group: inout ThrowingTaskGroup<Void, any Error>) async throws -> Void in
            group.addTask { await store.client.run() }
            defer { group.cancelAll() }
            store.assumeMigrated()
            await #expect(throws: SessionStoreError.self) { _ = try await store.count() }
        }
    }

    @Test(
        "A database of an earlier schema (version 1) with a session in it: migrated to the current version at startup, the session still served"
    )
    func upgradeFromVersionOne() async throws {
        try await PostgresTestDatabase.withStores { stores in
            let store = stores[0]
            let session = try await Self.stored(in: store)
            // Back to what an earlier Seam left: no notifying trigger, no live_version, no story, no
            // announced breaks, version 1 recorded.
            try await store.client.query(
                "DROP TRIGGER seam_sessions_notify ON seam_sessions", logger: PostgresTestDatabase.logger)
            try await store.client.query("DROP FUNCTION seam_sessions_notify()", logger: PostgresTestDatabase.logger)
            try await store.client.query(
                "ALTER TABLE seam_sessions DROP COLUMN live_version", logger: PostgresTestDatabase.logger)
            try await store.client.query(
                "ALTER TABLE seam_sessions DROP COLUMN story, DROP COLUMN story_dropped",
                logger: PostgresTestDatabase.logger)
            try await store.client.query("DROP TABLE seam_break_announcements", logger: PostgresTestDatabase.logger)
            try await store.client.query(
                "DELETE FROM seam_schema_version WHERE version > 1", logger: PostgresTestDatabase.logger)
            #expect(try await store.migrate() == [2, 3, 4, 5])
            guard
                case .found(let found) = try await store.load(
                    session.id, now: Self.at(1), readAbove: nil, keptAlive: false),
                let record = found.record
            else {
                Issue.record("the session stored before the upgrade is not served after it")
                return
            }
            #expect(record.id == session.id)
        }
    }
}

/// The store when PostgreSQL cannot be reached: an error that names the setting at startup, a
/// `SessionStoreError` (503) within the time-out at runtime, never a hang. No database needed.
@Suite struct PostgresStoreFailureTests {
    /// A loopback port nothing listens on (tcpmux: refused at once).
    static func closedPort() throws -> Int { 1 }

    /// What ended each wait is the store's own deadline: the error says it (not a stopwatch, which a
    /// busy machine defeats: the first read once took 23.7 s of wall time at the suite's start,
    /// beside CI's checks, its half-second timer held up that long). A store without the deadline
    /// would wait for the pool's connection for good: the time limit is that hang's guard.
    @Test(
        "Unreachable at runtime: every operation fails at its time-out as unavailable, saying so",
        .timeLimit(.minutes(5)))
    func unreachable() async throws {
        let port = try Self.closedPort()
        var settings = try PostgresStoreSettings(url: "postgres://seam@127.0.0.1:\(port)/seam")
        settings.timeoutSeconds = 0.5
        let store = try PostgresSessionStore(
            settings: settings, ttlSeconds: 60, maxSessions: 10, logger: PostgresTestDatabase.logger)
        // As if the database had been there at startup and was lost since.
        store.assumeMigrated()
        let running = Task { await store.client.run() }
        defer { running.cancel() }
        let deadline = "PostgreSQL did not answer within 0.5 s (store.postgresTimeoutSeconds)"
        do {
            _ = try await store.load(
                InMemorySessionStoreTests.ids.issue(), now: Date(), readAbove: nil, keptAlive: false)
            Issue.record("an unreachable database answered")
        } catch {
            #expect("\(error)".hasPrefix("the session store is unavailable: \(deadline) reading a session"), "\(error)")
            #expect("\(error)".hasSuffix("is it running and reachable at 127.0.0.1:\(port)?"), "\(error)")
        }
        do {
            try await store.touch([SessionActivity(id: InMemorySessionStoreTests.ids.issue(), expiresAt: Date())])
            Issue.record("an unreachable database took the activity")
        } catch {
            #expect("\(error)".contains(deadline), "\(error)")
        }
        // /readyz asks the store: not reachable, so the replica says it is not ready.
        #expect(await store.isReachable() == false)
    }

    @Test("Unreachable at startup: run() ends with an error naming store.postgresURL, the password hidden")
    func startup() async throws {
        let port = try Self.closedPort()
        var settings = try PostgresStoreSettings(url: "postgres://seam:hunter2@127.0.0.1:\(port)/seam")
        settings.timeoutSeconds = 0.5
        let store = try PostgresSessionStore(
            settings: settings, ttlSeconds: 60, maxSessions: 10, logger: PostgresTestDatabase.logger)
        do {
            try await store.run()
            Issue.record("the store started without a database")
        } catch {
            #expect(
                "\(error)".hasPrefix(
                    "store.postgresURL: the session store cannot start on postgres://seam:***@127.0.0.1:\(port)/seam"),
                "\(error)")
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    @Test(
        "Malformed URLs are configuration errors naming store.postgresURL",
        arguments: [
            "mysql://seam@db/seam", "postgres:///seam", "postgres://db.internal/seam",
            "postgres://seam@db/seam?sslmode=sometimes",
            "postgres://seam@db/seam?schema=Bad-Name", "postgres://seam@db/seam?pool=3", "not a url",
            "postgres://seam@db/seam?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
            "postgres://seam@db/seam?sslrootcert=/etc/hostname",
            "postgres://seam@db/seam?sslmode=verify-full&sslrootcert=",
        ])
    func malformed(_ url: String) {
        #expect {
            _ = try PostgresStoreSettings(url: url)
        } throws: { error in
            (error as? ConfigurationError)?.key == "store.postgresURL"
        }
    }

    @Test("A URL's parts: host, port, user, password, database, TLS and schema")
    func parsed() throws {
        let settings = try PostgresStoreSettings(
            url: "postgresql://seam:p%40ss@db.internal:6432/sessions?sslmode=require&schema=seam")
        #expect(
            settings
                == PostgresStoreSettings(
                    host: "db.internal", port: 6432, username: "seam", password: "p@ss", database: "sessions",
                    tls: .require, schema: "seam"))
        #expect(settings.redacted == "postgres://seam:***@db.internal:6432/sessions")
        #expect(try PostgresStoreSettings(url: "postgres://seam@127.0.0.1/seam").port == 5432)
    }

    @Test("The configuration: store.* keys load from the environment and are checked")
    func configuration() throws {
        let loaded = try ConfigurationLoader(environment: [
            "SEAM_STORE_POSTGRES_URL": "postgres://seam@db/seam", "SEAM_STORE_CACHE_SECONDS": "1.5",
        ]).load(yaml: nil)
        #expect(loaded.store.postgresURL == "postgres://seam@db/seam")
        #expect(loaded.store.cacheSeconds == 1.5)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: ["SEAM_STORE_POSTGRES_URL": "postgres://db/seam"]).load(yaml: nil)
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: ["SEAM_STORE_POSTGRES_POOL_SIZE": "0"]).load(yaml: nil)
        }
        #expect(SeamConfiguration().store.postgresURL.isEmpty)
    }
}

import Foundation
import CoreMetrics
import Logging
import PostgresNIO
import Testing
@testable import SeamServer

/// The PostgreSQL the store tests use: `SEAM_TEST_POSTGRES_URL` (`.ci/run` starts a throwaway
/// cluster with `scripts/test-postgres.sh` and exports it). Unset, the tests are skipped and say
/// so, except under `CI=true`, where a missing database is a failure.
///
/// Each test works in a schema of its own (dropped at the end), so tests run in parallel without
/// seeing one another's sessions.
enum PostgresTestDatabase {
    static let url = ProcessInfo.processInfo.environment["SEAM_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var available: Bool { url != nil }
    static let skipReason: Comment =
        "SEAM_TEST_POSTGRES_URL is not set: start a cluster with scripts/test-postgres.sh start DIR and export its URL"

    static var logger: Logger {
        var logger = Logger(label: "seam.store.test")
        logger.logLevel = .error
        return logger
    }

    /// The settings for a fresh schema of this database. The query time-out is a hang guard, not
    /// a budget: on a loaded 2-core machine 40 concurrent claims through a pool of 4 took longer
    /// than the production default's 5 s (a stress run failed on it). Tests of the time-out set
    /// their own.
    static func settings(
        schema: String = freshSchema(), cacheSeconds: Double = 0, notifications: Bool = true,
        timeoutSeconds: Double = 60
    ) throws -> PostgresStoreSettings {
        var settings = try PostgresStoreSettings(url: try #require(url))
        settings.schema = schema
        settings.cacheSeconds = cacheSeconds
        settings.notifications = notifications
        settings.timeoutSeconds = timeoutSeconds
        settings.poolSize = 4
        return settings
    }

    static func freshSchema() -> String {
        "seam_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    /// Runs `body` with `count` stores on one fresh schema (their pools running, the schema
    /// migrated), then drops the schema.
    static func withStores(
        _ count: Int = 1, ttlSeconds: Double = 60, maxSessions: Int = 100, cacheSeconds: Double = 0,
        notifications: Bool = true, sweepBatch: Int = 500, metrics: [any MetricsFactory]? = nil,
        _ body: @Sendable ([PostgresSessionStore]) async throws -> Void
    ) async throws {
        let schema = freshSchema()
        let stores = try (0..<count).map { index in
            try PostgresSessionStore(
                settings: try settings(schema: schema, cacheSeconds: cacheSeconds, notifications: notifications),
                ttlSeconds: ttlSeconds, maxSessions: maxSessions, logger: logger,
                metricsFactory: metrics?[index] ?? NOOPMetricsHandler.instance, sweepBatch: sweepBatch)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { await store.client.run() } }
            defer { group.cancelAll() }
            for store in stores { try await store.migrate() }
            do {
                try await body(stores)
            } catch {
                try? await drop(schema, on: stores[0])
                throw error
            }
            try await drop(schema, on: stores[0])
        }
    }

    /// A replica: its runtime (the map of sessions it built) over its store.
    struct Replica: Sendable {
        let store: PostgresSessionStore
        let runtime: SessionRuntime
    }

    /// Runs `body` with `count` replicas on one fresh schema (`withStores`), each runtime's upkeep
    /// running (with a cache: the notifications heard when `notifications`, the activity writer).
    static func withReplicas(
        _ count: Int = 1, ttlSeconds: Double = 60, cacheSeconds: Double = 0, notifications: Bool = true,
        metrics: [any MetricsFactory]? = nil, _ body: @Sendable ([Replica]) async throws -> Void
    ) async throws {
        try await withStores(
            count, ttlSeconds: ttlSeconds, cacheSeconds: cacheSeconds, notifications: notifications, metrics: metrics
        ) { stores in
            let replicas = stores.enumerated().map { index, store in
                Replica(
                    store: store,
                    runtime: SessionRuntime(
                        store: store, ttlSeconds: ttlSeconds, logger: logger,
                        metricsFactory: metrics?[index] ?? NOOPMetricsHandler.instance))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for replica in replicas { group.addTask { await replica.runtime.keepUp() } }
                defer { group.cancelAll() }
                try await body(replicas)
            }
        }
    }

    /// Waits (up to 10 s) until every replica hears the store's changes.
    static func untilListening(_ replicas: [Replica]) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !replicas.allSatisfy(\.runtime.map.isListening) {
            guard ContinuousClock.now < deadline else {
                Issue.record("the stores did not start hearing notifications within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Drops `schema`, waiting at most 30 s for each of its tables' locks: a drop held up longer fails
    /// the test naming what PostgreSQL's other sessions were doing, instead of waiting for good
    /// (a suite once never ended with every thread idle; docs/testing.md).
    static func drop(_ schema: String, on store: PostgresSessionStore) async throws {
        do {
            try await store.client.withTransaction(logger: logger) { connection in
                try await connection.query("SET LOCAL lock_timeout = '30s'", logger: logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: logger)
            }
        } catch {
            var sessions: [String] = []
            if let rows = try? await store.client.query(
                """
                SELECT concat_ws(' | ', application_name, state, wait_event_type, wait_event, left(query, 100))
                FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname IS NOT NULL
                """, logger: logger)
            {
                do {
                    for try await row in rows.decode(String.self) { sessions.append(row) }
                } catch {
                    sessions.append("(not read: \(error))")
                }
            }
            Issue.record(
                "DROP SCHEMA \(schema) failed (\(String(reflecting: error))); PostgreSQL's other sessions: \(sessions)")
            throw error
        }
    }

    /// Runs a query in the store's schema; the first column of each row as an integer.
    static func integers(_ sql: String, on store: PostgresSessionStore) async throws -> [Int] {
        var values: [Int] = []
        for try await value in try await store.client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(
            Int.self)
        {
            values.append(value)
        }
        return values
    }
}

/// Says whether the PostgreSQL tests ran: skipped with the reason, or a failure under CI.
@Suite struct PostgresTestDatabaseTests {
    @Test("The PostgreSQL store tests have a database (SEAM_TEST_POSTGRES_URL), or say why they are skipped")
    func configured() {
        guard !PostgresTestDatabase.available else { return }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(
                "CI=true but SEAM_TEST_POSTGRES_URL is not set: .ci/run must start PostgreSQL (scripts/test-postgres.sh)"
            )
        } else {
            print("PostgreSQL store tests skipped: \(PostgresTestDatabase.skipReason)")
        }
    }
}

import Logging
import PostgresNIO

/// Seam's tables in PostgreSQL, as numbered migrations applied at startup.
///
/// Every replica migrates when it starts, inside one transaction that first takes a
/// transaction-scoped advisory lock for its schema: two replicas starting together run one after
/// the other, the second finds the work done. `seam_schema_version` lists the migrations applied; a database
/// migrated by a newer Seam (a version this one does not know) is refused rather than written
/// with the wrong shape.
package enum PostgresSchema {
    /// The advisory lock every replica's migration takes ("SEAM" in ASCII), with the schema's
    /// hash as its second key.
    static let lockKey: Int32 = 0x5345_414D

    /// One step: its number and its statements, run in order.
    struct Migration: Sendable {
        var version: Int
        var statements: [String]
    }

    /// The migrations, oldest first. Never edit one that has shipped: add the next.
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            statements: [
                // One row a session: the encoded `SessionRecord`, and the columns queries need without
                // decoding it. `expires_at` is indexed so the sweep never scans the table.
                """
                CREATE TABLE seam_sessions (
                    id text PRIMARY KEY,
                    record bytea NOT NULL,
                    kind text NOT NULL,
                    beacon_owner text NOT NULL,
                    expires_at timestamptz NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX seam_sessions_expires_at ON seam_sessions (expires_at)",
                // A main and its picture-in-picture sessions share a claim set: the set goes when the
                // last session with that owner goes.
                "CREATE INDEX seam_sessions_beacon_owner ON seam_sessions (beacon_owner)",
                // One row per server-side beacon event fired: the primary key makes a claim atomic
                // across replicas (INSERT ... ON CONFLICT DO NOTHING RETURNING).
                """
                CREATE TABLE seam_beacon_claims (
                    owner text NOT NULL,
                    break_number bigint NOT NULL,
                    ad bigint NOT NULL,
                    event text NOT NULL,
                    PRIMARY KEY (owner, break_number, ad, event)
                )
                """,
            ]),
        Migration(
            version: 2,
            statements: [
                // A live session's state is written again when a break is decided or ends
                // (`saveLive`); the version counts those writes, so each lands only on the state it
                // was based on (two replicas serving one session cannot both write).
                "ALTER TABLE seam_sessions ADD COLUMN live_version bigint NOT NULL DEFAULT 0"
            ]),
        Migration(
            version: 3,
            statements: [
                // Every replica hears of each session deleted (by anyone: a replica, the sweep, an
                // operator) and each record rewritten, so a replica trusts the sessions it holds until
                // told otherwise (`PostgresSessionListener`). The payload names the writer's
                // `application_name` (each replica skips its own writes), the session and its
                // `live_version` (-1: deleted). A keep-alive writes `expires_at` only and says nothing.
                """
                CREATE FUNCTION seam_sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM pg_notify('seam_sessions_' || TG_TABLE_SCHEMA,
                            coalesce(current_setting('application_name', true), '') || ' ' || OLD.id || ' -1');
                        RETURN OLD;
                    END IF;
                    PERFORM pg_notify('seam_sessions_' || TG_TABLE_SCHEMA,
                        coalesce(current_setting('application_name', true), '') || ' ' || NEW.id || ' ' || NEW.live_version);
                    RETURN NEW;
                END
                $$
                """,
                """
                CREATE TRIGGER seam_sessions_notify AFTER DELETE OR UPDATE OF record ON seam_sessions
                FOR EACH ROW EXECUTE FUNCTION seam_sessions_notify()
                """,
            ]),
        Migration(
            version: 4,
            statements: [
                // The debug route's story of each session (`SessionStoryRecorder`): in the session's
                // row, so it goes with the session and any replica reads it. Writing it touches
                // neither `record` nor `live_version`, so no replica is told to drop the session.
                "ALTER TABLE seam_sessions ADD COLUMN story jsonb",
                "ALTER TABLE seam_sessions ADD COLUMN story_dropped bigint NOT NULL DEFAULT 0",
            ]),
        Migration(
            version: 5,
            statements: [
                // Breaks announced on live channels (the break API), read by every replica every
                // second (`BreakAnnouncementSync`); rows are dropped ten minutes after their end.
                """
                CREATE TABLE seam_break_announcements (
                    id text PRIMARY KEY,
                    channel_prefix text NOT NULL,
                    start_at timestamptz NOT NULL,
                    duration_seconds double precision NOT NULL,
                    ad_params text NOT NULL
                )
                """,
                "CREATE INDEX seam_break_announcements_start_at ON seam_break_announcements (start_at)",
            ]),
    ]

    /// The newest version this Seam writes.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// Why the schema could not be brought up to date.
    package enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The database was migrated by a newer Seam.
        case newerSchema(found: Int, known: Int)

        package var description: String {
            switch self {
            case .newerSchema(let found, let known):
                return
                    "the database's Seam schema is version \(found), newer than this Seam's \(known): upgrade this replica, or point it at another database"
            }
        }
    }

    /// Creates the schema (when `schema` is named and missing) and applies the migrations not yet
    /// applied, in one transaction under the advisory lock. Returns the versions it applied (empty:
    /// already current).
    @discardableResult
    static func migrate(_ client: PostgresClient, schema: String?, logger: Logger) async throws -> [Int] {
        try await client.withTransaction(logger: logger) { connection -> [Int] in
            // Per schema: replicas of one deployment take turns; deployments (or tests) in other
            // schemas of the same database do not wait for each other.
            let scope = schema ?? ""
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey), hashtext(\(scope)))", logger: logger)
            if let schema {
                // Checked to be a plain identifier (`PostgresStoreSettings.isIdentifier`).
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS seam_schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0)::bigint FROM seam_schema_version",
                logger: logger
            ).decode(Int.self) {
                applied = version
            }
            guard applied <= currentVersion else {
                throw MigrationError.newerSchema(found: applied, known: currentVersion)
            }
            var done: [Int] = []
            for migration in migrations where migration.version > applied {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO seam_schema_version (version) VALUES (\(migration.version))", logger: logger)
                done.append(migration.version)
            }
            return done
        }
    }
}

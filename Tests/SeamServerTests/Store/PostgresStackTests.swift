import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// The whole product on loopback with `store.postgresURL` set, as `seam serve` runs it: the store
/// is chosen from the configuration, migrates at startup, and a viewer's session works end to end.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
struct PostgresStackTests {
    @Test("A VOD session with the PostgreSQL store: created, its playlists played, kept alive, deleted (then 410)")
    func vodSession() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let base = try #require(PostgresTestDatabase.url)
        let url = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        try await SeamStack.run({ $0.store.postgresURL = url }) { stack in
            let session = try await stack.createSession()
            let id = try #require(session["sessionId"] as? String)
            let manifest = try #require(session["manifestUrl"] as? String)
            let master = try await stack.request(manifest)
            #expect(master.status == 200)
            let multivariant = try MultivariantPlaylist(parsing: master.body)
            let first = try #require(multivariant.variants.first)
            let media = try await stack.request(first.uri)
            #expect(media.status == 200)
            #expect(PlaylistValidator.validate(media.body, source: first.uri).isValid)
            // Reloads within store.cacheSeconds are answered from the replica's cache, without a query.
            for _ in 0..<3 { #expect(try await stack.request(first.uri).status == 200) }
            let metrics = try await stack.request("/metrics").body
            let hits = metrics.split(separator: "\n").first {
                $0.hasPrefix("seam_store_cache_lookups_total{result=\"hit\"}")
            }
            #expect((hits?.split(separator: " ").last).flatMap { Double($0) } ?? 0 >= 1, "\(hits ?? "no cache metric")")
            #expect(metrics.contains("seam_store_queries_total{"))
            let kept = try await stack.request("/v1/sessions/\(id)/keepalive", method: .POST)
            #expect(kept.status == 200)
            #expect(try await stack.request("/v1/sessions/\(id)", method: .DELETE).status == 204)
            let gone = try await stack.request(manifest)
            #expect(gone.status == 410)
            #expect(gone.errorCode == "SESSION_EXPIRED")
        }
        // The session really was in PostgreSQL: the schema the stack migrated holds Seam's tables
        // (sessions, beacon claims, announced breaks, the schema version).
        try await PostgresTestDatabase.withStores { stores in
            let versions = try await PostgresTestDatabase.integers(
                "SELECT count(*)::bigint FROM information_schema.tables WHERE table_schema = '\(schema)'", on: stores[0]
            )
            #expect(versions == [4])
            try await PostgresTestDatabase.drop(schema, on: stores[0])
        }
    }
}

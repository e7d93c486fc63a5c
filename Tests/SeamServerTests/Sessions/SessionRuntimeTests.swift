import Foundation
import NIOCore
import Stitching
import Testing
@testable import SeamServer

/// A replica's sessions as the runtime keeps them (one map in front of the store), driven by
/// tables of events at given times (no sockets, no sleeps): time to live and its extension by
/// requests, keep-alive, delete, the sweep. The same table runs over the in-memory store and
/// over PostgreSQL with and without a cache, so every replica behaves alike.
@Suite struct SessionRuntimeTests {
    typealias Memory = InMemorySessionStoreTests
    static let t0 = Memory.t0

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    enum Event {
        case get
        case touch
        case delete
        case sweep
    }

    enum Outcome: Equatable {
        case found
        case expired
        case notFound
        /// Kept alive: the new expiry, seconds after `t0`.
        case expires(Double)
        case gone
        case deleted(Bool)
        case swept(Int)
    }

    /// The stores a runtime runs over.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory, postgres, postgresCached

        var testDescription: String { rawValue }

        /// Every kind this machine can run: PostgreSQL only with a database.
        static var runnable: [Kind] { PostgresTestDatabase.available ? allCases : [.memory] }
    }

    /// One session stored at 0 with a TTL of 60 s, then each event at its time.
    static let table: [(String, [(Double, Event, Outcome)])] = [
        (
            "requests keep it alive",
            [
                (50.0, .get, .found), (100, .get, .found), (159, .get, .found), (220, .get, .expired),
                (221, .get, .notFound),
            ]
        ),
        ("exactly at its expiry it is still there", [(60.0, .get, .found), (120, .get, .found)]),
        (
            "keep-alive moves the expiry",
            [
                (30.0, .touch, .expires(90)), (89, .get, .found), (148, .touch, .expires(208)), (209, .touch, .gone),
                (210, .get, .notFound),
            ]
        ),
        ("a late keep-alive finds nothing", [(61.0, .touch, .gone), (61, .get, .notFound)]),
        (
            "delete",
            [
                (10.0, .delete, .deleted(true)), (11, .get, .notFound), (12, .delete, .deleted(false)),
                (13, .touch, .gone),
            ]
        ),
        (
            "the sweep takes only expired sessions",
            [(59.0, .sweep, .swept(0)), (61, .sweep, .swept(1)), (62, .get, .notFound), (63, .sweep, .swept(0))]
        ),
        (
            "a request before the sweep saves it",
            [(50.0, .get, .found), (100, .sweep, .swept(0)), (111, .sweep, .swept(1))]
        ),
        (
            "requests served from the map keep it alive too",
            [
                (0.5, .get, .found), (1, .get, .found), (1.5, .get, .found), (61, .get, .found), (120.5, .get, .found),
                (181, .get, .expired),
            ]
        ),
    ]

    static func outcome(of event: Event, at now: Date, id: SessionID, runtime: SessionRuntime) async throws -> Outcome {
        switch event {
        case .get:
            switch try await runtime.lookup(id, now: now) {
            case .found(let session): return session.id == id ? .found : .notFound
            case .expired: return .expired
            case .notFound: return .notFound
            }
        case .touch:
            return try await runtime.keepAlive(id, now: now).map { .expires($0.timeIntervalSince(t0)) } ?? .gone
        case .delete:
            return .deleted(try await runtime.delete(id))
        case .sweep:
            return .swept(try await runtime.sweep(now: now).count)
        }
    }

    /// Runs `body` with a fresh runtime over a store of `kind` (TTL 60 s).
    static func withRuntime(_ kind: Kind, _ body: @Sendable (SessionRuntime) async throws -> Void) async throws {
        switch kind {
        case .memory:
            try await body(SessionRuntime(store: InMemorySessionStore(ttlSeconds: 60, maxSessions: 10), ttlSeconds: 60))
        case .postgres, .postgresCached:
            try await PostgresTestDatabase.withReplicas(cacheSeconds: kind == .postgres ? 0 : 2) { replicas in
                try await body(replicas[0].runtime)
            }
        }
    }

    @Test("Time to live, keep-alive, delete and the sweep, event by event", arguments: Kind.runnable)
    func timeToLive(kind: Kind) async throws {
        for (name, events) in Self.table {
            try await Self.withRuntime(kind) { runtime in
                let session = Memory.session()
                let reservation = try #require(try await runtime.store.reserve())
                #expect(
                    try await runtime.insert(session, inputs: Memory.inputs, into: reservation, now: Self.t0) != nil)
                for (index, (seconds, event, expected)) in events.enumerated() {
                    let outcome = try await Self.outcome(
                        of: event, at: Self.at(seconds), id: session.id, runtime: runtime)
                    #expect(outcome == expected, "\(kind): \(name), event \(index) at \(seconds) s")
                }
                #expect(try await runtime.store.count() == (runtime.map.count), "\(kind): \(name): map and store agree")
            }
        }
    }

    @Test(
        "One map: a session built here is served as built, without reading its record; a runtime that does not hold it takes it up from the record, serving the same bytes"
    )
    func takenUpFromTheRecord() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let here = SessionRuntime(store: store, ttlSeconds: 60)
        let session = Memory.session()
        #expect(
            try await here.insert(
                session, inputs: Memory.inputs, into: try #require(store.reserve()), now: Self.t0) != nil)
        guard case .found(.vod(let served)) = try await here.lookup(session.id, now: Self.at(1)),
            case .vod(let built) = session
        else {
            Issue.record("not found where it was built")
            return
        }
        #expect(served.multivariant == built.multivariant)
        #expect(here.map.count == 1)
        let elsewhere = SessionRuntime(store: store, ttlSeconds: 60)
        #expect(elsewhere.map.count == 0)
        guard case .found(.vod(let revived)) = try await elsewhere.lookup(session.id, now: Self.at(2)) else {
            Issue.record("not taken up from the record")
            return
        }
        #expect(revived.multivariant == built.multivariant)
        #expect(revived.tracking == built.tracking)
        #expect(elsewhere.map.count == 1, "held from now on")
    }
}

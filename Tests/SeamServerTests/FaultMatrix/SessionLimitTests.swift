import Foundation
import NIOCore
import Testing
import SeamTesting
@testable import SeamServer
import Stitching

/// `sessions.maxSessions` holds under concurrent creation, and is checked before the origin or the
/// ad server is asked anything: a start takes its place first (`429 RATE_LIMITED` when there is
/// none) and gives it back when it fails.
@Suite struct SessionLimitTests {
    static let emptyVAST = FaultServer.Route.text("<VAST version=\"4.2\"/>", contentType: "application/xml")

    static func start(_ stack: SeamStack, _ url: String) async throws -> SeamStack.Answer {
        try await stack.request("/v1/sessions", method: .POST, json: ["url": url])
    }

    /// 40 starts at once with room for 5, against an origin answering in 0.3 s (so the starts
    /// overlap): exactly 5 sessions, 35 `429`s, and the origin and the ad server heard only of the 5.
    @Test func concurrentStartsNeverExceedMaxSessions() async throws {
        let server = FaultServer([
            "/content/index.m3u8": .text(FaultMedia.vod(segments: 10), delay: .milliseconds(300)),
            "/vast": Self.emptyVAST,
        ])
        try await server.run { base in
            try await SeamStack.run({
                $0.ads.adTagURL = base + "/vast"
                $0.sessions.maxSessions = 5
            }) { stack in
                let answers = try await withThrowingTaskGroup(of: SeamStack.Answer.self) { group in
                    for _ in 0..<40 { group.addTask { try await Self.start(stack, base + "/content/index.m3u8") } }
                    var all: [SeamStack.Answer] = []
                    for try await answer in group { all.append(answer) }
                    return all
                }
                let created = answers.filter { $0.status == 201 }
                let refused = answers.filter { $0.status == 429 }
                #expect(created.count == 5)
                #expect(refused.count == 35)
                #expect(
                    refused.allSatisfy { $0.errorCode == "RATE_LIMITED" && $0.body.contains("sessions.maxSessions") })
                #expect(server.requests("/content/") == 5, "refused starts must not reach the origin")
                #expect(server.requests("/vast") == 5, "refused starts must not reach the ad server")

                // Ending a session frees its place.
                let id = try #require(created.first?.json["sessionId"] as? String)
                #expect(try await stack.request("/v1/sessions/\(id)", method: .DELETE).status == 204)
                let again = try await Self.start(stack, base + "/content/index.m3u8")
                #expect(again.status == 201, "\(again.body)")
                let over = try await Self.start(stack, base + "/content/index.m3u8")
                #expect(over.status == 429, "\(over.body)")
            }
        }
    }

    /// A full store answers `429` to explicit and implicit starts alike, and the origin and the ad
    /// server see no request for them.
    @Test func aFullStoreAsksNoUpstream() async throws {
        let server = FaultServer([
            "/content/index.m3u8": .text(FaultMedia.vod(segments: 10)),
            "/other/index.m3u8": .text(FaultMedia.vod(segments: 10)),
            "/vast": Self.emptyVAST,
        ])
        try await server.run { base in
            try await SeamStack.run({
                $0.ads.adTagURL = base + "/vast"
                $0.sessions.maxSessions = 2
            }) { stack in
                for _ in 0..<2 { #expect(try await Self.start(stack, base + "/content/index.m3u8").status == 201) }
                let adRequests = server.requests("/vast")

                let explicit = try await Self.start(stack, base + "/other/index.m3u8")
                #expect(explicit.status == 429)
                #expect(explicit.errorCode == "RATE_LIMITED")
                let host = String(base.dropFirst("http://".count))
                let implicit = try await stack.request("/v1/hls/\(host)/other/index.m3u8?seam.scheme=http")
                #expect(implicit.status == 429)
                #expect(implicit.errorCode == "RATE_LIMITED")

                #expect(server.requests("/other/") == 0)
                #expect(server.requests("/vast") == adRequests)
            }
        }
    }

    /// A start that fails (the origin answers 404) gives its place back: with room for one
    /// session, the next start gets it.
    @Test func aFailedStartGivesItsPlaceBack() async throws {
        let server = FaultServer(["/content/index.m3u8": .text(FaultMedia.vod(segments: 10))])
        try await server.run { base in
            try await SeamStack.run({
                $0.ads.adTagURL = ""
                $0.sessions.maxSessions = 1
            }) { stack in
                for _ in 0..<3 {
                    let failed = try await Self.start(stack, base + "/missing/index.m3u8")
                    #expect(failed.status == 502)
                }
                #expect(try await Self.start(stack, base + "/content/index.m3u8").status == 201)
            }
        }
    }

    /// The store itself: 200 starts at once (reserve, then put) with room for 10 store exactly 10
    /// (before places, each insert summed the shards and then inserted, so concurrent ones could
    /// all see room), and a put with a reservation already used takes no extra place.
    @Test func theStoreHoldsItsLimitUnderConcurrentInserts() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let ids = SessionIDKey.random()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let inputs = SessionInputs(
            request: SessionRequest(url: "http://origin.test/a.m3u8"), deviceIP: nil, userAgent: nil,
            baseURL: "http://seam.test")
        func session() -> SeamSession {
            let id = ids.issue()
            return .vod(
                StitchedSession(
                    id: id, contentURL: "http://origin.test/a.m3u8", trackingMode: .server,
                    multivariant: ByteBuffer(), media: [:], gzipped: [:],
                    tracking: TrackingDocument(
                        sessionId: id.value, trackingMode: .server, durationSeconds: 0,
                        avails: [], cuePoints: []),
                    adSegments: [:], beacons: [:], createdAt: now, mode: .stitched,
                    interstitials: InterstitialsRendering(
                        multivariant: ByteBuffer(), gzippedMultivariant: nil, media: [:],
                        gzipped: [:], assetLists: [:], adAssets: [:], adAssetMedia: [:])))
        }
        let stored = await withTaskGroup(of: SessionReservation?.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    guard let reservation = store.reserve() else { return nil }
                    let record = SessionRecord(session(), inputs: inputs)
                    return store.insert(record, into: reservation, now: now) != nil ? reservation : nil
                }
            }
            var reservations: [SessionReservation] = []
            for await reservation in group { if let reservation { reservations.append(reservation) } }
            return reservations
        }
        #expect(stored.count == 10)
        #expect(store.count() == 10)
        #expect(store.placesTaken == 10)
        let used = try #require(stored.first)
        #expect(
            store.insert(SessionRecord(session(), inputs: inputs), into: used, now: now) == nil,
            "a used reservation holds no place")
        #expect(store.count() == 10)
    }
}

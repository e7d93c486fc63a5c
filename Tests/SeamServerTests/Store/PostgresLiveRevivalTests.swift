import Foundation
import HLS
import NIOCore
import SeamWire
import Hummingbird
import HummingbirdTesting
import Testing
import InMemoryTracing
import SeamTesting
@testable import SeamServer

/// Live sessions across replicas on one PostgreSQL: a session started on one replica is taken up
/// by another from its record, with the same media and discontinuity numbering, the same break,
/// no second ad request and no beacon twice. In process (two apps, one scripted origin, the
/// test's clock), against the real database.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason), .serialized)
struct PostgresLiveRevivalTests {
    /// One replica: its own routes, live channel catalog and origin cache, on `store`.
    static func replica(
        _ store: PostgresSessionStore, origin: any UpstreamFetching, clock: TestClock, ids: SessionIDKey,
        beacons: RecordedBeacons, tracer: SeamTracer = .off, metrics: SeamMetrics = SeamMetrics(),
        prefetchSeconds: Double = 0
    ) throws -> some ApplicationProtocol {
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.live.prefetchSeconds = prefetchSeconds
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        let logger = FaultMatrixApp.quietLogger
        let services = SeamServices(
            configuration: configuration, logger: logger, upstream: origin,
            domainMatcher: try DomainMatcher(configuration: configuration.domains), metrics: metrics,
            sessionIDs: ids, clock: clock.seamClock, tracer: tracer)
        let dispatcher = BeaconDispatcher(upstream: origin, configuration: configuration.beacons, logger: logger)
        let ads = AdDecisionClient(
            upstream: origin, configuration: configuration.ads, beacons: dispatcher, logger: logger)
        let routes = SessionRoutes(services: services, ads: ads, beacons: beacons, store: store)
        return buildSeamApplication(
            configuration: configuration, logger: logger, routes: [routes], metrics: services.metrics)
    }

    /// Two replicas (A and B) on one fresh database over one scripted origin and the test's clock;
    /// `adIDs` names the ad each replica's ad server answers with (the same creative).
    static func withTwoReplicas(
        adIDs: (String, String)? = nil, tracerOfB: SeamTracer = .off, prefetchSeconds: Double = 0,
        _ body:
            @escaping @Sendable (
                _ first: any TestClientProtocol, _ second: any TestClientProtocol,
                _ origin: ScriptedLiveOrigin, _ clock: TestClock,
                _ beacons: RecordedBeacons, _ replicas: [RevivalReplica]
            ) async throws -> Void
    ) async throws {
        try await PostgresTestDatabase.withStores(2) { stores in
            let origin = ScriptedLiveOrigin()
            let clock = TestClock()
            let ids = SessionIDKey.random()
            let beacons = RecordedBeacons()
            let upstreams: (any UpstreamFetching, any UpstreamFetching) =
                adIDs.map {
                    (RenamedAd(origin: origin, adID: $0.0), RenamedAd(origin: origin, adID: $0.1))
                } ?? (origin, origin)
            let metrics = [SeamMetrics(), SeamMetrics()]
            let a = try Self.replica(
                stores[0], origin: upstreams.0, clock: clock, ids: ids, beacons: beacons, metrics: metrics[0],
                prefetchSeconds: prefetchSeconds)
            let b = try Self.replica(
                stores[1], origin: upstreams.1, clock: clock, ids: ids, beacons: beacons, tracer: tracerOfB,
                metrics: metrics[1], prefetchSeconds: prefetchSeconds)
            try await a.test(.router) { first in
                try await b.test(.router) { second in
                    try await body(
                        first, second, origin, clock, beacons,
                        [
                            RevivalReplica(metrics: metrics[0], store: stores[0]),
                            RevivalReplica(metrics: metrics[1], store: stores[1]),
                        ])
                }
            }
        }
    }

    static func media(_ client: any TestClientProtocol, _ url: String) async throws -> MediaPlaylist {
        let answer = try await client.call(url)
        #expect(answer.status == 200, "\(answer.body)")
        return try MediaPlaylist(parsing: answer.body)
    }

    /// Each listed segment's URI and discontinuity number, by media sequence number.
    static func numbering(_ playlist: MediaPlaylist) -> [Int: (uri: String, discontinuity: Int)] {
        var result: [Int: (uri: String, discontinuity: Int)] = [:]
        var discontinuity = playlist.discontinuitySequence
        for (index, segment) in playlist.segments.enumerated() {
            if segment.discontinuity { discontinuity += 1 }
            result[playlist.mediaSequence + index] = (segment.uri, discontinuity)
        }
        return result
    }

    /// For the origin's content segments listed: media sequence number minus the origin's, and
    /// the discontinuity number (constant between breaks for one session's numbering).
    static func contentOffsets(_ playlist: MediaPlaylist) -> Set<[Int]> {
        var offsets: Set<[Int]> = []
        for (number, entry) in numbering(playlist) {
            guard let range = entry.uri.range(of: #"seg_(\d+)\.ts$"#, options: .regularExpression),
                !entry.uri.contains("/ad/")
            else { continue }
            let digits = entry.uri[range].dropFirst(4).dropLast(3)
            if let origin = Int(digits) { offsets.insert([number - origin, entry.discontinuity]) }
        }
        return offsets
    }

    static func adSegments(_ playlist: MediaPlaylist) -> [String] {
        playlist.segments.map(\.uri).filter { $0.contains("/ad/0/") }
    }

    /// A replica's live-state writes made before an answer, and after one (written behind).
    static func liveWrites(_ metrics: SeamMetrics) -> (before: Int, after: Int) {
        func value(_ when: String) -> Int {
            Int(ConnectionHarness.value("seam_store_live_writes_total{when=\"\(when)\"}", metrics) ?? 0)
        }
        return (value("before_answer"), value("after_answer"))
    }

    /// Waits until the replica has written every live record it had behind (a hang guard: the
    /// writer runs as soon as a reload queues one), so a replica taking its sessions up next reads
    /// what it served.
    static func untilWrittenBehind(
        _ metrics: SeamMetrics, atLeast writes: Int, reloading: (@Sendable () async -> Void)? = nil
    ) async {
        let written = await liveEventually(timeout: .seconds(60)) {
            await reloading?()
            return liveWrites(metrics).after >= writes
                && ConnectionHarness.value("seam_store_live_records_behind", metrics) == 0
        }
        #expect(written, "the replica did not write its live records behind within 60 s")
    }

    @Test(
        "A live session taken up by another replica: the same numbering after the break and across a gap, no new ad request, no beacon twice"
    )
    func takenUpAfterLoss() async throws {
        let spans = InMemoryTracer()
        try await Self.withTwoReplicas(tracerOfB: SeamTracer(spans, logMetadataProvider: .inMemorySpan)) {
            first, second, origin, clock, beacons, replicas in
            // On A: a session, a cue, the break decided and played into.
            let created = try await first.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let urls = try MultivariantPlaylist(parsing: try await first.call(manifest).body).variants.map(\.uri)
            #expect(urls.count == 2)
            origin.update {
                $0.last = 21; $0.cueOuts[21] = 20
            }
            clock.advance(.milliseconds(1100))
            for url in urls { _ = try await Self.media(first, url) }
            let listed = await liveEventually {
                (try? await Self.media(first, urls[0])).map { !Self.adSegments($0).isEmpty } == true
            }
            #expect(listed)
            origin.update { $0.last = 23 }
            clock.advance(.milliseconds(1100))
            var onA: [MediaPlaylist] = []
            for url in urls { onA.append(try await Self.media(first, url)) }
            let adsOnA = Self.adSegments(onA[0])
            #expect(adsOnA.count >= 2)
            // The player fetches the first ad segment through A: its beacons fire there.
            #expect(try await first.redirect(try #require(adsOnA.first)).status == 302)
            let adRequests = origin.requests("vast.xml")
            #expect(adRequests == 1)

            // A is lost. B has never seen the session: it takes it up from PostgreSQL.
            for (index, url) in urls.enumerated() {
                let onB = try await Self.media(second, url)
                let before = Self.numbering(onA[index]), after = Self.numbering(onB)
                #expect(onB.mediaSequence >= onA[index].mediaSequence)
                #expect(onB.mediaSequence + onB.segments.count >= onA[index].mediaSequence + onA[index].segments.count)
                #expect(onB.discontinuitySequence >= onA[index].discontinuitySequence)
                for (number, entry) in before {
                    guard let taken = after[number] else { continue }
                    #expect(taken.uri == entry.uri, "media sequence \(number) changed on the other replica")
                    #expect(taken.discontinuity == entry.discontinuity, "discontinuity number of \(number) changed")
                }
                // Everything A listed from where B's answer starts is in B's answer (A's answer for
                // a rendition may come from an origin window a refresh older).
                #expect(!Set(before.keys).intersection(after.keys).isEmpty)
                for number in before.keys where number >= onB.mediaSequence {
                    #expect(after[number] != nil, "B dropped \(number)")
                }
            }
            // The same break, without asking the ad server again; the ad's segments through B.
            #expect(origin.requests("vast.xml") == adRequests)
            // B's taking up is one session.revive span, its creative fetch a child.
            let revive = try #require(spans.finishedSpans.first { $0.operationName == "session.revive" })
            #expect(revive.attributes.get("seam.session.kind") == .string("live"))
            #expect(revive.attributes.get("seam.session.outcome") == .string("revived"))
            #expect(
                spans.finishedSpans.contains {
                    $0.operationName == "creative.fetch" && $0.parentSpanID == revive.spanID
                })
            #expect(
                !spans.finishedSpans.contains { $0.operationName == "ad.request" },
                "no ad request on the replica taking the session up")
            origin.update { $0.last = 26 }
            clock.advance(.milliseconds(1100))
            let whole = try await Self.media(second, urls[0])
            let adsOnB = Self.adSegments(whole)
            #expect(adsOnB.count == 4)
            #expect(Array(adsOnB.prefix(adsOnA.count)) == adsOnA)
            for uri in adsOnB { #expect(try await second.redirect(uri).status == 302) }
            let fired = beacons.urls
            #expect(fired.contains { $0.hasSuffix("/track/ad3/impression") }, "\(fired)")
            #expect(fired.contains { $0.hasSuffix("/track/ad3/start") }, "\(fired)")
            #expect(fired.count == Set(fired).count, "a beacon fired twice: \(fired)")

            // After the break, B goes on alone for longer than the origin's window (no
            // record is written between breaks; the break's end is written behind the answer
            // that showed it); then B is lost and A, which last held the session during the
            // break, takes it up again from the store.
            var last = try await Self.media(second, urls[0])
            for end in stride(from: 28, through: 40, by: 2) {
                origin.update { $0.last = end }
                clock.advance(.milliseconds(1100))
                last = try await Self.media(second, urls[0])
            }
            #expect(Self.liveWrites(replicas[1].metrics).before == 0, "B decided nothing: no answer waited for a write")
            await Self.untilWrittenBehind(replicas[1].metrics, atLeast: 1)
            let offsetsOnB = Self.contentOffsets(last)
            #expect(offsetsOnB.count == 1, "content numbering after the break: \(offsetsOnB)")
            #expect(Self.adSegments(last).isEmpty)
            origin.update { $0.last = 42 }
            clock.advance(.milliseconds(1100))
            let takenBack = try await Self.media(first, urls[0])
            #expect(Self.contentOffsets(takenBack) == offsetsOnB, "A renumbered the content B had listed")
            #expect(takenBack.mediaSequence > last.mediaSequence)
            #expect(origin.requests("vast.xml") == adRequests)
        }
    }

    @Test("A live picture-in-picture session taken up by another replica follows its main's timeline there")
    func pipTakenUp() async throws {
        try await Self.withTwoReplicas { first, second, origin, clock, beacons, _ in
            let main = try await first.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            let mainID = try #require(main.json["sessionId"] as? String)
            let pip = try await first.call(
                "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL, "pipOf": mainID])
            #expect(pip.status == 201, "\(pip.body)")
            let pipID = try #require(pip.json["sessionId"] as? String)
            origin.update {
                $0.last = 21; $0.cueOuts[21] = 20
            }
            clock.advance(.milliseconds(1100))
            _ = try await Self.media(first, "/v1/sessions/\(mainID)/media/v0.m3u8")
            let listed = await liveEventually {
                (try? await Self.media(first, "/v1/sessions/\(mainID)/media/v0.m3u8")).map {
                    !Self.adSegments($0).isEmpty
                } == true
            }
            #expect(listed)
            let mainOnA = try await Self.media(first, "/v1/sessions/\(mainID)/media/v0.m3u8")
            // A is lost; the pip's next reload lands on B.
            let pipOnB = try await Self.media(second, "/v1/sessions/\(pipID)/media/v0.m3u8")
            #expect(pipOnB.mediaSequence == mainOnA.mediaSequence)
            #expect(pipOnB.discontinuitySequence == mainOnA.discontinuitySequence)
            #expect(pipOnB.segments.count == mainOnA.segments.count)
            #expect(Self.adSegments(pipOnB).count == Self.adSegments(mainOnA).count)
            #expect(Self.adSegments(pipOnB).allSatisfy { $0.contains(pipID) })
            #expect(origin.requests("vast.xml") == 1, "the pip's break is its main's decision, not a new ad request")
        }
    }

    @Test(
        "A break decided ahead on PostgreSQL: its record is written behind the answers, and a replica taking the session up before the break opens it with the same ads, without asking the ad server again"
    )
    func decidedAheadTakenUp() async throws {
        try await Self.withTwoReplicas(adIDs: ("ad3", "ad3-b"), prefetchSeconds: 30) {
            first, second, origin, clock, beacons, replicas in
            let metrics = replicas.map(\.metrics)
            origin.update { $0.last = 14 }
            let created = try await first.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let media = try #require(
                try MultivariantPlaylist(parsing: try await first.call(manifest).body).variants.first?.uri)
            _ = try await Self.media(first, media)
            // Segment 16 carries a 20 s break starting at segment 21, 24 s past the live edge:
            // decided ahead on A.
            origin.update {
                $0.dateRangesAhead[16] = (id: "splice-1", start: 21, planned: 20)
                $0.last = 16
            }
            clock.advance(.milliseconds(1100))
            let asked = await liveEventually {
                _ = try? await Self.media(first, media)
                return origin.requests("vast.xml") == 1
            }
            #expect(asked, "no ad request before the break")
            // A reload after the decision landed finds the record behind, and answers at once; the
            // writer stores the decision made ahead.
            let text = try #require(created.json["sessionId"] as? String)
            let id = try #require(SessionID(Substring(text)))
            let stored = await liveEventually(timeout: .seconds(60)) {
                _ = try? await Self.media(first, media)
                guard
                    case .found(let found)? = try? await replicas[0].store.load(
                        id, now: Date(), readAbove: nil, keptAlive: true),
                    case .live(let live)? = found.record?.kind
                else { return false }
                return live.session.prefetched?.count == 1
            }
            #expect(stored, "the decision made ahead is not in the session's record")
            #expect(Self.liveWrites(metrics[0]).before == 0, "an answer waited for a record write")
            let onA = try await Self.media(first, media)
            #expect(Self.adSegments(onA).isEmpty)

            // A is lost before the break. B takes the session up from the record written behind
            // A's answers, and the break opens there with the decision A made ahead.
            _ = try await Self.media(second, media)
            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            let opened = await liveEventually {
                (try? await Self.media(second, media)).map { Self.adSegments($0).count == 4 } == true
            }
            #expect(opened, "the break decided ahead is not stitched on B")
            #expect(origin.requests("vast.xml") == 1, "the replica taking the session up asked the ad server again")
            let tracking = try await second.call(try #require(created.json["trackingUrl"] as? String))
            let avails = tracking.json["avails"] as? [[String: Any]] ?? []
            #expect(avails.first?["prefetched"] as? Bool == true, "\(avails)")
            let ads = avails.first?["ads"] as? [[String: Any]] ?? []
            #expect(ads.map { $0["adId"] as? String } == ["ad3"], "not the decision A made ahead: \(ads)")
            // The opening with a decision the record holds did not wait for a write either.
            #expect(Self.liveWrites(metrics[1]).before == 0)
        }
    }

    @Test(
        "Two replicas serving one live session at once show one break: the second write is refused and that replica serves the stored decision"
    )
    func concurrentReplicasAgree() async throws {
        // The ad server answers each replica with another ad id for the same creative, so a break
        // each decided on its own would show.
        try await Self.withTwoReplicas(adIDs: ("ad3", "ad3-b")) { first, second, origin, clock, beacons, _ in
            let created = try await first.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            let manifest = try #require(created.json["manifestUrl"] as? String)
            let url = try #require(
                try MultivariantPlaylist(parsing: try await first.call(manifest).body).variants.first?.uri)
            // Both replicas hold the session before the cue (the viewer alternates).
            _ = try await Self.media(second, url)
            origin.update {
                $0.last = 21; $0.cueOuts[21] = 20
            }
            clock.advance(.milliseconds(1100))
            // Each sees the cue and decides the break on its own.
            _ = try await Self.media(first, url)
            _ = try await Self.media(second, url)
            let both = await liveEventually {
                guard let one = try? await Self.media(first, url), let other = try? await Self.media(second, url) else {
                    return false
                }
                return !Self.adSegments(one).isEmpty && !Self.adSegments(other).isEmpty
            }
            #expect(both)
            let answers = [try await Self.media(first, url), try await Self.media(second, url)]
            // Whichever wrote first, both now list the same break, numbered the same.
            let one = Self.numbering(answers[0]), other = Self.numbering(answers[1])
            for (number, entry) in one {
                guard let seen = other[number] else { continue }
                #expect(seen.uri == entry.uri, "the replicas list \(number) differently")
                #expect(seen.discontinuity == entry.discontinuity)
            }
            #expect(Self.adSegments(answers[0]) == Self.adSegments(answers[1]))
            // The same ad in both tracking documents, and its beacons once.
            var adIDs: [[String]] = []
            for client in [first, second] {
                let tracking = try await client.call(manifest.replacingOccurrences(of: "master.m3u8", with: "tracking"))
                #expect(tracking.status == 200, "\(tracking.body)")
                let document = try JSONDecoder().decode(TrackingDocument.self, from: Data(tracking.body.utf8))
                adIDs.append(document.avails.flatMap { $0.ads.map(\.adId) })
            }
            #expect(adIDs[0] == adIDs[1], "\(adIDs)")
            #expect(adIDs[0].count == 1, "\(adIDs) \(beacons.urls)")
            let segment = try #require(Self.adSegments(answers[0]).first)
            #expect(try await first.redirect(segment).status == 302)
            #expect(try await second.redirect(segment).status == 302)
            let fired = beacons.urls
            #expect(fired.count == Set(fired).count, "a beacon fired twice: \(fired)")
            #expect(
                fired.contains { $0.hasSuffix("/track/ad3/impression") }
                    != fired.contains { $0.hasSuffix("/track/ad3-b/impression") },
                "\(fired)")
        }
    }
}

/// What a test sees of a replica besides its routes.
struct RevivalReplica: Sendable {
    let metrics: SeamMetrics
    let store: PostgresSessionStore
}

/// The scripted origin, whose ad server names its ad `adID` (the same creative): two replicas on
/// two of these decide visibly different breaks.
final class RenamedAd: UpstreamFetching, Sendable {
    let origin: ScriptedLiveOrigin
    let adID: String

    init(origin: ScriptedLiveOrigin, adID: String) {
        self.origin = origin
        self.adID = adID
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        var response = try await origin.fetch(request)
        if request.url.hasPrefix(ScriptedLiveOrigin.vastURL) {
            let renamed = String(buffer: response.body)
                .replacingOccurrences(of: "<Ad id=\"ad3\"", with: "<Ad id=\"\(adID)\"")
                .replacingOccurrences(of: "/track/ad3/", with: "/track/\(adID)/")
            response.body = ByteBuffer(string: renamed)
        }
        return response
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import Stitching
import Testing
@testable import SeamServer

/// A session written down as a `SessionRecord` and read back serves what it served: the
/// playlists byte for byte, the tracking document, the ad segments and their beacons. Shown
/// with a store that keeps nothing but the encoded records, as a store outside the process would.
@Suite struct SessionRecordTests {
    @Test("Through a store that keeps only encoded records, a VOD session serves the bytes it was built with")
    func vodRoundTripThroughEncodedStore() async throws {
        let harness = SessionRouteHarness()
        let store = EncodedSessionStore(ttlSeconds: 60, maxSessions: 10)
        try await harness.test(store: store) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL, "trackingMode": "hybrid"])
            #expect(created.status == 201, "\(created.body)")
            let idText = try #require(created.json["sessionId"] as? String)
            let id = try #require(SessionID(idText[...]))
            let original = try #require(store.original(id))

            let master = try await client.execute(uri: "/v1/sessions/\(id)/master.m3u8", method: .get) { $0.body }
            #expect(master == original.multivariant)
            let media = try await client.execute(uri: "/v1/sessions/\(id)/media/v0.m3u8", method: .get) { $0.body }
            #expect(media == original.media[RenditionKey(.variant, 0)])
            let tracking = try await client.call("/v1/sessions/\(id)/tracking")
            #expect(
                try JSONDecoder().decode(TrackingDocument.self, from: Data(tracking.body.utf8)) == original.tracking)
            #expect(original.tracking.trackingMode == .hybrid)

            // The interstitials rendering survives the record too: primary, asset list, ad asset.
            let rendering = original.interstitials
            for (path, bytes) in [
                ("interstitials/master.m3u8", rendering.multivariant),
                ("interstitials/media/v0.m3u8", rendering.media[RenditionKey(.variant, 0)]),
                ("assets/pre.json", rendering.assetLists[.preroll]),
                ("adplaylist/0/0/master.m3u8", rendering.adAssets[AdAssetAddress(pod: 0, ad: 0)]),
                (
                    "adplaylist/0/0/media/v0.m3u8",
                    rendering.adAssetMedia[
                        .init(address: AdAssetAddress(pod: 0, ad: 0), rendition: RenditionKey(.variant, 0))]
                ),
            ] {
                let served = try await client.execute(uri: "/v1/sessions/\(id)/\(path)", method: .get) { $0.body }
                #expect(bytes != nil && served == bytes, "\(path)")
            }

            // Hybrid: Seam fires the impression, once, from the revived beacon table.
            let segment = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts")
            #expect(segment.status == 302)
            #expect(segment.location == "https://ads.test/ad1/ad_0.ts")
            _ = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts")
            #expect(harness.beacons.urls == ["https://track.test/impression"])
        }
    }

    @Test("Through a store that keeps only encoded records, a DASH session serves its MPD and routes its ad segments")
    func dashRoundTripThroughEncodedStore() async throws {
        let harness = SessionRouteHarness()
        let store = EncodedSessionStore(ttlSeconds: 60, maxSessions: 10)
        try await harness.test(store: store) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.dashURL, "trackingMode": "hybrid"])
            #expect(created.status == 201, "\(created.body)")
            let idText = try #require(created.json["sessionId"] as? String)
            let id = try #require(SessionID(idText[...]))
            let original = try #require(store.original(id))
            #expect(original.format == .dash)
            let record = try SessionRecord(decoding: try #require(store.bytes(id)))
            let revived = try #require(StitchedSession(record: record))
            #expect(revived.format == .dash)
            #expect(revived.dashManifestBody?.bytes == original.dashManifestBody?.bytes)

            let mpd = try await client.call("/v1/sessions/\(id)/manifest.mpd")
            #expect(mpd.status == 200)
            #expect(mpd.body == String(buffer: try #require(original.dashManifestBody?.bytes)))
            #expect(mpd.body.contains(#"<Period id="seam-ad-preroll-0-0""#))
            // Hybrid: Seam fires the impression, once, from the revived beacon table.
            let segment = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.m4s")
            #expect(segment.status == 302)
            #expect(segment.location == "https://ads.test/ad1/v/1.m4s")
            _ = try await client.redirect("/v1/sessions/\(id)/ad/0/0/a0/0.m4s")
            #expect(harness.beacons.urls == ["https://track.test/impression"])
        }
    }

    @Test(
        "A VOD record: the inputs and what the session serves; encode → decode gives the same record and the same bytes again"
    )
    func vodRecordFields() async throws {
        // Over loopback, with the client as the trusted proxy in front: its X-Forwarded-For names
        // the viewer whose address the record keeps.
        let harness = SessionRouteHarness { $0.server.trustedProxies = ["127.0.0.1"] }
        let store = EncodedSessionStore(ttlSeconds: 60, maxSessions: 10)
        try await harness.test(store: store, live: true) { client in
            let created = try await client.execute(
                uri: "/v1/sessions", method: .post,
                headers: [
                    .contentType: "application/json", .userAgent: "TestPlayer/2",
                    HTTPField.Name("X-Forwarded-For")!: "203.0.113.7",
                ],
                body: ByteBuffer(
                    string:
                        #"{"url": "\#(SessionRouteHarness.vodURL)", "contentId": "film-1", "adParams": {"site": "news"}}"#
                )
            ) {
                String(buffer: $0.body)
            }
            let idText = try #require(
                (try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])?["sessionId"] as? String)
            let id = try #require(SessionID(idText[...]))
            let bytes = try #require(store.bytes(id))
            let record = try SessionRecord(decoding: bytes)
            #expect(record.id == id)
            #expect(record.version == SessionRecord.vodVersion)
            #expect(record.trackingMode == .server)
            #expect(record.inputs.request.url == SessionRouteHarness.vodURL)
            #expect(record.inputs.request.contentId == "film-1")
            #expect(record.inputs.request.adParams == ["site": "news"])
            #expect(record.inputs.deviceIP == "203.0.113.7")
            #expect(record.inputs.userAgent == "TestPlayer/2")
            guard case .vod(let vod) = record.kind else {
                Issue.record("a VOD session's record is \(record.kind)")
                return
            }
            #expect(vod.contentURL == SessionRouteHarness.vodURL)
            #expect(
                vod.adSegments.map { "\($0.rendition)/\($0.breakNumber)/\($0.ad)/\($0.segment)" } == [
                    "v0/0/0/0", "v0/0/0/1",
                ])
            #expect(vod.adSegments.first.map { $0.events.contains(.impression) && $0.events.contains(.start) } == true)
            #expect(vod.adSegments.last.map { $0.events.contains(.complete) } == true)
            #expect(vod.beacons.contains { $0.event == .impression && $0.urls == ["https://track.test/impression"] })
            #expect(try record.encoded() == Array(bytes), "equal records encode to equal bytes")
            #expect(try Self.sameDocumentAsFoundations(record), "the streaming encoder writes Foundation's document")
            let revived = try #require(StitchedSession(record: record))
            let original = try #require(store.original(id))
            #expect(revived.multivariant == original.multivariant)
            #expect(revived.media == original.media)
            #expect(revived.gzipped == original.gzipped)
            #expect(revived.tracking == original.tracking)
            #expect(revived.adSegments.mapValues(\.url) == original.adSegments.mapValues(\.url))
            #expect(revived.adSegments.mapValues(\.events) == original.adSegments.mapValues(\.events))
            #expect(revived.beacons == original.beacons)
            #expect(revived.createdAt == original.createdAt)
            // The same VOD record as the previous release (version 2) wrote it: read the same, so a
            // rolling upgrade serves the sessions the old replicas made.
            let previous = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                of: "\"version\":\(SessionRecord.vodVersion)", with: "\"version\":2")
            #expect(previous != String(decoding: bytes, as: UTF8.self))
            #expect(try SessionRecord(decoding: Array(previous.utf8)).kind == record.kind)
        }
    }

    @Test(
        "A live record names the channel, the inputs and the tracking mode, keeps the timeline, decisions and served windows, and round-trips; it does not revive as a VOD session"
    )
    func liveRecord() async throws {
        let harness = SessionRouteHarness { $0.ads.adTagURL = "" }
        let routes = try harness.routes()
        let app = buildSeamApplication(
            configuration: harness.configuration, logger: SessionRouteHarness.quietLogger, routes: [routes])
        try await app.test(.router) { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.liveURL, "trackingMode": "client"])
            #expect(created.status == 201, "\(created.body)")
            let idText = try #require(created.json["sessionId"] as? String)
            let id = try #require(SessionID(idText[...]))
            guard case .found(let session) = try await routes.runtime.lookup(id, now: harness.clock.now),
                case .live = session
            else {
                Issue.record("no live session stored")
                return
            }
            let media = try await client.call("/v1/sessions/\(idText)/media/v0.m3u8")
            #expect(media.status == 200, "\(media.body)")
            let inputs = SessionInputs(
                request: SessionRequest(url: "ignored for live"), deviceIP: nil, userAgent: nil, baseURL: "ignored")
            let record = SessionRecord(session, inputs: inputs)
            guard case .live(let live) = record.kind, case .live(let liveSession) = session else {
                Issue.record("not a live record")
                return
            }
            #expect(live.channelURL == SessionRouteHarness.liveURL)
            #expect(!live.session.timeline.entries.isEmpty)
            #expect(live.session.timeline == liveSession.snapshot().session.timeline)
            // What v0 last listed, so a session taken up again never lists less.
            let served = try #require(live.session.served.first { $0.rendition == "v0" })
            #expect(media.body.contains("#EXT-X-MEDIA-SEQUENCE:\(served.mediaSequence)\n"))
            #expect(record.trackingMode == .client)
            #expect(record.inputs.request.url == SessionRouteHarness.liveURL, "the session's own inputs")
            #expect(record.inputs.request.trackingMode == .client)
            #expect(try SessionRecord(decoding: record.encoded()) == record)
            #expect(try Self.sameDocumentAsFoundations(record), "the streaming encoder writes Foundation's document")
            #expect(StitchedSession(record: record) == nil)
        }
    }

    /// `record.encoded()` (`StreamingJSONEncoder`) and Foundation's `JSONEncoder` give the same
    /// JSON document: both read into Foundation's objects and written again with sorted keys.
    static func sameDocumentAsFoundations(_ record: SessionRecord) throws -> Bool {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func normalized(_ bytes: Data) throws -> Data {
            try JSONSerialization.data(
                withJSONObject: JSONSerialization.jsonObject(with: bytes), options: [.sortedKeys])
        }
        return try normalized(Data(record.encoded())) == normalized(foundation.encode(record))
    }

    @Test("A store that cannot keep a session is 503 STORE_UNAVAILABLE saying why, and the start's place is given back")
    func storeFailure() async throws {
        let harness = SessionRouteHarness { $0.ads.adTagURL = "" }
        let store = EncodedSessionStore(ttlSeconds: 60, maxSessions: 1)
        try await harness.test(store: store) { client in
            let answer = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.liveURL])
            #expect(answer.status == 503)
            #expect(answer.errorCode == "STORE_UNAVAILABLE")
            #expect(
                answer.errorMessage?.contains("the session store is unavailable: this store keeps VOD sessions only")
                    == true, "\(answer.body)")
            #expect(store.placesTaken == 0)
            #expect(
                try await client.call("/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL]).status
                    == 201)
        }
    }

    @Test("Bytes that are not a record, or a record of another version, are refused")
    func unreadable() throws {
        #expect(throws: SessionRecordError.self) { try SessionRecord(decoding: Array("{}".utf8)) }
        #expect(throws: SessionRecordError.self) { try SessionRecord(decoding: Array("not json".utf8)) }
        let id = SessionIDKey.random().issue()
        let live = SessionRecord.Live(
            channelURL: "c",
            session: .init(timeline: LiveTimeline(configuration: .init(targetDuration: 6)), decisions: [], served: []))
        let liveJSON = String(decoding: try JSONEncoder().encode(live), as: UTF8.self)
        let json =
            #"{"version": 99, "id": "\#(id)", "trackingMode": "server", "mode": "interstitials", "inputs": {"request": {"url": "u"}, "baseURL": "b"}, "kind": {"type": "live", "live": \#(liveJSON)}}"#
        do {
            _ = try SessionRecord(decoding: Array(json.utf8))
            Issue.record("a version 99 record was read")
        } catch {
            #expect(
                error == .unreadable("record version 99; this Seam reads versions 2 to \(SessionRecord.currentVersion)")
            )
        }
        // The same record at the current version reads.
        let current = json.replacingOccurrences(
            of: "\"version\": 99", with: "\"version\": \(SessionRecord.currentVersion)")
        #expect(try SessionRecord(decoding: Array(current.utf8)).kind == .live(live))
        // A live record of version 3 (a timeline's entries one object each, not columns) reads.
        var object = try #require(JSONSerialization.jsonObject(with: Data(current.utf8)) as? [String: Any])
        var kind = try #require(object["kind"] as? [String: Any])
        var liveObject = try #require(kind["live"] as? [String: Any])
        var timeline = try #require(liveObject["timeline"] as? [String: Any])
        #expect(timeline["entries"] is [String: Any], "written as columns")
        timeline["entries"] = [Any]()
        liveObject["timeline"] = timeline
        kind["live"] = liveObject
        object["kind"] = kind
        object["version"] = 3
        let version3 = try JSONSerialization.data(withJSONObject: object)
        #expect(try SessionRecord(decoding: Array(version3)).kind == .live(live))
        // A live record of the previous release (its timeline without `changes`): lost, not unreadable.
        // (JSONEncoder's key order is not fixed: `changes` may come last in its object.)
        let previous = current.replacingOccurrences(
            of: "\"version\": \(SessionRecord.currentVersion)", with: "\"version\": 2"
        )
        .replacingOccurrences(of: "\"changes\":0,", with: "").replacingOccurrences(of: ",\"changes\":0", with: "")
        #expect(
            previous
                != current.replacingOccurrences(
                    of: "\"version\": \(SessionRecord.currentVersion)", with: "\"version\": 2"))
        #expect(throws: SessionRecordError.earlierRelease(version: 2)) {
            try SessionRecord(decoding: Array(previous.utf8))
        }
    }
}

/// A store that keeps each VOD session only as its encoded record, and holds nothing built
/// (`SessionTrust.never`): every request is served from the record decoded, as a replica that
/// does not hold the session would. It also keeps the built session, for the test to compare.
final class EncodedSessionStore: SessionStore {
    struct Entry {
        var bytes: [UInt8]
        var expiresAt: Date
        var fired: Set<String> = []
    }

    let maxSessions: Int
    let ttl: Double
    var trust: SessionTrust { .never }
    private let places: SessionPlaces
    private let entries = NIOLockedValueBox<[SessionID: Entry]>([:])
    private let originals = NIOLockedValueBox<[SessionID: StitchedSession]>([:])

    init(ttlSeconds: Double, maxSessions: Int) {
        ttl = ttlSeconds
        self.maxSessions = maxSessions
        places = SessionPlaces(limit: maxSessions)
    }

    var placesTaken: Int { places.taken }
    func original(_ id: SessionID) -> StitchedSession? { originals.withLockedValue { $0[id] } }
    func bytes(_ id: SessionID) -> [UInt8]? { entries.withLockedValue { $0[id]?.bytes } }

    func reserve() async throws(SessionStoreError) -> SessionReservation? { places.reserve() }
    func release(_ reservation: SessionReservation) async { places.release(reservation) }

    func insert(
        _ record: SessionRecord, into reservation: SessionReservation, now: Date
    ) async throws(SessionStoreError) -> Date? {
        guard case .vod = record.kind, let vod = StitchedSession(record: record) else {
            throw .unavailable(reason: "this store keeps VOD sessions only")
        }
        let bytes: [UInt8]
        do {
            bytes = try record.encoded()
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        guard places.occupy(reservation) else { return nil }
        let expiry = now.addingTimeInterval(ttl)
        entries.withLockedValue { $0[record.id] = Entry(bytes: bytes, expiresAt: expiry) }
        originals.withLockedValue { $0[record.id] = vod }
        return expiry
    }

    func load(
        _ id: SessionID, now: Date, readAbove: Int64?, keptAlive: Bool
    ) async throws(SessionStoreError) -> StoredLookup {
        let found = entries.withLockedValue { entries -> Entry? in
            guard let entry = entries[id], entry.expiresAt >= now || keptAlive else { return nil }
            entries[id]?.expiresAt = now.addingTimeInterval(ttl)
            return entries[id]
        }
        guard let found else { return .notFound }
        guard (readAbove ?? -1) < 0 else {
            return .found(StoredSession(record: nil, version: 0, expiresAt: found.expiresAt))
        }
        do {
            let record = try SessionRecord(decoding: found.bytes)
            return .found(StoredSession(record: record, version: 0, expiresAt: found.expiresAt))
        } catch {
            throw .unavailable(reason: "\(error)")
        }
    }

    func replaceLive(_ record: SessionRecord, version: Int64) async throws(SessionStoreError) -> Bool {
        throw .unavailable(reason: "this store keeps VOD sessions only")
    }

    func touch(_ activity: [SessionActivity]) async throws(SessionStoreError) {
        entries.withLockedValue { entries in
            for item in activity where (entries[item.id]?.expiresAt ?? .distantFuture) < item.expiresAt {
                entries[item.id]?.expiresAt = item.expiresAt
            }
        }
    }

    func claimBeacons(
        _ events: [AdProgressEvent], breakNumber: Int, ad: Int,
        in id: SessionID
    ) async throws(SessionStoreError) -> [AdProgressEvent] {
        entries.withLockedValue { entries in
            guard entries[id] != nil else { return [] }
            return events.filter { entries[id]?.fired.insert("\(breakNumber)/\(ad)/\($0.rawValue)").inserted == true }
        }
    }
    func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool {
        let removed = entries.withLockedValue { $0.removeValue(forKey: id) != nil }
        if removed { places.vacate(1) }
        return removed
    }

    func expire(now: Date) async throws(SessionStoreError) -> [SessionID] {
        let removed = entries.withLockedValue { entries in
            let stale = entries.filter { $0.value.expiresAt < now }.map(\.key)
            for id in stale { entries[id] = nil }
            return stale
        }
        places.vacate(removed.count)
        return removed
    }

    func count() async throws(SessionStoreError) -> Int { entries.withLockedValue { $0.count } }

    /// This store proves records only: it keeps no stories (the debug route shows none).
    func appendStory(
        _ entries: [SessionStoryEntry], to id: SessionID, keep: Int
    ) async throws(SessionStoreError) -> Bool { true }

    func story(of id: SessionID) async throws(SessionStoreError) -> SessionStory? { nil }
}

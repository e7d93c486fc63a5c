import Foundation
import Logging
import SeamTesting
import Stitching
import Testing

@testable import SeamServer

/// A session's story without sockets: how it is bounded, how URLs in it are redacted, which
/// sessions are logged, and that entries recorded while a session starts (before its record is
/// stored) are written once it is.
@Suite struct SessionStoryTests {
    typealias Memory = InMemorySessionStoreTests

    static func entry(_ n: Int, _ event: SessionStoryEntry.Event = .avail) -> SessionStoryEntry {
        var entry = SessionStoryEntry(time: "2026-11-29T10:00:00.00\(n)Z", event: event)
        entry.breakIndex = n
        return entry
    }

    @Test("Appending keeps the newest entries within the bound and counts those dropped")
    func bounded() {
        var story = SessionStory()
        story.append((0..<3).map { Self.entry($0) }, keep: 5)
        #expect(story.entries.map(\.breakIndex) == [0, 1, 2])
        #expect(story.dropped == 0)
        story.append((3..<7).map { Self.entry($0) }, keep: 5)
        #expect(story.entries.map(\.breakIndex) == [2, 3, 4, 5, 6])
        #expect(story.dropped == 2)
        story.append([Self.entry(7)], keep: 0)
        #expect(story.entries.map(\.breakIndex) == [7], "a bound below one keeps one")
        #expect(story.dropped == 7)
    }

    @Test(
        "URLs: secrets and personal data redacted by parameter name, user information removed, the rest as it was",
        arguments: [
            ("https://ads.example.com/vast?cust=sports&pos=pre", "https://ads.example.com/vast?cust=sports&pos=pre"),
            (
                "https://ads.example.com/vast?api_token=abc&cust=x",
                "https://ads.example.com/vast?api_token=REDACTED&cust=x"
            ),
            (
                "https://ads.example.com/v?ip=198.51.100.7&ua=Player%2F1",
                "https://ads.example.com/v?ip=REDACTED&ua=REDACTED"
            ),
            (
                "https://ads.example.com/v?gdpr_consent=CO123&gdpr=1",
                "https://ads.example.com/v?gdpr_consent=REDACTED&gdpr=1"
            ),
            ("https://ads.example.com/v?X-Device-IP=1.2.3.4", "https://ads.example.com/v?X-Device-IP=REDACTED"),
            (
                "https://ads.example.com/v?Signature=zz&Key-Pair-Id=k",
                "https://ads.example.com/v?Signature=REDACTED&Key-Pair-Id=REDACTED"
            ),
            ("https://user:pw@ads.example.com/v?a=1#frag", "https://ads.example.com/v?a=1#frag"),
            ("https://ads.example.com/v?flag&sessionid=", "https://ads.example.com/v?flag&sessionid="),
            ("not a url", "not a url"),
        ])
    func redaction(_ input: String, _ expected: String) {
        #expect(StoryURLRedaction.redacted(input) == expected)
    }

    /// A recorder over `store` with log lines captured.
    static func recorder(
        store: any SessionStore, storing: Bool = true, keep: Int = 50, sample: Double = 0, capture: LogCapture? = nil
    ) -> SessionStoryRecorder {
        SessionStoryRecorder(
            settings: .init(storing: storing, keep: keep, logSampleRate: sample), store: store,
            clock: { Memory.t0 }, logger: capture?.logger(provider: nil) ?? quietLogger)
    }

    /// Runs `body` with the recorder's worker running; stops it afterwards.
    static func running(_ recorder: SessionStoryRecorder, _ body: @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            try await body()
        }
    }

    @Test(
        "Entries recorded while a session starts wait for its record, then are written; a start that never stores writes nothing"
    )
    func entriesWaitForTheRecord() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let recorder = Self.recorder(store: store)
        try await Self.running(recorder) {
            let record = Memory.record()
            let reservation = try #require(store.reserve())
            // The VOD session's decisions come before its record is stored.
            recorder.record(record.id, [Self.entry(1), Self.entry(2)])
            await recorder.drain()
            #expect(store.story(of: record.id) == nil)
            _ = store.insert(record, into: reservation, now: Memory.t0)
            recorder.sessionStored(record.id)
            recorder.record(record.id, [Self.entry(3)])
            await recorder.drain()
            #expect(store.story(of: record.id)?.entries.map(\.breakIndex) == [1, 2, 3])

            let failed = Memory.ids.issue()
            recorder.record(failed, [Self.entry(4)])
            await recorder.drain()
            #expect(store.story(of: failed) == nil)
        }
    }

    @Test("Without debug.token nothing is stored; the sampled log still gets its lines")
    func logOnly() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let capture = LogCapture()
        let recorder = Self.recorder(store: store, storing: false, sample: 1, capture: capture)
        #expect(recorder.isOn)
        let id = try await PostgresSessionStoreTests.stored(in: store, at: 0).id
        var request = SessionStoryEntry(time: "2026-11-29T10:00:00.000Z", event: .adRequest)
        request.url = "https://ads.example.com/vast?cust=x"
        request.status = 200
        request.breakIndex = 0
        recorder.record(id, [request, Self.entry(1)])
        #expect(store.story(of: id) == nil)
        let lines = capture.lines.filter { $0.message == "session story" }
        #expect(lines.count == 2)
        #expect(lines.first?.metadata["session"] == id.value)
        #expect(lines.first?.metadata["event"] == "adRequest")
        #expect(lines.first?.metadata["url"] == "https://ads.example.com/vast?cust=x")
        #expect(lines.first?.metadata["status"] == "200")
        #expect(lines.last?.metadata["event"] == "avail")
    }

    @Test("The sampled share is chosen by session id: the same answer every time, close to the rate")
    func sampling() {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let none = Self.recorder(store: store, storing: false, sample: 0)
        let all = Self.recorder(store: store, storing: false, sample: 1)
        let tenth = Self.recorder(store: store, storing: false, sample: 0.1)
        let ids = (0..<2000).map { _ in Memory.ids.issue() }
        #expect(!none.isOn)
        #expect(ids.allSatisfy { !none.isLogged($0) && all.isLogged($0) })
        let picked = ids.filter(tenth.isLogged)
        #expect(picked == ids.filter(tenth.isLogged), "a second look picks the same sessions")
        #expect((120...280).contains(picked.count), "\(picked.count) of 2000 at 0.1")
    }

    @Test("Off: no trace is made, nothing recorded")
    func off() {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let recorder = SessionStoryRecorder.off(store: store)
        #expect(!recorder.isOn)
        #expect(recorder.newTrace() == nil)
    }

    @Test("A trace becomes entries: requests (ad tag and wrapper hops), VAST errors, playable ads, each with its break")
    func traceEntries() {
        let trace = AdDecisionTrace()
        trace.record(
            .request(
                url: "https://ads.example.com/vmap?ip=1.2.3.4", outcome: "ok", status: 200, milliseconds: 12,
                bytes: 900, wrapper: false),
            breakIndex: 0)
        trace.record(
            .request(
                url: "https://wrap.example.com/vast", outcome: "timeout", status: nil, milliseconds: 2000, bytes: 0,
                wrapper: true),
            breakIndex: 1)
        trace.record(.vastError(code: 301, what: "wrapper timed out", errorURLs: 2), breakIndex: 1)
        trace.record(
            .usableAd(adID: "ad1", seconds: 15, media: "https://cdn.example.com/ad1/master.m3u8"), breakIndex: 0)
        trace.record(.skippedAd(adID: "ad9", reason: "no HLS"), breakIndex: 0)
        trace.record(.decision(breakIndex: 0, ads: ["ad1"], skipReason: nil, detail: nil), breakIndex: 0)
        let entries = SessionStoryEntries.decisions(trace, at: Memory.t0)
        #expect(entries.map(\.event) == [.adRequest, .wrapperRequest, .vastError, .adSelected])
        #expect(entries.map(\.breakIndex) == [0, 1, 1, 0])
        #expect(entries[0].url == "https://ads.example.com/vmap?ip=REDACTED")
        #expect(entries[0].bytes == 900)
        #expect(entries[1].outcome == "timeout")
        #expect(entries[2].vastErrorCode == 301)
        #expect(entries[2].count == 2)
        #expect(entries[3].adId == "ad1")
        #expect(entries[3].seconds == 15)
        #expect(entries.allSatisfy { $0.time == "2025-01-01T00:00:00.000Z" } || entries.allSatisfy { !$0.time.isEmpty })
    }
}

import Foundation
import SeamTesting
import Testing

/// `seam watch` as a user runs it: the built executable against a real Seam and the demo, its
/// `--json` lines read as a script would.
@Suite struct WatchCommandTests {
    static func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test("seam watch --json prints every event of the demo title in order and exits 0")
    func watchesTheDemoTitle() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record(
                "the seam executable is not built next to the tests (swift build --build-tests builds it; or set SEAM_BINARY)"
            )
            return
        }
        try await SeamStack.run { stack in
            let run = try await PlayerTools.runAsync(
                seam,
                [
                    "watch", stack.demo.contentURL, "--seam", stack.seamBaseURL, "--speed", "40",
                    "--tracking", "client", "--json",
                ], timeout: 120)
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            let events = Self.lines(run.output)
            let names = events.compactMap { $0["event"] as? String }
            #expect(names.first == "sessionStarted")
            #expect(names.last == "ended")
            #expect(
                events.compactMap { $0["event"] as? String == "adStarted" ? $0["adId"] as? String : nil } == [
                    "ad1", "ad2", "ad3", "ad4",
                ])
            #expect(names.filter { $0 == "complete" }.count == 4)
            // A break's position is the tracking JSON's word; the playhead has its own field.
            let breaks = events.filter { $0["event"] as? String == "breakStarted" }
            #expect(breaks.compactMap { $0["position"] as? String } == ["preroll", "midroll", "postroll"])
            #expect(breaks.allSatisfy { $0["playhead"] is Double || $0["playhead"] is Int })
            let cuePoints = events.first { $0["event"] as? String == "cuePoints" }?["cuePoints"] as? [Double]
            #expect(cuePoints == [0, 30, -1])
            #expect(events.allSatisfy { $0["wall"] is Double || $0["wall"] is Int })
        }
    }

    @Test("seam watch takes the stream URL seam demo prints: Seam, the origin and seam.mode come from it")
    func watchesTheStreamURLTheDemoPrints() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        try await SeamStack.run { stack in
            let stream =
                stack.seamBaseURL
                + "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8"
                + "?seam.scheme=http&seam.mode=interstitials&ads.genre=news"
            // No --seam: the stream URL names it.
            let run = try await PlayerTools.runAsync(seam, ["watch", stream, "--speed", "40", "--json"], timeout: 120)
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            let events = Self.lines(run.output)
            let started = events.first { $0["event"] as? String == "sessionStarted" }
            #expect(started?["mode"] as? String == "interstitials", "\(started ?? [:])")
            #expect((started?["url"] as? String)?.hasPrefix(stack.seamBaseURL) == true)
            #expect(events.last?["event"] as? String == "ended")
            #expect(events.filter { $0["event"] as? String == "adStarted" }.count == 4)
            // The ad parameter reached the ad server.
            let requests = try await stack.request(stack.demo.beaconsURL).json["adRequests"] as? [[String: Any]] ?? []
            #expect(requests.contains { ($0["query"] as? String)?.contains("genre=news") == true }, "\(requests)")
        }
    }

    @Test("seam watch refuses a stream URL option it cannot play, naming what to use")
    func refusesAPolicyInTheStreamURL() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        let run = try PlayerTools.runSeparated(
            seam, ["watch", "http://127.0.0.1:1/v1/hls/origin.test/live.m3u8?seam.policy.restrict=skip"])
        let said = run.errors
        #expect(run.status == 64)
        #expect(said.contains("seam.policy.restrict") && said.contains("--fast-forward"), "\(said)")
        #expect(!said.contains("Usage:"), "the message names the fix; no usage text after it: \(said)")
    }

    @Test("seam watch plays a DASH session from the stream URL seam demo prints: every ad's events, each beacon once")
    func watchesTheDemoDASHTitle() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        try await SeamStack.run { stack in
            let stream =
                stack.seamBaseURL
                + "/v1/dash/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/dash/manifest.mpd"
                + "?seam.scheme=http&seam.trackingMode=server"
            let run = try await PlayerTools.runAsync(seam, ["watch", stream, "--speed", "40", "--json"], timeout: 120)
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            let events = Self.lines(run.output)
            let started = events.first { $0["event"] as? String == "sessionStarted" }
            #expect((started?["url"] as? String)?.hasSuffix("/manifest.mpd") == true, "\(started ?? [:])")
            #expect(started?["format"] as? String == "dash", "\(started ?? [:])")
            #expect(events.last?["event"] as? String == "ended")
            #expect(
                events.compactMap { $0["event"] as? String == "adStarted" ? $0["adId"] as? String : nil } == [
                    "ad1", "ad2", "ad3", "ad4",
                ])
            #expect(events.filter { $0["event"] as? String == "complete" }.count == 4)
            let breaks = events.filter { $0["event"] as? String == "breakStarted" }
            #expect(breaks.compactMap { $0["position"] as? String } == ["preroll", "midroll", "postroll"])
            // The player fetched every ad segment through Seam's route: each ad's beacons fired
            // there, once each.
            let expected = ["ad1", "ad2", "ad3", "ad4"].flatMap { ad in
                ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                    "/track/\(ad)/\($0)"
                }
            }
            // The watch has ended: every segment it fetched fired its beacons; wait for their sending.
            await stack.drainBeacons()
            let received = try await stack.beacons()
            for path in expected {
                #expect(received.filter { $0 == path }.count == 1, "\(path): \(received)")
            }
        }
    }

    @Test("seam watch with no Seam to reach: exit 1 and no event")
    func aFailedSessionExitsOne() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        let run = try await PlayerTools.runAsync(
            seam, ["watch", "http://127.0.0.1:9/none/master.m3u8", "--seam", "http://127.0.0.1:1"],
            timeout: 60)
        #expect(run.status == 1)
        #expect(Self.lines(run.output).isEmpty, "\(run.output)")
    }
}

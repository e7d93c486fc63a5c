import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamDemo
import SeamKit
import SeamTesting
import SeamWatch
import Testing

/// SeamKit watching real sessions on loopback, through `seam watch`'s headless viewer: a real
/// Seam, the demo origin and ad server, segments fetched as a player fetches them. What an app
/// would check: the events in order at the right places, each beacon once at the ad server, the
/// ad policy on seeks, live breaks, expiry and restart.
/// One at a time: each plays a whole title with real HTTP, and beside the rest of the suite on
/// 2 cores, six at once would starve the timed tests.
@Suite(.serialized) struct PlaybackEndToEndTests {
    /// Collects what the viewer reports.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [WatchEvent] = []

        func append(_ event: WatchEvent) { lock.withLock { stored.append(event) } }
        var events: [WatchEvent] { lock.withLock { stored } }

        /// The events as a viewer notes them (progress left out).
        var names: [String] {
            events.compactMap { event in
                switch event.kind {
                case .ad(.adProgress), .ad(.cuePointsChanged): return nil
                case .ad(.breakStarted(let info)): return "breakStarted \(info.id)"
                case .ad(.breakEnded(let info)): return "breakEnded \(info.id)"
                case .ad(.adStarted(let ad)): return "adStarted \(ad.id)"
                case .ad(.adEnded(let ad, let completed)): return "adEnded \(ad.id)\(completed ? "" : " incomplete")"
                case .ad(.tracking(let ad, let tracked)): return "\(tracked.rawValue) \(ad.id)"
                case .ad(.policySeek(_, let to, let reason)): return "policySeek \(Int(to)) \(reason.rawValue)"
                case .ad(.breakSkipped(let id, let reason)): return "breakSkipped \(id) \(reason)"
                case .ad(.adSkipped(let ad)): return "adSkipped \(ad.id)"
                case .ad(.error(let error)): return "error \(error)"
                case .ad(.sessionExpired): return "sessionExpired"
                case .sessionStarted: return "sessionStarted"
                case .sessionRestarted: return "sessionRestarted"
                case .viewerSeek(_, let to, let landed): return "seek \(Int(to)) landed \(Int(landed))"
                case .ended: return "ended"
                }
            }
        }

        var cuePoints: [[Double]] {
            events.compactMap {
                if case .ad(.cuePointsChanged(let points)) = $0.kind { return points } else { return nil }
            }
        }
    }

    static let quartiles = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]

    static let everyAdBeacon = ["ad1", "ad2", "ad3", "ad4"].flatMap { ad in quartiles.map { "/track/\(ad)/\($0)" } }

    /// The demo ad server's log once every path of `expected` is in it (or 5 s have passed).
    static func beacons(_ stack: SeamStack, waitingFor expected: [String]) async throws -> BeaconLog.Snapshot {
        var snapshot = await stack.demo.beaconLog.snapshot()
        for _ in 0..<50 where !expected.allSatisfy({ snapshot.counts[$0] != nil }) {
            try await Task.sleep(for: .milliseconds(100))
            snapshot = await stack.demo.beaconLog.snapshot()
        }
        return snapshot
    }

    static func played(_ ad: String) -> [String] {
        ["adStarted \(ad)"] + quartiles.map { "\($0) \(ad)" } + ["adEnded \(ad)"]
    }

    /// Watches the demo title with the headless viewer (client tracking, 40x) and `hook` hearing
    /// each event as it comes.
    static func watch(
        _ stack: SeamStack, _ adjust: (inout HeadlessViewer.Options) -> Void = { _ in },
        hook: @escaping @Sendable (WatchEvent) -> Void = { _ in }
    ) async throws -> Log {
        var options = HeadlessViewer.Options(
            seamBaseURL: try #require(URL(string: stack.seamBaseURL)),
            contentURL: try #require(URL(string: stack.demo.contentURL)),
            session: SessionOptions(trackingMode: .client), speed: 40, tick: 0.1)
        adjust(&options)
        let log = Log()
        try await HeadlessViewer(options: options).run { event in
            log.append(event)
            hook(event)
        }
        return log
    }

    @Test(
        "The demo title: pre-roll (2 ads), mid-roll, post-roll in order, cue points [0, 30, -1], each client beacon once"
    )
    func vodInOrderWithEachBeaconOnce() async throws {
        try await SeamStack.run { stack in
            let log = try await Self.watch(stack)
            let expected =
                ["sessionStarted", "breakStarted 0"] + Self.played("ad1") + Self.played("ad2") + [
                    "breakEnded 0",
                    "breakStarted 1",
                ] + Self.played("ad3") + [
                    "breakEnded 1",
                    "breakStarted 2",
                ] + Self.played("ad4") + ["breakEnded 2", "ended"]
            #expect(log.names == expected)
            #expect(log.cuePoints == [[0, 30, -1]])
            // Each event at its place: an ad starts on the first sample at or past where the
            // tracking JSON puts it (the viewer steps 4 s of media at a time).
            let starts = log.events.compactMap { event -> (String, Double, Double)? in
                if case .ad(.adStarted(let ad)) = event.kind { return (ad.id, ad.start, event.position) }
                return nil
            }
            for (id, start, position) in starts {
                #expect(
                    position >= start - 0.001 && position < start + 4.001,
                    "\(id) started at \(position), its start is \(start)")
            }
            // The demo ad server saw each client beacon exactly once.
            let snapshot = await stack.demo.beaconLog.snapshot()
            for ad in ["ad1", "ad2", "ad3", "ad4"] {
                for event in Self.quartiles {
                    #expect(
                        snapshot.counts["/track/\(ad)/\(event)"] == 1,
                        "\(ad) \(event): \(snapshot.counts["/track/\(ad)/\(event)"] ?? 0)")
                }
            }
            #expect(
                snapshot.counts.values.allSatisfy { $0 == 1 },
                "a beacon fired twice: \(snapshot.counts.filter { $0.value > 1 })")
            // All of them: the ads', the VAST wrapper's around the mid-roll, and each pod's VMAP
            // breakStart and breakEnd.
            let wrapper = Self.quartiles.map { "/track/wrapper/\($0)" }
            let pods = ["preroll", "midroll-1", "postroll"].flatMap {
                ["/track/\($0)/breakStart", "/track/\($0)/breakEnd"]
            }
            #expect(
                Set(snapshot.counts.keys) == Set(Self.everyAdBeacon + wrapper + pods),
                "\(snapshot.counts.keys.sorted())")
        }
    }

    @Test("Server tracking: SeamKit fires nothing, Seam fires each beacon once as the viewer fetches the segments")
    func serverTrackingBeaconsOnce() async throws {
        try await SeamStack.run { stack in
            let log = try await Self.watch(stack) { $0.session.trackingMode = .server }
            #expect(
                log.names.filter { $0.hasPrefix("adStarted") } == [
                    "adStarted ad1", "adStarted ad2", "adStarted ad3", "adStarted ad4",
                ])
            // Seam fires server-side beacons in the background, in no set order: wait for them all.
            let snapshot = try await Self.beacons(stack, waitingFor: Self.everyAdBeacon)
            for ad in ["ad1", "ad2", "ad3", "ad4"] {
                for event in Self.quartiles { #expect(snapshot.counts["/track/\(ad)/\(event)"] == 1, "\(ad) \(event)") }
            }
            #expect(snapshot.counts.values.allSatisfy { $0 == 1 })
        }
    }

    @Test(
        "Interstitials rendering: the same breaks, ads and quartiles at the same places; each beacon once, client or server"
    )
    func interstitialsGiveTheSameEvents() async throws {
        try await SeamStack.run { stack in
            let client = try await Self.watch(stack) { $0.session.renderingMode = .interstitials }
            let expected =
                ["sessionStarted", "breakStarted 0"] + Self.played("ad1") + Self.played("ad2") + [
                    "breakEnded 0",
                    "breakStarted 1",
                ] + Self.played("ad3") + [
                    "breakEnded 1",
                    "breakStarted 2",
                ] + Self.played("ad4") + ["breakEnded 2", "ended"]
            #expect(client.names == expected)
            #expect(client.cuePoints == [[0, 30, -1]])
            // Each ad starts as its asset starts: inside its interstitial, at the asset's first moments.
            for event in client.events {
                guard case .ad(.adStarted(let ad)) = event.kind else { continue }
                let position = try #require(event.interstitial, "\(ad.id) started outside an interstitial")
                #expect(position.assetIndex == ad.index)
                #expect(position.assetTime < 4.001)
            }
            var snapshot = await stack.demo.beaconLog.snapshot()
            for ad in ["ad1", "ad2", "ad3", "ad4"] {
                for event in Self.quartiles { #expect(snapshot.counts["/track/\(ad)/\(event)"] == 1, "\(ad) \(event)") }
            }
            await stack.demo.beaconLog.clear()

            // Server tracking: the assets' segments are Seam's beacon redirects.
            let server = try await Self.watch(stack) {
                $0.session.renderingMode = .interstitials
                $0.session.trackingMode = .server
            }
            #expect(server.names == expected)
            snapshot = try await Self.beacons(stack, waitingFor: Self.everyAdBeacon)
            for ad in ["ad1", "ad2", "ad3", "ad4"] {
                for event in Self.quartiles {
                    #expect(snapshot.counts["/track/\(ad)/\(event)"] == 1, "server \(ad) \(event)")
                }
            }
            #expect(snapshot.counts.values.allSatisfy { $0 == 1 }, "\(snapshot.counts.filter { $0.value > 1 })")
        }
    }

    @Test("Play-last: a seek past the mid-roll plays its last ad, then lands where the viewer seeked")
    func seekPastMidrollPlaysItsLastAd() async throws {
        try await SeamStack.run { stack in
            // The mid-roll is 55–75 on the stitched timeline (one 20 s ad).
            let log = try await Self.watch(stack) { $0.seeks = [.init(at: 35, to: 90)] }
            let names = log.names
            let snap = try #require(names.firstIndex(of: "policySeek 55 playBreakBeforeSeek"))
            // The viewer's seek is reported once SeamKit answered it, after the events it caused.
            let seek = try #require(names.firstIndex(of: "seek 90 landed 55"))
            let after = Array(names[snap...]).filter { $0 != names[seek] }
            #expect(
                after.starts(
                    with: ["policySeek 55 playBreakBeforeSeek", "breakStarted 1"] + Self.played("ad3")
                        + ["breakEnded 1", "policySeek 90 resumeAfterBreak", "breakStarted 2"]), "\(after)")
            #expect(names.filter { $0 == "adStarted ad3" }.count == 1)
        }
    }

    @Test(
        "Rewind over a watched break: it is skipped when playback reaches it again; under every-time and play-all it plays again"
    )
    func rewindSkipsAndRepeat() async throws {
        try await SeamStack.run { stack in
            let skipping = try await Self.watch(stack) {
                $0.session.adPlaybackPolicy = AdPlaybackPolicy(rewind: .skipAll, repeat: .everyTime)
                $0.seeks = [.init(at: 80, to: 40)]
            }
            #expect(skipping.names.filter { $0 == "adStarted ad3" }.count == 1)
            #expect(skipping.names.contains("policySeek 75 skipWatchedBreak"))

            let once = try await Self.watch(stack) { $0.seeks = [.init(at: 80, to: 40)] }
            #expect(once.names.filter { $0 == "adStarted ad3" }.count == 1, "a break plays once under play-once")
            #expect(once.names.contains("policySeek 75 skipWatchedBreak"))

            let replaying = try await Self.watch(stack) {
                $0.session.adPlaybackPolicy = AdPlaybackPolicy(rewind: .playAll, repeat: .everyTime)
                $0.seeks = [.init(at: 80, to: 40)]
            }
            #expect(replaying.names.filter { $0 == "adStarted ad3" }.count == 2)
            #expect(!replaying.names.contains { $0.contains("skipWatchedBreak") })
            // Played twice, counted once: no beacon of the three viewers' sessions fired twice.
            let snapshot = await stack.demo.beaconLog.snapshot()
            #expect(snapshot.counts["/track/ad3/impression"] == 3)
        }
    }

    @Test("A 410 becomes sessionExpired with a ready restart, which plays on from where the viewer was")
    func expiryAndRestart() async throws {
        try await SeamStack.run { stack in
            let deleted = Log()
            let seam = try #require(URL(string: stack.seamBaseURL))
            let log = try await Self.watch(stack) { options in
                options.session.trackingMode = .server
                options.speed = 10
                options.tick = 0.25
                // The session ends on Seam (as on expiry) once the viewer is back in content after the mid-roll.
                options.seeks = []
            } hook: { event in
                guard case .ad(.breakEnded(let info)) = event.kind, info.id == "1", deleted.events.isEmpty else {
                    return
                }
                deleted.append(event)
                let url = seam.appendingPathComponent("v1/sessions/\(event.sessionID)")
                Task {
                    var request = URLRequest(url: url)
                    request.httpMethod = "DELETE"
                    _ = try? await URLSession(configuration: .ephemeral).data(for: request)
                }
            }
            let names = log.names
            let expired = try #require(names.firstIndex(of: "sessionExpired"))
            #expect(names[expired + 1] == "sessionRestarted")
            let sessions = Set(log.events.map(\.sessionID))
            #expect(sessions.count == 2)
            // The new session resumes in content after the mid-roll and plays only the post-roll.
            let restart = try #require(
                log.events.first { if case .sessionRestarted = $0.kind { return true } else { return false } })
            guard case .sessionRestarted(_, _, let resume) = restart.kind else { return }
            #expect(resume >= 30 && resume <= 60, "resumed at content \(resume)")
            let afterRestart = Array(names[(expired + 1)...])
            #expect(!afterRestart.contains("adStarted ad1"), "the pre-roll was watched before the restart")
            #expect(!afterRestart.contains("adStarted ad3"), "the mid-roll was watched before the restart")
            #expect(afterRestart.contains("adStarted ad4"))
            #expect(afterRestart.last == "ended")
        }
    }

    @Test("Live: an infinite playhead reports each break from the tracking JSON's live timeline")
    func liveBreaks() async throws {
        // Put the viewer one segment before a break: the demo channel breaks on segments 3 + 7m
        // (6 s each); a player joins three segments behind the live edge.
        let joinSegment = 3 + 7 * 10 - 1
        let epoch = Date().timeIntervalSince1970 - Double((joinSegment + 3) * 6 + 1)
        try await SeamStack.run(demo: { $0.liveEpoch = epoch }, configure: { _, _ in }) { stack in
            let log = Log()
            let options = HeadlessViewer.Options(
                seamBaseURL: try #require(URL(string: stack.seamBaseURL)),
                contentURL: try #require(URL(string: stack.demo.liveURL(dialect: "cueOutIn"))),
                session: SessionOptions(trackingMode: .client), stopAfter: 32)
            try await HeadlessViewer(options: options).run { log.append($0) }
            let names = log.names
            let started = try #require(names.firstIndex { $0.hasPrefix("breakStarted") })
            let breakID = String(names[started].dropFirst("breakStarted ".count))
            let ads = names.filter { $0.hasPrefix("adStarted") }
            #expect(!ads.isEmpty)
            #expect(names.contains("breakEnded \(breakID)"))
            for ad in ads.map({ String($0.dropFirst("adStarted ".count)) }) {
                #expect(
                    names.contains("impression \(ad)") && names.contains("complete \(ad)")
                        && names.contains("adEnded \(ad)"), "\(ad): \(names)")
            }
            let snapshot = await stack.demo.beaconLog.snapshot()
            #expect(snapshot.counts.values.allSatisfy { $0 == 1 })
            #expect(snapshot.counts.keys.contains { $0.hasSuffix("/impression") })
        }
    }
}

import Foundation
import Logging
import Testing
import SeamTesting
@testable import SeamServer

/// Upstream pools sized for their purpose (origin, ads, beacons), and waiting for a connection
/// kept apart from the upstream's answer time: a burst of session starts or live breaks against
/// a slow but healthy upstream gives no error.
///
/// Heavy tier: hundreds of connections at once against answers timed in real time (0.5 s, 1 s,
/// 6 s against 2 s, 5 s, 10 s time-outs); beside the fast tier's start a loaded machine made them
/// coin tosses.
@Suite(.heavyAlone) struct UpstreamPoolTests {
    /// The value of `name{purpose="..."}` in a Prometheus exposition.
    static func sample(_ exposition: String, _ name: String, purpose: String) -> Double? {
        let prefix = "\(name){purpose=\"\(purpose)\"} "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
            Double($0.dropFirst(prefix.count))
        }
    }

    static func client(_ metrics: SeamMetrics, _ edit: (inout SeamConfiguration) -> Void) throws -> SafeUpstreamClient {
        var configuration = SeamConfiguration()
        configuration.upstream.allowPrivateNetworks = true
        edit(&configuration)
        var logger = Logger(label: "upstream-pool-test")
        logger.logLevel = .critical
        return try SafeUpstreamClient(configuration: configuration, logger: logger, metricsFactory: metrics.factory)
    }

    /// 128 session starts at once against an origin that answers every playlist in 0.5 s: every
    /// one gets its session (before: 8 connections per host, and the queue counted against the 5 s
    /// origin time-out, gave 118 `504`s). The origin pool is used up to its size and no further.
    @Test func manyConcurrentStartsAgainstASlowOriginAllSucceed() async throws {
        let server = FaultServer([
            "/slow/master.m3u8": .text(FaultMedia.multivariant(variants: 1), delay: .milliseconds(500)),
            "/slow/v0.m3u8": .text(FaultMedia.vod(segments: 10), delay: .milliseconds(500)),
        ])
        try await server.run { base in
            // The origin time-out at its 5 s default (the stack's own is wider): the bug this guards
            // against counted the queue for a connection in it.
            try await SeamStack.run({
                $0.ads.adTagURL = "";
                $0.upstream.originTimeoutSeconds = SeamConfiguration().upstream.originTimeoutSeconds
            }) { stack in
                let statuses = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                    for _ in 0..<128 {
                        group.addTask {
                            let answer = try await stack.request(
                                "/v1/sessions", method: .POST, json: ["url": base + "/slow/master.m3u8"])
                            return (answer.status, answer.errorCode ?? "")
                        }
                    }
                    var all: [(Int, String)] = []
                    for try await status in group { all.append(status) }
                    return all
                }
                let failed = statuses.filter { $0.0 != 201 }
                #expect(failed.isEmpty, "\(failed.count) of 128 starts failed: \(Set(failed.map(\.1)))")
                #expect(server.requests("/slow/") == 256)
                // The pool held as many as it may (64 per host) and never more.
                #expect(server.mostInFlight <= stack.configuration.upstream.originConnectionsPerHost)
                #expect(server.mostInFlight > 8)
                let exposition = String(decoding: stack.metrics.exposition(), as: UTF8.self)
                let waits = Self.sample(
                    exposition, SeamMetrics.upstreamConnectionWaitName + "_count", purpose: "origin")
                #expect(waits == 256, "every origin fetch's wait for a connection is measured")
            }
        }
    }

    /// One connection, a 20 s time-out, an origin answering in 11 s, two fetches at once: the
    /// second waits 11 s for the connection and then gets its answer in 11 s. 22 s in all is
    /// more than the time-out, but the origin answered within it: no time-out. The wait and the
    /// answer are measured apart. (Each answer, and the wait, has 9 s of room under the time-out:
    /// a loaded 2-core machine was seen turning a 2.5 s answer into more than 4 s, and, with
    /// 4 s of room, a 6 s answer into more than 10 s.)
    @Test func waitingForAConnectionIsNotATimeout() async throws {
        let metrics = SeamMetrics()
        let client = try Self.client(metrics) {
            $0.upstream.originConnectionsPerHost = 1
            $0.upstream.originTimeoutSeconds = 20
        }
        let server = FaultServer(["/answer": .text("#EXTM3U\n", delay: .seconds(11))])
        do {
            try await server.run { base in
                let results = await withTaskGroup(of: (Result<Int, UpstreamError>, Duration).self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            let started = ContinuousClock.now
                            do throws(UpstreamError) {
                                let status = try await client.fetch(
                                    UpstreamRequest(url: base + "/answer", purpose: .origin)
                                ).status
                                return (.success(status), ContinuousClock.now - started)
                            } catch {
                                return (.failure(error), ContinuousClock.now - started)
                            }
                        }
                    }
                    var all: [(Result<Int, UpstreamError>, Duration)] = []
                    for await result in group { all.append(result) }
                    return all
                }
                for (result, _) in results {
                    guard case .success(200) = result else { Issue.record("expected 200, got \(result)"); continue }
                }
                let longest = results.map(\.1).max() ?? .zero
                #expect(
                    longest > .seconds(20),
                    "one fetch took longer than the time-out in all (\(longest)) and still succeeded")
                #expect(server.mostInFlight == 1)
                let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
                let waited = try #require(
                    Self.sample(exposition, SeamMetrics.upstreamConnectionWaitName + "_sum", purpose: "origin"))
                let answered = try #require(
                    Self.sample(exposition, SeamMetrics.upstreamResponseName + "_sum", purpose: "origin"))
                #expect(waited >= 10, "one fetch waited for the other's connection")
                #expect(answered >= 21.5, "two answers of 11 s")
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// One connection, held by a request the origin has not answered yet: a second request whose
    /// wait ends first fails as `noConnection`, naming the setting to raise, not as a time-out of
    /// an upstream that was never asked; the held one is answered once the origin lets it go.
    @Test func aPoolThatStaysBusyIsNotReportedAsATimeout() async throws {
        let metrics = SeamMetrics()
        let client = try Self.client(metrics) { $0.upstream.originConnectionsPerHost = 1 }
        let server = FaultServer(["/held": .text("#EXTM3U\n", delay: .seconds(60))])
        do {
            try await server.run { base in
                let held = Task { () async -> Result<Int, UpstreamError> in
                    do throws(UpstreamError) {
                        return .success(
                            try await client.fetch(
                                UpstreamRequest(
                                    url: base + "/held", purpose: .origin,
                                    timeout: .seconds(30))
                            ).status)
                    } catch {
                        return .failure(error)
                    }
                }
                await server.waitForRequests(1)
                let started = ContinuousClock.now
                var second: UpstreamError?
                do throws(UpstreamError) {
                    _ = try await client.fetch(
                        UpstreamRequest(url: base + "/held", purpose: .origin, timeout: .milliseconds(300)))
                } catch {
                    second = error
                }
                guard case .noConnection(_, _, let setting)? = second else {
                    Issue.record("expected noConnection, got \(String(describing: second))")
                    server.releaseHeld()
                    _ = await held.value
                    return
                }
                #expect(setting == "upstream.originConnectionsPerHost")
                #expect(second?.description.contains("raise upstream.originConnectionsPerHost") == true)
                #expect(ContinuousClock.now - started < .seconds(10))
                #expect(server.requests() == 1, "the second request was never sent")

                server.releaseHeld()
                guard case .success(200) = await held.value else { Issue.record("the held request failed"); return }
                let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
                #expect(Self.sample(exposition, SeamMetrics.upstreamNoConnectionName, purpose: "origin") == 1)
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// 80 viewers of a live channel whose window holds a break, all starting at once, with an ad
    /// server that answers in 0.5 s: at the default `live.adRequestConcurrency` (64) and ad pool
    /// (64 connections per host) every break is filled (before: 8 connections, and the queue
    /// counted against the 2 s request time-out, lost 56 of 80 breaks to `ADS_TIMEOUT` with a 1 s
    /// server; with 0.5 s the old queue still waits 5 s). Not 1 s: a full suite on 2 busy cores
    /// took 16 of 80 requests past the 2 s time-out with 1 s of it spent in the server.
    @Test func anAdServerAnsweringInOneSecondFillsEveryLiveBreak() async throws {
        let ads = FaultServer(["/creative/": .text(FaultMedia.vod(segments: 2, seconds: 5, prefix: "ad"))])
        let origin = ScriptedLiveOrigin()
        origin.update {
            $0.last = 20; $0.cueOuts[18] = 30
        }
        try await ads.run { adsBase in
            ads.route(
                "/vast",
                .text(
                    FaultMedia.pod(count: 1) { "\(adsBase)/creative/\($0).m3u8" }, delay: .milliseconds(500),
                    contentType: "application/xml"))
            try await origin.run { liveBase in
                // The request time-out stays at its 2 s default (the bug this guards against counted
                // the wait for a connection in it); the whole budget is wide, so 80 starts on a
                // busy 2-core machine are not lost to CPU time (15 s lost 15 of 80 under
                // stress-suite with a core busy).
                try await SeamStack.run({
                    $0.ads.adTagURL = adsBase + "/vast"
                    $0.ads.requestTimeoutSeconds = SeamConfiguration().ads.requestTimeoutSeconds
                    $0.ads.totalBudgetSeconds = 60
                }) { stack in
                    #expect(stack.configuration.ads.requestTimeoutSeconds == 2)
                    #expect(
                        stack.configuration.live.adRequestConcurrency == SeamConfiguration().live.adRequestConcurrency)
                    let reasons = try await withThrowingTaskGroup(of: [String].self) { group in
                        for _ in 0..<80 {
                            group.addTask {
                                let session = try await stack.createSession(url: liveBase + "/master.m3u8")
                                let tracking = try await stack.request(try #require(session["trackingUrl"] as? String))
                                let avails = tracking.json["avails"] as? [[String: Any]] ?? []
                                guard !avails.isEmpty else { return ["no avail"] }
                                return avails.map { avail in
                                    let filled = (avail["ads"] as? [[String: Any]])?.isEmpty == false
                                    return filled ? "filled" : (avail["skipReason"] as? String ?? "unfilled")
                                }
                            }
                        }
                        var all: [String] = []
                        for try await reasons in group { all += reasons }
                        return all
                    }
                    #expect(reasons.count == 80)
                    #expect(
                        reasons.filter { $0 != "filled" }.isEmpty,
                        "\(Dictionary(grouping: reasons, by: { $0 }).mapValues(\.count))")
                    #expect(ads.requests("/vast") == 80)
                    #expect(ads.mostInFlight > 8, "the ad server saw the requests in parallel")
                }
            }
        }
    }
}

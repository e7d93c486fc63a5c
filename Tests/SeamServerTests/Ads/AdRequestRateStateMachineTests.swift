import NIOConcurrencyHelpers
import Testing

@testable import SeamServer

/// The per-host request cap as a table of events: no sockets, no sleeps, time passed in.
@Suite struct AdRequestRateStateMachineTests {
    typealias Machine = AdRequestRateStateMachine
    static let t0 = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant {
        t0 + .nanoseconds(Int64(seconds * 1e9))
    }

    /// One event and what the machine must answer.
    enum Step {
        case admit(id: Int, host: String, deadline: Double, at: Double, expect: Machine.Admission)
        case tick(at: Double, expect: [Machine.Release], nextWake: Double?)
        case cancel(id: Int, expect: Bool)
        case waiting(host: String, expect: Int)
        /// The caps are shared among this many replicas from now on.
        case share(Int)
    }

    static func run(_ machine: inout Machine, _ steps: [Step]) {
        for (index, step) in steps.enumerated() {
            switch step {
            case .admit(let id, let host, let deadline, let time, let expected):
                let got = machine.admit(id: id, host: host, deadline: at(deadline), now: at(time))
                #expect(got == expected, "step \(index): admit \(id)")
            case .tick(let time, let expected, let wake):
                let got = machine.tick(now: at(time))
                #expect(got.releases == expected, "step \(index): tick at \(time)")
                #expect(got.nextWake == wake.map(at), "step \(index): next wake")
            case .cancel(let id, let expected):
                #expect(machine.cancel(id: id) == expected, "step \(index): cancel \(id)")
            case .waiting(let host, let expected):
                #expect(machine.waiting(for: host) == expected, "step \(index): waiting")
            case .share(let replicas):
                machine.share(among: replicas)
            }
        }
    }

    @Test("A host without a cap (and no fallback) is never held")
    func uncapped() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 1)], fallback: nil)
        Self.run(
            &machine,
            (0..<50).map { .admit(id: $0, host: "other.example.com", deadline: 1, at: 0, expect: .proceed) })
    }

    @Test("Paced by default: one goes at once, the rest wait for tokens, one per 1/rate seconds")
    func paced() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 2)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ADS.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.5))),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0.1, expect: .wait(wakeAt: Self.at(0.5))),
                .tick(at: 0.5, expect: [.proceed(2)], nextWake: 1.0),
                .tick(at: 1.0, expect: [.proceed(3)], nextWake: nil),
                // Idle for long: still one saved up, no more.
                .admit(id: 4, host: "ads.example.com", deadline: 20, at: 10, expect: .proceed),
                .admit(id: 5, host: "ads.example.com", deadline: 20, at: 10, expect: .wait(wakeAt: Self.at(10.5))),
            ])
    }

    @Test("With a burst, that many go at once, and still no second sends more than the cap")
    func tokenBucket() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 2, burst: 2)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ADS.example.com", deadline: 10, at: 0, expect: .proceed),
                // A token comes at 0.5, but two went in the second from 0.
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 4, host: "ads.example.com", deadline: 10, at: 0.1, expect: .wait(wakeAt: Self.at(1))),
                .waiting(host: "ads.example.com", expect: 2),
                .tick(at: 0.5, expect: [], nextWake: 1),
                .tick(at: 1.0, expect: [.proceed(3), .proceed(4)], nextWake: nil),
                .waiting(host: "ads.example.com", expect: 0),
                // The bucket refills up to its burst (2), no more.
                .admit(id: 5, host: "ads.example.com", deadline: 20, at: 10, expect: .proceed),
                .admit(id: 6, host: "ads.example.com", deadline: 20, at: 10, expect: .proceed),
                .admit(id: 7, host: "ads.example.com", deadline: 20, at: 10, expect: .wait(wakeAt: Self.at(11))),
            ])
    }

    @Test("A tick that comes late lets the requests due meanwhile go, as far as the second's cap allows")
    func lateTick() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 4)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.25))),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.25))),
                .admit(id: 4, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.25))),
                .admit(id: 5, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.25))),
                .admit(id: 6, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.25))),
                // Woken at 0.625 instead of 0.25: the two due at 0.25 and 0.5 go now.
                .tick(at: 0.625, expect: [.proceed(2), .proceed(3)], nextWake: 0.75),
                // Four went in the second from 0: the next may go at 1.0, a second after the first.
                .tick(at: 0.75, expect: [.proceed(4)], nextWake: 1.0),
                .tick(at: 1.9, expect: [.proceed(5), .proceed(6)], nextWake: nil),
            ])
    }

    @Test("Waiting requests go earliest deadline first, whatever order they asked in")
    func earliestDeadlineFirst() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 1, burst: 1)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 30, at: 0, expect: .proceed),
                .admit(id: 2, host: "ads.example.com", deadline: 30, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 3, host: "ads.example.com", deadline: 5, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 4, host: "ads.example.com", deadline: 20, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 5, host: "ads.example.com", deadline: 5, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .tick(at: 1, expect: [.proceed(3)], nextWake: 2),
                .tick(at: 2, expect: [.proceed(5)], nextWake: 3),
                .tick(at: 3, expect: [.proceed(4)], nextWake: 4),
                .tick(at: 4, expect: [.proceed(2)], nextWake: nil),
            ])
    }

    @Test("A request whose deadline passes while it waits is given up, not sent late; one past its deadline is refused")
    func deadlines() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 1, burst: 1)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ads.example.com", deadline: 0.5, at: 0, expect: .wait(wakeAt: Self.at(0.5))),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.5))),
                .tick(at: 0.5, expect: [.expired(2)], nextWake: 1),
                .tick(at: 1, expect: [.proceed(3)], nextWake: nil),
                .admit(id: 4, host: "ads.example.com", deadline: 1, at: 1, expect: .expired),
            ])
    }

    @Test("A cancelled request leaves the queue; the next one gets its token")
    func cancellation() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 1, burst: 1)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .cancel(id: 2, expect: true),
                .cancel(id: 2, expect: false),
                .tick(at: 1, expect: [.proceed(3)], nextWake: nil),
            ])
    }

    @Test("Hosts are capped apart: a listed host by its own rate, every other by the fallback, each its own bucket")
    func hostsApart() {
        var machine = Machine(
            limits: ["ads.example.com": .init(perSecond: 1, burst: 1)], fallback: .init(perSecond: 1, burst: 1))
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "wrapper.example.net", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 3, host: "tracker.example.org", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 4, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(1))),
                .admit(id: 5, host: "wrapper.example.net", deadline: 10, at: 0.5, expect: .wait(wakeAt: Self.at(1))),
                .tick(at: 1, expect: [.proceed(4), .proceed(5)], nextWake: nil),
            ])
    }

    @Test("However the requests arrive, no second sends a host more than its cap, the first included")
    func neverOverTheCap() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 10)], fallback: nil)
        var sent: [Double] = []
        var pending: [Int] = []
        var clock = 0.0
        // 1,000 requests in the first second, each with 60 s to go; ticks every 10 ms for 70 s.
        for id in 0..<1000 {
            switch machine.admit(
                id: id, host: "ads.example.com", deadline: Self.at(60), now: Self.at(Double(id) / 1000))
            {
            case .proceed: sent.append(Double(id) / 1000)
            case .wait: pending.append(id)
            case .expired: Issue.record("expired at once")
            }
        }
        var expired = 0
        while clock < 70 {
            clock += 0.01
            for release in machine.tick(now: Self.at(clock)).releases {
                switch release {
                case .proceed: sent.append(clock)
                case .expired: expired += 1
                }
            }
        }
        #expect(sent.count + expired == 1000)
        // 10 a second for 60 s.
        #expect(sent.count <= 10 * 60 + 1, "\(sent.count)")
        #expect(sent.count >= 10 * 60 - 1, "\(sent.count)")
        // Every window of one second, on a 10 ms grid, not only calendar seconds.
        for start in stride(from: 0.0, to: 60, by: 0.01) {
            let inSecond = sent.filter { $0 >= start - 1e-9 && $0 < start + 1 - 1e-9 }.count
            #expect(inSecond <= 10, "the second from \(start): \(inSecond)")
            if inSecond > 10 { break }
        }
    }

    @Test(
        "Shared among two replicas, each holds a host to half its cap; when the other goes, the whole cap again, for the waiting requests too"
    )
    func sharedAmongReplicas() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 4)], fallback: nil)
        Self.run(
            &machine,
            [
                .share(2),
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                // 2 a second: the next token in half a second.
                .admit(id: 2, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.5))),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0, expect: .wait(wakeAt: Self.at(0.5))),
                .tick(at: 0.5, expect: [.proceed(2)], nextWake: 1.0),
                // The other replica is gone: 4 a second again, a token a quarter second after the last send.
                .share(1),
                .tick(at: 0.75, expect: [.proceed(3)], nextWake: nil),
            ])
        #expect(machine.replicas == 1)
    }

    @Test("A replica that joins shrinks the others' window: the newest sends that fit the new share stay in it")
    func shareShrinksTheWindow() {
        var machine = Machine(limits: ["ads.example.com": .init(perSecond: 4)], fallback: nil)
        Self.run(
            &machine,
            [
                .admit(id: 1, host: "ads.example.com", deadline: 10, at: 0, expect: .proceed),
                .admit(id: 2, host: "ads.example.com", deadline: 10, at: 0.25, expect: .proceed),
                .admit(id: 3, host: "ads.example.com", deadline: 10, at: 0.5, expect: .proceed),
                .admit(id: 4, host: "ads.example.com", deadline: 10, at: 0.75, expect: .proceed),
                // Half the cap from now: 2 in any second, and the last second already sent 0.5 and 0.75.
                .share(2),
                .admit(id: 5, host: "ads.example.com", deadline: 10, at: 0.9, expect: .wait(wakeAt: Self.at(1.5))),
                .tick(at: 1.5, expect: [.proceed(5)], nextWake: nil),
                // Shares are held to at least one replica.
                .share(0),
            ])
        #expect(machine.replicas == 1)
    }

    @Test("Rates out of range are held to 0.001–1,000,000 a second: no wait overflows, none is negative")
    func extremeRates() {
        for rate in [1e-300, 0, -5, .infinity, .nan, 1e300] {
            var machine = Machine(limits: ["ads.example.com": .init(perSecond: rate)], fallback: nil)
            _ = machine.admit(id: 1, host: "ads.example.com", deadline: Self.at(1e6), now: Self.at(0))
            let second = machine.admit(id: 2, host: "ads.example.com", deadline: Self.at(1e6), now: Self.at(0))
            if case .wait(let wake) = second { #expect(wake >= Self.at(0) && wake <= Self.at(86_400), "\(rate)") }
            _ = machine.tick(now: Self.at(2e5))
        }
        #expect(AdRequestShaper.parse("ads.example.com=1e-300") == nil)
        #expect(AdRequestShaper.parse("ads.example.com=0.5")?.1 == 0.5)
    }
}

/// The shaper around the machine: the replicas are asked on every request, and shown.
@Suite struct AdRequestShaperReplicasTests {
    @Test("The shaper shares the caps among the replicas it is told of, and says how many in its gauge")
    func theShaperSharesTheCapsAmongReplicas() async {
        let metrics = SeamMetrics()
        let replicas = NIOLockedValueBox(2)
        let shaper = AdRequestShaper(
            limits: ["ads.example.com": 4], metricsFactory: metrics.factory,
            replicas: { replicas.withLockedValue { $0 } })
        let gauge = { ConnectionHarness.value("seam_ad_request_cap_replicas", metrics) }
        #expect(gauge() == 1)
        #expect(await shaper.admit(host: "ads.example.com", deadline: .now + .seconds(60)))
        #expect(gauge() == 2)
        // A third replica heard: the next request (any host) takes the new share.
        replicas.withLockedValue { $0 = 3 }
        #expect(await shaper.admit(host: "other.example.com", deadline: .now + .seconds(60)))
        #expect(gauge() == 3)
    }
}

import CoreMetrics
import Foundation
import NIOConcurrencyHelpers

/// Holds each ad request until its host's cap (`ads.requestsPerSecond`) allows it, earliest
/// deadline first (`AdRequestRateStateMachine`), so a break that thousands of viewers reach at
/// once never sends an ad server more than it agreed to take — the whole deployment's, as each
/// replica of a PostgreSQL store holds a host to its share of the cap (`ReplicaCensus`); a request whose ad budget ends
/// while it waits is not sent (its break plays as out of time, `BUDGET_EXHAUSTED`).
///
/// The owner of the machine: it takes the lock, asks, and resumes waiters outside the lock. A
/// waiting request is a continuation, not a task; one timer task sleeps until the earliest
/// moment a token comes or a deadline passes.
package final class AdRequestShaper: Sendable {
    private struct State: Sendable {
        var machine: AdRequestRateStateMachine
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// What became of a request before its continuation was registered (released by a tick,
        /// or cancelled, in between): it is resumed as it registers.
        var early: [Int: Bool] = [:]
        /// The wake the timer sleeps until, and the timer's generation: a timer whose generation
        /// is no longer this one stops (an earlier wake replaced it).
        var timerWake: ContinuousClock.Instant?
        var generation = 0
    }

    private let state: NIOLockedValueBox<State>
    private let clock: SeamClock
    private let metrics: Metrics
    /// How many replicas share the caps (`ReplicaCensus`): each holds a host to its share.
    private let replicas: @Sendable () -> Int

    /// The configured caps, by host; `*` for every other host.
    /// - Parameter replicas: the replicas the caps are shared among, asked on every request.
    package init(
        limits: [String: Double], clock: SeamClock = .continuous,
        metricsFactory: any MetricsFactory = MetricsSystem.factory, replicas: @escaping @Sendable () -> Int = { 1 }
    ) {
        var byHost: [String: AdRequestRateStateMachine.Limit] = [:]
        var fallback: AdRequestRateStateMachine.Limit?
        for (host, rate) in limits where rate > 0 {
            if host == "*" {
                fallback = .init(perSecond: rate)
            } else {
                byHost[host.lowercased()] = .init(perSecond: rate)
            }
        }
        state = NIOLockedValueBox(State(machine: AdRequestRateStateMachine(limits: byHost, fallback: fallback)))
        self.clock = clock
        self.replicas = replicas
        metrics = Metrics(hosts: Array(byHost.keys), factory: metricsFactory)
        metrics.shared(among: 1)
    }

    /// From `ads.requestsPerSecond` (entries `host=rate`, checked when the configuration loads);
    /// nil when it caps nothing.
    package convenience init?(
        _ configuration: SeamConfiguration.Ads, clock: SeamClock = .continuous,
        metricsFactory: any MetricsFactory = MetricsSystem.factory, replicas: @escaping @Sendable () -> Int = { 1 }
    ) {
        let limits = configuration.requestsPerSecond.compactMap(Self.parse)
        guard !limits.isEmpty else { return nil }
        self.init(
            limits: Dictionary(limits, uniquingKeysWith: { _, last in last }), clock: clock,
            metricsFactory: metricsFactory, replicas: replicas)
    }

    /// `host=rate` (`*=rate` for every other host); nil when it is not one.
    package static func parse(_ entry: String) -> (String, Double)? {
        let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, let rate = Double(parts[1]), rate >= 0.001, rate <= 1_000_000
        else {
            return nil
        }
        return (parts[0].lowercased(), rate)
    }

    /// Waits until a request to `host` may be sent; false when `deadline` came first (do not send).
    package func admit(host: String, deadline: ContinuousClock.Instant) async -> Bool {
        let now = clock.now
        let replicas = replicas()
        let (admission, id, reshared) = state.withLockedValue {
            state -> (AdRequestRateStateMachine.Admission, Int, Bool) in
            let reshared = reshare(&state, among: replicas)
            state.nextID += 1
            let admission = state.machine.admit(id: state.nextID, host: host, deadline: deadline, now: now)
            return (admission, state.nextID, reshared)
        }
        if reshared { retime() }
        switch admission {
        case .proceed:
            metrics.sent(host)
            return true
        case .expired:
            metrics.expired(host)
            return false
        case .wait(let wakeAt):
            recordDepths()
            let admitted = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let (early, timer) = state.withLockedValue { state -> (Bool?, Int?) in
                        if let early = state.early.removeValue(forKey: id) { return (early, nil) }
                        state.waiters[id] = continuation
                        guard state.timerWake.map({ wakeAt < $0 }) ?? true else { return (nil, nil) }
                        state.timerWake = wakeAt
                        state.generation += 1
                        return (nil, state.generation)
                    }
                    if let early { continuation.resume(returning: early) }
                    if let timer { startTimer(generation: timer, wake: wakeAt) }
                }
            } onCancel: {
                let waiter = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
                    guard state.machine.cancel(id: id) else { return nil }
                    guard let waiter = state.waiters.removeValue(forKey: id) else {
                        state.early[id] = false
                        return nil
                    }
                    return waiter
                }
                waiter?.resume(returning: false)
            }
            admitted ? metrics.sent(host) : metrics.expired(host)
            return admitted
        }
    }

    /// Replicas came or went: each host's share changes, waiting requests included; the gauge
    /// says so under the same lock, so two changes at once cannot leave it at the older.
    /// True when the share changed.
    private func reshare(_ state: inout State, among replicas: Int) -> Bool {
        guard state.machine.replicas != min(max(1, replicas), 10_000) else { return false }
        state.machine.share(among: replicas)
        metrics.shared(among: state.machine.replicas)
        return true
    }

    /// A new timer that ticks now, when requests wait (a changed share may let them go sooner).
    private func retime() {
        let now = clock.now
        let generation = state.withLockedValue { state -> Int? in
            guard !state.waiters.isEmpty else { return nil }
            state.generation += 1
            state.timerWake = now
            return state.generation
        }
        if let generation { startTimer(generation: generation, wake: now) }
    }

    /// The timer of generation `generation`: ticks the machine at `wake`, then at each next wake
    /// while requests wait, until a newer timer replaces it.
    private func startTimer(generation: Int, wake: ContinuousClock.Instant) {
        Task { [self] in
            var next: ContinuousClock.Instant? = wake
            while let at = next {
                try? await clock.sleep(until: at)
                next = tick(generation: generation)
            }
        }
    }

    /// Lets go what the machine releases now. Returns when this timer should tick next; nil when
    /// nothing waits or a newer timer took over.
    private func tick(generation: Int) -> ContinuousClock.Instant? {
        let now = clock.now
        let replicas = replicas()
        let (released, next) = state.withLockedValue {
            state -> ([(CheckedContinuation<Bool, Never>, Bool)], ContinuousClock.Instant?) in
            guard state.generation == generation else { return ([], nil) }
            // Requests waiting through a break take a share that changed meanwhile.
            _ = reshare(&state, among: replicas)
            let (releases, nextWake) = state.machine.tick(now: now)
            var released: [(CheckedContinuation<Bool, Never>, Bool)] = []
            for release in releases {
                let (id, admitted): (Int, Bool)
                switch release {
                case .proceed(let waiter): (id, admitted) = (waiter, true)
                case .expired(let waiter): (id, admitted) = (waiter, false)
                }
                if let waiter = state.waiters.removeValue(forKey: id) {
                    released.append((waiter, admitted))
                } else {
                    state.early[id] = admitted
                }
            }
            state.timerWake = nextWake
            return (released, nextWake)
        }
        if !released.isEmpty { recordDepths() }
        for (continuation, admitted) in released { continuation.resume(returning: admitted) }
        return next
    }

    /// The waiting gauges, each configured host's and the others' together.
    private func recordDepths() {
        let depths = state.withLockedValue { $0.machine.waitingByHost() }
        metrics.waiting(depths)
    }

    /// Requests waiting now for `host` (tests, and `seam_ad_requests_shaped_waiting`).
    package func waiting(for host: String) -> Int { state.withLockedValue { $0.machine.waiting(for: host) } }

    /// `seam_ad_requests_shaped_total{host,outcome}` and `seam_ad_requests_shaped_waiting{host}`,
    /// labelled by the configured hosts only (`other` for the rest), so labels stay few.
    private struct Metrics: Sendable {
        let hosts: Set<String>
        let factory: any MetricsFactory

        init(hosts: [String], factory: any MetricsFactory) {
            self.hosts = Set(hosts)
            self.factory = factory
        }

        func label(_ host: String) -> String {
            let lowered = host.lowercased()
            return hosts.contains(lowered) ? lowered : "other"
        }

        /// `seam_ad_request_cap_replicas`: the replicas each cap is divided among.
        func shared(among replicas: Int) {
            Gauge(label: AdRequestShaper.replicasName, factory: factory).record(replicas)
        }

        func sent(_ host: String) { count(host, "sent") }
        func expired(_ host: String) { count(host, "expired") }

        private func count(_ host: String, _ outcome: String) {
            Counter(
                label: AdRequestShaper.shapedName, dimensions: [("host", label(host)), ("outcome", outcome)],
                factory: factory
            ).increment()
        }

        func waiting(_ depths: [String: Int]) {
            var byLabel = Dictionary(uniqueKeysWithValues: (Array(hosts) + ["other"]).map { ($0, 0) })
            for (host, depth) in depths { byLabel[label(host), default: 0] += depth }
            for (host, depth) in byLabel {
                Gauge(label: AdRequestShaper.waitingName, dimensions: [("host", host)], factory: factory).record(depth)
            }
        }
    }

    package static let shapedName = "seam_ad_requests_shaped_total"
    package static let waitingName = "seam_ad_requests_shaped_waiting"
    package static let replicasName = "seam_ad_request_cap_replicas"
}

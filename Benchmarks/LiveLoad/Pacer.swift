import NIOCore
import NIOHTTP1

/// Per-second counts of the reload phase, by scheduled send time.
struct SecondBucket: Codable {
    var second: Int
    var scheduled = 0
    var ok = 0
    var errors = 0
    var overSlo = 0
    var maxMs = 0.0
}

/// Everything measured during a paced phase. Confined to the event loop.
struct PhaseRecorder {
    var latency = Histogram()      // scheduled send time -> last byte of the answer (the headline)
    var service = Histogram()      // written -> last byte (what a closed-loop tool like wrk reports)
    var timerLag = Histogram()     // scheduled -> handed to the pool: the generator's own lateness
    var queueWait = Histogram()    // handed to the pool -> written: waiting for a free connection
    var statuses: [Int: Int] = [:]
    var failures: [String: Int] = [:]
    var bytes = 0
    var timeline: [SecondBucket] = []
    let sloMicros: UInt64
    let origin: NIODeadline

    init(sloMs: Double, origin: NIODeadline) {
        sloMicros = UInt64(sloMs * 1000)
        self.origin = origin
    }

    private mutating func bucket(_ scheduled: NIODeadline) -> Int {
        let second = max(0, Int((scheduled - origin).nanoseconds / 1_000_000_000))
        while timeline.count <= second { timeline.append(SecondBucket(second: timeline.count)) }
        return second
    }

    mutating func scheduled(at time: NIODeadline) {
        timeline[bucket(time)].scheduled += 1
    }

    mutating func record(_ request: LoadRequest, _ outcome: LoadOutcome) {
        let b = bucket(request.scheduled)
        switch outcome {
        case .response(let status, _, let size, let written, let finished):
            statuses[status, default: 0] += 1
            guard (200..<300).contains(status) else { timeline[b].errors += 1; return }
            bytes += size
            let total = (finished - request.scheduled).nanoseconds
            latency.record(nanoseconds: total)
            service.record(nanoseconds: (finished - written).nanoseconds)
            timerLag.record(nanoseconds: (request.enqueued - request.scheduled).nanoseconds)
            queueWait.record(nanoseconds: (written - request.enqueued).nanoseconds)
            timeline[b].ok += 1
            let ms = Double(total) / 1e6
            if ms > timeline[b].maxMs { timeline[b].maxMs = (ms * 1000).rounded() / 1000 }
            if UInt64(max(0, total)) / 1000 > sloMicros { timeline[b].overSlo += 1 }
        case .failure(let kind):
            failures[kind, default: 0] += 1
            timeline[b].errors += 1
        }
    }
}

/// Open-loop pacing: session i sends at start + phase_i + k × period for k = 0, 1, … until `end`,
/// whether or not its previous request has been answered (a player reloads on its own clock). One
/// timer walks the sessions in phase order and re-arms itself for the next due time, so 10,000
/// sessions cost one timer, not 10,000. Latency is measured from the scheduled time, so any delay
/// — the generator's timer firing late, a request waiting for a free connection, the server
/// queueing — is counted (no coordinated omission).
final class Pacer: @unchecked Sendable {
    struct Target {
        let pool: ConnectionPool
        let target: String
        /// The session's viewer address (X-Forwarded-For), when the generator plays distinct viewers.
        var forwardedFor: String? = nil
    }

    let loop: EventLoop
    let targets: [Target]
    private let order: [(phase: Int64, session: Int)]
    private let period: Int64
    private var start = NIODeadline.now()
    private var end = NIODeadline.now()
    private var measureFrom = NIODeadline.now()
    private var cursor = 0
    private var cycle: Int64 = 0
    private var stopped = false
    private var outstanding = 0
    private var drained: EventLoopPromise<Void>?
    private(set) var recorder: PhaseRecorder
    private(set) var sent = 0
    private(set) var sentUnmeasured = 0

    init(loop: EventLoop, targets: [Target], period: TimeAmount, sloMs: Double, seed: UInt64) {
        self.loop = loop
        self.targets = targets
        self.period = period.nanoseconds
        var rng = SplitMix64(seed: seed)
        let p = period.nanoseconds
        order = targets.indices.map { (phase: Int64(rng.next() % UInt64(p)), session: $0) }.sorted { $0.phase < $1.phase }
        recorder = PhaseRecorder(sloMs: sloMs, origin: .now())
    }

    /// Starts pacing now: warm-up (sent, not recorded), then `duration` measured. The future
    /// completes when scheduling has stopped and every request sent has been answered or failed.
    func run(warmup: TimeAmount, duration: TimeAmount) -> EventLoopFuture<Void> {
        loop.preconditionInEventLoop()
        start = .now()
        measureFrom = start + warmup
        end = measureFrom + duration
        recorder = PhaseRecorder(sloMs: Double(recorder.sloMicros) / 1000, origin: measureFrom)
        let promise = loop.makePromise(of: Void.self)
        drained = promise
        tick()
        return promise.futureResult
    }

    private func tick() {
        let now = NIODeadline.now()
        while true {
            let entry = order[cursor]
            let due = start + .nanoseconds(cycle * period + entry.phase)
            if due >= end {
                stopped = true
                if outstanding == 0 { drained?.succeed(()); drained = nil }
                return
            }
            if due > now {
                loop.scheduleTask(deadline: due) { [self] in tick() }
                return
            }
            dispatch(entry.session, scheduled: due, now: now)
            cursor += 1
            if cursor == order.count { cursor = 0; cycle += 1 }
        }
    }

    private func dispatch(_ session: Int, scheduled: NIODeadline, now: NIODeadline) {
        let target = targets[session]
        let measured = scheduled >= measureFrom
        if measured { sent += 1; recorder.scheduled(at: scheduled) } else { sentUnmeasured += 1 }
        outstanding += 1
        target.pool.submit(LoadRequest(method: .GET, target: target.target, forwardedFor: target.forwardedFor, keepBody: false, scheduled: scheduled,
                                       enqueued: now) { [self] request, outcome in
            finish(request, outcome, measured: measured)
        })
    }

    private func finish(_ request: LoadRequest, _ outcome: LoadOutcome, measured: Bool) {
        if measured { recorder.record(request, outcome) }
        outstanding -= 1
        if stopped && outstanding == 0 { drained?.succeed(()); drained = nil }
    }
}

/// A small, fast, seedable generator for the phases (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

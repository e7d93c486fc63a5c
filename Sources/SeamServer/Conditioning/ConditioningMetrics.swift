import CoreMetrics

/// What conditioning measures (`/metrics`): jobs waiting and running, how long each job took and
/// how it ended, how often a session start found its creative on disk, and the bytes on disk.
struct ConditioningMetrics: Sendable {
    static let queuedName = "seam_conditioning_jobs_queued"
    static let runningName = "seam_conditioning_jobs_running"
    static let jobName = "seam_conditioning_job_duration_seconds"
    static let lookupsName = "seam_conditioning_lookups_total"
    static let bytesName = "seam_conditioning_bytes_on_disk"

    private let queued: Gauge
    private let running: Gauge
    private let conditioned: Timer
    private let failed: Timer
    private let hit: Counter
    private let miss: Counter
    private let bytes: Gauge

    init(factory: any MetricsFactory) {
        queued = Gauge(label: Self.queuedName, factory: factory)
        running = Gauge(label: Self.runningName, factory: factory)
        conditioned = Timer(label: Self.jobName, dimensions: [("outcome", "conditioned")], factory: factory)
        failed = Timer(label: Self.jobName, dimensions: [("outcome", "failed")], factory: factory)
        hit = Counter(label: Self.lookupsName, dimensions: [("result", "hit")], factory: factory)
        miss = Counter(label: Self.lookupsName, dimensions: [("result", "miss")], factory: factory)
        bytes = Gauge(label: Self.bytesName, factory: factory)
    }

    func load(running: Int, queued: Int) {
        self.running.record(running)
        self.queued.record(queued)
    }

    func job(_ duration: Duration, conditioned wasConditioned: Bool) {
        (wasConditioned ? conditioned : failed).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func lookup(hit wasHit: Bool) {
        (wasHit ? hit : miss).increment()
    }

    func onDisk(_ total: Int) {
        bytes.record(total)
    }
}

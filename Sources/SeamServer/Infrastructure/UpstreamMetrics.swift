import CoreMetrics

/// What the upstream client measures per purpose: how long requests waited for one of Seam's
/// own connections, apart from how long the upstream took to answer once asked. A slow origin
/// and a pool too small for the load look alike in a time-out; these tell them apart.
struct UpstreamMetrics: Sendable {
    private struct PerPurpose: Sendable {
        let wait: Timer
        let answer: Timer
        let noConnection: Counter
    }

    private let metrics: [UpstreamPurpose: PerPurpose]

    init(factory: any MetricsFactory) {
        var metrics: [UpstreamPurpose: PerPurpose] = [:]
        for purpose in [UpstreamPurpose.origin, .adDecision, .adMedia, .beacon, .analytics, .conditioning] {
            let dimensions = [("purpose", purpose.rawValue)]
            metrics[purpose] = PerPurpose(
                wait: Timer(label: SeamMetrics.upstreamConnectionWaitName, dimensions: dimensions, factory: factory),
                answer: Timer(label: SeamMetrics.upstreamResponseName, dimensions: dimensions, factory: factory),
                noConnection: Counter(
                    label: SeamMetrics.upstreamNoConnectionName, dimensions: dimensions, factory: factory))
        }
        self.metrics = metrics
    }

    func recordWait(_ duration: Duration, purpose: UpstreamPurpose) {
        metrics[purpose]?.wait.recordNanoseconds(Self.nanoseconds(duration))
    }

    func recordAnswer(_ duration: Duration, purpose: UpstreamPurpose) {
        metrics[purpose]?.answer.recordNanoseconds(Self.nanoseconds(duration))
    }

    func recordNoConnection(purpose: UpstreamPurpose) {
        metrics[purpose]?.noConnection.increment()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

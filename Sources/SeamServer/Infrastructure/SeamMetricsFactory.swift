import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus

/// swift-metrics onto Seam's Prometheus registry, with each family's `# HELP` line from
/// `SeamMetricCatalog`. swift-prometheus's own factory registers every family without help text,
/// and a registry refuses one name with two help texts, so every metric of the registry (Seam's
/// and those libraries record once `SeamMetrics.bootstrapMetricsSystem()` ran) is made here.
package struct SeamMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    let durationBuckets: [Duration]
    let valueBuckets: [Double]
    /// Counters already made, by label and dimensions: a series counted on a hot path (each
    /// decided break's KPIs, each beacon) is a dictionary lookup, not the registry's checks of
    /// the name, labels and help text under its lock every time.
    private let counters = CounterHandles()

    init(registry: PrometheusCollectorRegistry, durationBuckets: [Duration], valueBuckets: [Double]) {
        self.registry = registry
        self.durationBuckets = durationBuckets
        self.valueBuckets = valueBuckets
    }

    func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: SeamMetricCatalog.help(for: label))
    }

    package func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        counter(label, dimensions)
    }

    package func makeFloatingPointCounter(
        label: String, dimensions: [(String, String)]
    ) -> any FloatingPointCounterHandler {
        counter(label, dimensions)
    }

    /// The registry's counter for `label` and `dimensions` (one series: the registry gives the
    /// same counter for the same name and labels), made once.
    private func counter(_ label: String, _ dimensions: [(String, String)]) -> Prometheus.Counter {
        let key = CounterHandles.Key(label: label, dimensions: dimensions)
        // The registry is asked under the cache's lock, as `unregister` does: a counter made
        // between another thread's removal from the cache and from the registry would otherwise
        // be cached unregistered, its counts lost. (The registry never calls back here.)
        return counters.known.withLockedValue { known in
            if let counter = known[key] { return counter }
            let made = registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
            known[key] = made
            return made
        }
    }

    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: valueBuckets)
    }

    package func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    package func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: durationBuckets)
    }

    package func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { unregister(counter) }
    }

    package func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { unregister(counter) }
    }

    private func unregister(_ counter: Prometheus.Counter) {
        counters.known.withLockedValue { known in
            known = known.filter { $0.value !== counter }
            registry.unregisterCounter(counter)
        }
    }

    package func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    package func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    package func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}

/// The counters a `SeamMetricsFactory` made (its copies share them).
private final class CounterHandles: Sendable {
    struct Key: Hashable {
        var label: String
        var dimensions: [String]

        init(label: String, dimensions: [(String, String)]) {
            self.label = label
            self.dimensions = dimensions.flatMap { [$0.0, $0.1] }
        }
    }

    let known = NIOLockedValueBox<[Key: Prometheus.Counter]>([:])
}

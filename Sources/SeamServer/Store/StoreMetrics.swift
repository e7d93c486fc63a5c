import CoreMetrics

/// What the PostgreSQL store measures: the queries it sends, by operation and outcome. Queries per
/// playlist reload is the number that says what the store costs the database
/// (`seam_store_queries_total` over the request count); `outcome="unavailable"` counts the
/// requests that answered `503`. How often a request is answered from the replica's map
/// (`cacheName`) is counted by `SessionRuntime`, over a shared store.
struct StoreMetrics: Sendable {
    static let queriesName = "seam_store_queries_total"
    static let cacheName = "seam_store_cache_lookups_total"

    private let factory: any MetricsFactory

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// One operation sent to PostgreSQL (`what`: what the store was doing), answered or not.
    func query(_ what: String, ok: Bool) {
        Counter(
            label: Self.queriesName, dimensions: [("operation", what), ("outcome", ok ? "ok" : "unavailable")],
            factory: factory
        ).increment()
    }
}

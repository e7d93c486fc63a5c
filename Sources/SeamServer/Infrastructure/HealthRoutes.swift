import Hummingbird

/// `GET /healthz` (liveness: the process answers), `GET /readyz` (readiness: the check passes) and
/// `GET /metrics` (Prometheus text exposition).
///
/// Liveness never looks at dependencies: restarting Seam does not fix an unreachable origin.
/// Readiness is a closure so whoever owns a dependency (a session store, say) decides what
/// "ready" means; by default Seam is ready as soon as it listens.
package struct HealthRoutes: Sendable {
    package let metrics: SeamMetrics
    package let readiness: @Sendable () async -> Bool

    package init(metrics: SeamMetrics, readiness: @escaping @Sendable () async -> Bool = { true }) {
        self.metrics = metrics
        self.readiness = readiness
    }

    package func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("/healthz") { _, _ in
            JSONResponses.json(Array(#"{"status":"ok"}"#.utf8), status: .ok)
        }
        router.get("/readyz") { _, _ in
            if await readiness() {
                return JSONResponses.json(Array(#"{"status":"ready"}"#.utf8), status: .ok)
            }
            return JSONResponses.json(Array(#"{"status":"not ready"}"#.utf8), status: .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
    }
}

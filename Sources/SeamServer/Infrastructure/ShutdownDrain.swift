import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// The first step of a graceful shutdown: on SIGTERM/SIGINT `/readyz` answers `503` while Seam
/// still serves every request for `server.drainSeconds`, so a load balancer (a Kubernetes
/// Service, nginx with health checks) takes the replica out before it stops accepting
/// connections; then the HTTP server stops accepting and finishes what is in flight.
///
/// A service placed after the HTTP server in the `ServiceGroup`: the group shuts services down
/// in reverse order, waiting for each, so this one's wait comes first.
package final class ShutdownDrain: Service, Sendable {
    private let seconds: Double
    private let logger: Logger
    private let draining = NIOLockedValueBox(false)

    package init(seconds: Double, logger: Logger) {
        self.seconds = seconds
        self.logger = logger
    }

    /// True from the shutdown signal on: `/readyz` says not ready.
    package var isDraining: Bool { draining.withLockedValue { $0 } }

    package func run() async throws {
        // Returns when the group starts its graceful shutdown (or is cancelled).
        try? await gracefulShutdown()
        draining.withLockedValue { $0 = true }
        guard seconds > 0 else { return }
        logger.info("shutting down: not ready, still serving for \(seconds) s (server.drainSeconds)")
        try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
    }
}

import Logging
import ServiceLifecycle

/// Where `SeamProduct` keeps sessions: in this process unless `store.postgresURL` names a
/// database, then in PostgreSQL (`PostgresSessionStore`), whose connection pool runs as a
/// background service beside the server.
enum SessionStoreChoice {
    /// The store and the services it needs run; nil store: the routes' default (in memory).
    static func make(_ services: SeamServices) -> (store: (any SessionStore)?, services: [any Service]) {
        let configuration = services.configuration
        do {
            guard let settings = try PostgresStoreSettings(configuration.store) else { return (nil, []) }
            let store = try PostgresSessionStore(
                settings: settings, ttlSeconds: configuration.sessions.ttlSeconds,
                maxSessions: configuration.sessions.maxSessions, logger: services.logger,
                metricsFactory: services.metrics.factory, census: services.replicas)
            services.logger.info("sessions are kept in PostgreSQL", metadata: ["store": "\(settings.redacted)"])
            return (store, [store])
        } catch {
            // Loaded configurations are checked first, so only one built in code gets here: Seam
            // refuses to start, saying why, rather than keep sessions where no one asked.
            return (nil, [StartupFailure(error: error)])
        }
    }

    /// A service that stops Seam as it starts, with the error that made the store impossible.
    struct StartupFailure: Service {
        let error: any Error
        func run() async throws { throw error }
    }
}

import Hummingbird

/// Wires the product from the shared services: the beacon dispatcher, the ad decision client,
/// session analytics and the session routes. `seam serve` and `seam demo` both use it, so they run the same code.
package enum SeamProduct {
    package static func routes(_ services: SeamServices) -> [any SeamRouteProvider] {
        let beacons = BeaconDispatcher(
            upstream: services.upstream, configuration: services.configuration.beacons,
            logger: services.logger, executor: services.background, metricsFactory: services.metrics.factory)
        var ads = AdDecisionClient(
            upstream: services.upstream, configuration: services.configuration.ads,
            beacons: beacons, logger: services.logger)
        ads.metricsFactory = services.metrics.factory
        // MP4-only ads are kept for conditioning when it is on (docs/conditioning.md).
        ads.conditionsProgressive = !services.configuration.conditioning.directory.isEmpty
        // Per-host caps of ad requests (ads.requestsPerSecond), on Seam's one clock, shared
        // among the replicas of a PostgreSQL store.
        ads.shaper = AdRequestShaper(
            services.configuration.ads, clock: services.clock, metricsFactory: services.metrics.factory,
            replicas: { [census = services.replicas] in census.count })
        let analytics: SessionAnalytics
        do {
            analytics = try SessionAnalytics(services: services)
        } catch {
            // Loaded configurations are validated first, so only a configuration built in code gets here.
            services.logger.error("session analytics off: \(error)")
            analytics = .off
        }
        if analytics.isEnabled {
            let analyticsConfiguration = services.configuration.analytics
            services.logger.info(
                "session analytics on",
                metadata: [
                    "endpoints": "\(analyticsConfiguration.endpoints.map(BeaconDispatcher.redacted))",
                    "privacy": "\(analyticsConfiguration.privacy.rawValue)",
                ])
        }
        let (store, storeServices) = SessionStoreChoice.make(services)
        return [
            SessionRoutes(
                services: services, ads: ads, beacons: beacons,
                backgroundServices: storeServices + [beacons] + analytics.services,
                store: store, analytics: analytics)
        ]
    }
}

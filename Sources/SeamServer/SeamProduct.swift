import Hummingbird

/// Wires the product from the shared services: the beacon dispatcher, the ad decision client
/// and the session routes. `seam serve` and `seam demo` both use it, so they run the same code.
public enum SeamProduct {
    public static func routes(_ services: SeamServices) -> [any SeamRouteProvider] {
        let beacons = BeaconDispatcher(upstream: services.upstream, configuration: services.configuration.beacons,
                                       logger: services.logger, executor: services.background)
        let ads = AdDecisionClient(upstream: services.upstream, configuration: services.configuration.ads,
                                   beacons: beacons, logger: services.logger)
        return [SessionRoutes(services: services, ads: ads, beacons: beacons, backgroundServices: [beacons])]
    }
}

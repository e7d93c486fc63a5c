import Hummingbird

/// A demo server's routes: mounted beside Seam's own in `seam demo`, or on a router of their own
/// (`buildRouter`) when the server runs alone, as the tests' origin and ad server do.
package protocol DemoRouteProviding {
    func addRoutes<Context: RequestContext>(to router: Router<Context>)
}

extension DemoRouteProviding {
    /// A router with the server's routes behind the CORS middleware.
    package func buildRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: DemoCORSMiddleware())
        addRoutes(to: router)
        return router
    }
}

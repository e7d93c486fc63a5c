import Hummingbird
import SeamServer

/// Mounts the demo web page (`Samples/web`) in Seam's own router.
public struct DemoPageRoutes: SeamRouteProvider {
    public let page: DemoWebRoutes

    public init(page: DemoWebRoutes) {
        self.page = page
    }

    public func addRoutes(to router: Router<SeamRequestContext>) {
        page.addRoutes(to: router)
    }
}

import Hummingbird
import SeamServer

/// Mounts the demo web page (`Samples/web`) in Seam's own router.
package struct DemoPageRoutes: SeamRouteProvider {
    package let page: DemoWebRoutes

    package init(page: DemoWebRoutes) {
        self.page = page
    }

    package func addRoutes(to router: Router<SeamRequestContext>) {
        page.addRoutes(to: router)
    }
}

import SeamServer
import Foundation
import Hummingbird

/// The demo web page (`Samples/web`) as routes Seam mounts at `/demo/`.
///
/// The page plays a session in the browser's own `<video>` element, in either rendering
/// (`stitched`, or `interstitials` with each break's asset list and assets beside the content),
/// and draws the session's ad timeline from the tracking JSON. It is served by Seam itself (not by the demo origin) so its
/// `POST /v1/sessions`, tracking and keep-alive calls are same-origin and need no CORS.
///
/// Routes, with the default mount path:
/// - `GET /demo` → 302 to `/demo/` (query kept, so `?session=...` links survive);
/// - `GET /demo/` → `index.html`;
/// - `GET /demo/config.json` → ``PageConfiguration`` as JSON (what the page needs to create a session);
/// - `GET|HEAD /demo/<file>` → the other files of the web folder.
package struct DemoWebRoutes: Sendable {
    /// What the page is told at `config.json`. Every field is optional for the page.
    package struct PageConfiguration: Sendable, Codable, Equatable {
        /// The content playlist the page creates a session for (the demo origin's title).
        package var contentUrl: String?
        /// Where sessions are created, relative to the page's server (`/v1/sessions`).
        package var sessionsUrl: String
        /// `trackingMode` the page asks for by default (`server`, `client`, `hybrid`); Seam's default when `nil`.
        package var trackingMode: String?
        /// The rendering the page asks for by default (`mode` of `POST /v1/sessions`); Seam's
        /// choice (`sessions.defaultMode`, its User-Agent rules) when `nil`. The page's `?mode=` wins.
        package var mode: SessionMode?
        /// The demo ad server's `GET /beacons`, shown live on the page when set.
        package var beaconsUrl: String?
        /// A plain-text hint shown under the title (e.g. the command that started the demo).
        package var note: String?
        /// Set when Seam conditions MP4 creatives: the page offers the MP4-only ad and shows its
        /// conditioning.
        package var conditioning: Conditioning?

        /// How the page asks for the MP4-only ad and follows its conditioning.
        package struct Conditioning: Sendable, Codable, Equatable {
            /// The session request's `adParams` that make the ad server answer the MP4-only ad.
            package var adParams: [String: String]
            /// The VAST of that ad, which the page sends to `prefetchUrl` to follow the job.
            package var adTagUrl: String
            /// Seam's `POST /v1/creatives/prefetch`, relative to the page's server.
            package var prefetchUrl: String
            /// The route's bearer token (`conditioning.prefetchToken`), when the demo listens beyond
            /// loopback and so needs one; the page sends it. A demo's token, for the demo's page.
            package var prefetchToken: String?

            package init(
                adParams: [String: String], adTagUrl: String, prefetchUrl: String = "/v1/creatives/prefetch",
                prefetchToken: String? = nil
            ) {
                self.adParams = adParams
                self.adTagUrl = adTagUrl
                self.prefetchUrl = prefetchUrl
                self.prefetchToken = prefetchToken
            }
        }

        package init(
            contentUrl: String? = nil, sessionsUrl: String = "/v1/sessions", trackingMode: String? = nil,
            mode: SessionMode? = nil, beaconsUrl: String? = nil, note: String? = nil, conditioning: Conditioning? = nil
        ) {
            self.contentUrl = contentUrl
            self.sessionsUrl = sessionsUrl
            self.trackingMode = trackingMode
            self.mode = mode
            self.beaconsUrl = beaconsUrl
            self.note = note
            self.conditioning = conditioning
        }
    }

    package let files: DemoFileResponder
    /// Where the page is mounted, without trailing slash (`/demo`).
    package let mountPath: String
    package let page: PageConfiguration

    /// - Parameters:
    ///   - webRoot: the page's folder (default `Samples/web`); throws ``DemoServerError`` if missing.
    ///   - mountPath: the URL path the page lives under.
    ///   - page: what `config.json` answers.
    package init(webRoot: String = "Samples/web", mountPath: String = "/demo", page: PageConfiguration = .init()) throws
    {
        // Read from disk on every request: the page is small and people edit it while Seam runs.
        var files = DemoFileResponder(store: try DemoFileStore(root: webRoot, keepsContents: false))
        // The page changes with Seam's versions; never let a browser keep an old copy.
        files.otherCacheControl = "no-cache"
        self.files = files
        var mount = mountPath.hasPrefix("/") ? mountPath : "/" + mountPath
        while mount.count > 1, mount.hasSuffix("/") { mount.removeLast() }
        self.mountPath = mount
        self.page = page
    }

    /// Adds the page's routes to `router` (a `Router` or a `RouterGroup`, any context).
    package func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        let routes = self
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await routes.respond(to: request, context: context)
        }
        for path in [RouterPath(mountPath), RouterPath(mountPath + "/**")] {
            router.on(path, method: .get, use: handler)
            router.on(path, method: .head, use: handler)
        }
    }

    private func respond(to request: Request, context: some RequestContext) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix(mountPath + "/") else {
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response.redirect(to: mountPath + "/" + query, type: .found)
        }
        let subpath = path.dropFirst(mountPath.count + 1)
        switch subpath {
        case "", "index.html":
            return try await files.respond(to: request, encodedSubpath: "index.html", context: context)
        case "config.json":
            var response = DemoResponses.json(page)
            response.headers[.cacheControl] = "no-store"
            return request.method == .head ? response.createHeadResponse() : response
        default:
            return try await files.respond(to: request, encodedSubpath: subpath, context: context)
        }
    }
}

extension DemoServers {
    /// The page configuration for these servers: the demo title and the live beacon log.
    package var webPageConfiguration: DemoWebRoutes.PageConfiguration {
        DemoWebRoutes.PageConfiguration(contentUrl: contentURL, beaconsUrl: beaconsURL)
    }

    /// What the page needs to offer the MP4-only ad (`/vmap?ads=mp4`) when Seam conditions.
    package var conditioningPageConfiguration: DemoWebRoutes.PageConfiguration.Conditioning {
        conditioningPageConfiguration(prefetchToken: "")
    }

    /// The same, with the prefetch route's token (empty: none).
    package func conditioningPageConfiguration(prefetchToken: String) -> DemoWebRoutes.PageConfiguration.Conditioning {
        .init(
            adParams: ["ads": "mp4"], adTagUrl: adServer.baseURL + "/vast/vast-no-hls.xml",
            prefetchToken: prefetchToken.isEmpty ? nil : prefetchToken)
    }
}

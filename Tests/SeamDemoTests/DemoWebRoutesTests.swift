import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoWebRoutes: the web page")
struct DemoWebRoutesTests {
    static func app(page: DemoWebRoutes.PageConfiguration = .init()) throws -> some ApplicationProtocol {
        let router = Router()
        try DemoWebRoutes(webRoot: DemoTestSupport.webRoot, page: page).addRoutes(to: router)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           logger: DemoTestSupport.quietLogger)
    }

    @Test func servesTheIndexAndItsAssets() async throws {
        try await Self.app().test(.live) { client in
            try await client.execute(uri: "/demo/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<video"))
                #expect(html.contains("demo.js"))
                // Nothing from the network: every script and stylesheet is local.
                for attribute in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
                    #expect(!html.contains(attribute))
                }
            }
            try await client.execute(uri: "/demo/demo.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let script = String(buffer: response.body)
                #expect(script.contains("canPlayType('application/vnd.apple.mpegurl')"))
                #expect(script.contains("/v1/sessions"))
            }
            try await client.execute(uri: "/demo/demo.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
            try await client.execute(uri: "/demo/index.html", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] != nil)
            }
        }
    }

    @Test func redirectsTheBarePathKeepingTheQuery() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/demo?session=http%3A%2F%2Fx%2Fm.m3u8", method: .get) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/demo/?session=http%3A%2F%2Fx%2Fm.m3u8")
            }
        }
    }

    @Test func answersItsConfiguration() async throws {
        let page = DemoWebRoutes.PageConfiguration(contentUrl: "http://127.0.0.1:8081/media/content/master.m3u8",
                                                   trackingMode: "client", beaconsUrl: "http://127.0.0.1:8082/beacons")
        try await Self.app(page: page).test(.router) { client in
            try await client.execute(uri: "/demo/config.json", method: .get) { response in
                #expect(response.status == .ok)
                let decoded = try JSONDecoder().decode(DemoWebRoutes.PageConfiguration.self, from: Data(buffer: response.body))
                #expect(decoded == page)
                #expect(decoded.sessionsUrl == "/v1/sessions")
            }
        }
    }

    @Test func refusesTraversalAndMissingFiles() async throws {
        try await Self.app().test(.live) { client in
            try await client.execute(uri: "/demo/missing.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/demo/%2e%2e/vast/vmap-demo.xml", method: .get) { response in
                #expect(response.status == .badRequest || response.status == .notFound)
            }
        }
    }

    @Test func editsShowWithoutARestart() async throws {
        let root = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let index = URL(fileURLWithPath: root + "/index.html")
        try Data("<p>one</p>".utf8).write(to: index)
        let router = Router()
        try DemoWebRoutes(webRoot: root).addRoutes(to: router)
        let app = Application(router: router, logger: DemoTestSupport.quietLogger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/demo/", method: .get) { #expect(String(buffer: $0.body) == "<p>one</p>") }
            try Data("<p>two, longer</p>".utf8).write(to: index)
            try await client.execute(uri: "/demo/", method: .get) { #expect(String(buffer: $0.body) == "<p>two, longer</p>") }
        }
    }

    @Test func theVideoElementUsesCORSMode() throws {
        // Chromium's built-in HLS player only reads cross-origin playlists and segments in CORS mode.
        let html = try String(contentsOfFile: DemoTestSupport.webRoot + "/index.html", encoding: .utf8)
        #expect(html.contains("crossorigin=\"anonymous\""))
    }

    @Test func missingWebFolderFailsAtSetUp() {
        #expect(throws: DemoServerError.directoryNotFound("/nonexistent/web")) {
            _ = try DemoWebRoutes(webRoot: "/nonexistent/web")
        }
    }
}

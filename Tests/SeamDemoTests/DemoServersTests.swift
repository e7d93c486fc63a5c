import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoServers: start, ports, stop, Service")
struct DemoServersTests {
    @Test func ephemeralPortsAndBaseURLs() async throws {
        let servers = try await DemoServers.start(DemoTestSupport.configuration())
        #expect(servers.origin.port > 0)
        #expect(servers.adServer.port > 0)
        #expect(servers.origin.port != servers.adServer.port)
        #expect(servers.origin.baseURL == "http://127.0.0.1:\(servers.origin.port)")
        #expect(servers.adServer.baseURL == "http://127.0.0.1:\(servers.adServer.port)")
        #expect(servers.contentURL == servers.origin.baseURL + "/media/content/master.m3u8")
        #expect(servers.vmapURL == servers.adServer.baseURL + "/vmap")
        #expect(try await DemoTestSupport.request(servers.origin.baseURL + "/healthz").status == 200)
        await servers.stop()
        await servers.stop()  // idempotent
        // A raw connect: AsyncHTTPClient retries refused connections until its deadline.
        await #expect(throws: (any Error).self) {
            _ = try await DemoTestSupport.rawStatus(port: servers.origin.port, target: "/healthz")
        }
        await #expect(throws: (any Error).self) {
            _ = try await DemoTestSupport.rawStatus(port: servers.adServer.port, target: "/healthz")
        }
    }

    @Test func aTakenPortFailsWithAClearError() async throws {
        try await DemoTestSupport.withServers { running in
            var configuration = DemoTestSupport.configuration()
            configuration.adServerPort = running.adServer.port
            let error = await #expect(throws: DemoServerError.self) {
                _ = try await DemoServers.start(configuration)
            }
            guard case .bindFailed(let server, _, let port, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(server == "ad server")
            #expect(port == running.adServer.port)
            // The first servers are unaffected.
            let stillServing = try await DemoTestSupport.request(running.contentURL)
            #expect(stillServing.status == 200)
        }
    }

    @Test func runsAsAServiceAndStopsOnGracefulShutdown() async throws {
        let servers = try await DemoServers.start(DemoTestSupport.configuration())
        let group = ServiceGroup(configuration: .init(services: [servers], logger: DemoTestSupport.quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            #expect(try await DemoTestSupport.request(servers.contentURL).status == 200)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await #expect(throws: (any Error).self) {
            _ = try await DemoTestSupport.rawStatus(port: servers.origin.port, target: "/healthz")
        }
    }

    @Test func publicBaseURLOverridesThePlaceholders() async throws {
        var configuration = DemoTestSupport.configuration()
        configuration.adServerPublicBaseURL = "http://ads.demo.test:9999/"
        try await DemoServers.withRunning(configuration) { servers in
            #expect(servers.adServer.baseURL == "http://ads.demo.test:9999")
            let direct = "http://127.0.0.1:\(servers.adServer.port)"
            let reply = try await DemoTestSupport.request(direct + "/vast/vast-midroll.xml")
            #expect(reply.text.contains("http://ads.demo.test:9999/media/ads/ad3/master.m3u8"))
        }
    }

    @Test func wildcardHostsGetABrowsableBaseURL() {
        #expect(DemoServers.baseURL(host: "0.0.0.0", port: 1) == "http://127.0.0.1:1")
        #expect(DemoServers.baseURL(host: "::", port: 2) == "http://[::1]:2")
        #expect(DemoServers.baseURL(host: "::1", port: 3) == "http://[::1]:3")
        #expect(DemoServers.baseURL(host: "localhost", port: 4) == "http://localhost:4")
    }
}

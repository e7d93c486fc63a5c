import AsyncHTTPClient
import Foundation
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoAdServer: VAST/VMAP, beacons and failure modes")
struct DemoAdServerTests {
    @Test(
        "templates are served with the placeholders replaced",
        arguments: [
            "vast-pod-preroll.xml", "vast-midroll.xml", "vast-postroll.xml", "vast-empty.xml", "vast-wrapper.xml",
            "vast-no-hls.xml", "vmap-demo.xml", "vmap-mp4.xml",
        ])
    func substitutesPlaceholders(file: String) async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/" + file)
            #expect(reply.status == 200)
            #expect(reply.header("content-type")?.hasPrefix("application/xml") == true)
            #expect(!reply.text.contains("{{"))
            #expect(reply.text.contains(servers.adServer.baseURL + "/"))
            #expect(reply.header("content-length") == String(reply.body.readableBytes))
        }
    }

    @Test("/vmap?ads=mp4 is the VMAP of the MP4-only ad; another value is refused")
    func mp4VMAP() async throws {
        try await DemoTestSupport.withServers { servers in
            let vmap = try await DemoTestSupport.request(servers.vmapURL + "?ads=mp4")
            #expect(vmap.status == 200)
            #expect(vmap.text.contains(servers.adServer.baseURL + "/vast/vast-no-hls.xml"))
            #expect(!vmap.text.contains("vast-pod-preroll.xml"))
            let plain = try await DemoTestSupport.request(servers.vmapURL + "?ads=hls")
            #expect(plain.text.contains("vast-pod-preroll.xml"))
            let wrong = try await DemoTestSupport.request(servers.vmapURL + "?ads=flv")
            #expect(wrong.status == 400)
        }
    }

    @Test func urlsPointAtTheAdServersOwnPort() async throws {
        try await DemoTestSupport.withServers { servers in
            let vmap = try await DemoTestSupport.request(servers.vmapURL)
            #expect(vmap.status == 200)
            #expect(vmap.text.contains("<vmap:VMAP"))
            #expect(vmap.text.contains("http://127.0.0.1:\(servers.adServer.port)/vast/vast-pod-preroll.xml"))
            #expect(vmap.text.contains("http://127.0.0.1:\(servers.adServer.port)/track/preroll/breakStart"))

            let midroll = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/vast-midroll.xml")
            let creative = "http://127.0.0.1:\(servers.adServer.port)/media/ads/ad3/master.m3u8"
            #expect(midroll.text.contains(creative))
            // The creative the VAST names is really served there.
            let playlist = try await DemoTestSupport.request(creative)
            #expect(playlist.status == 200)
            #expect(playlist.header("content-type") == "application/vnd.apple.mpegurl")
        }
    }

    @Test("position shortcuts", arguments: [("pre", "ad1"), ("mid", "ad3"), ("post", "ad4")])
    func positions(position: String, ad: String) async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast?pos=\(position)")
            #expect(reply.status == 200)
            #expect(reply.text.contains("<Ad id=\"\(ad)\""))
            let bad = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast?pos=sideways")
            #expect(bad.status == 400)
        }
    }

    @Test func unknownTemplatesAndTraversalAre404() async throws {
        try await DemoTestSupport.withServers { servers in
            #expect(try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/nope.xml").status == 404)
            #expect(try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/README.md").status == 404)
            let raw = try await DemoTestSupport.rawStatus(
                port: servers.adServer.port, target: "/vast/..%2f..%2fPackage.swift")
            #expect(raw == 404 || raw == 400)
            let media = try await DemoTestSupport.rawStatus(
                port: servers.adServer.port, target: "/media/../../Package.swift")
            #expect(media == 404 || media == 400)
        }
    }

    @Test func beaconsAreRecordedListedAndCleared() async throws {
        try await DemoTestSupport.withServers { servers in
            let base = servers.adServer.baseURL
            let impression = try await DemoTestSupport.request(
                base + "/track/ad1/impression?cb=12345",
                headers: [("User-Agent", "SeamTest/1"), ("X-Device-IP", "203.0.113.7")])
            #expect(impression.status == 200)
            #expect(impression.header("content-type") == "image/gif")
            let start = try await DemoTestSupport.request(base + "/track/ad1/start", method: .POST)
            #expect(start.status == 204)
            _ = try await DemoTestSupport.request(base + "/track/ad1/start")

            let listed = try await DemoTestSupport.request(base + "/beacons")
            #expect(listed.status == 200)
            let snapshot = try JSONDecoder().decode(BeaconLog.Snapshot.self, from: Data(buffer: listed.body))
            #expect(snapshot.beacons.map(\.path) == ["/track/ad1/impression", "/track/ad1/start", "/track/ad1/start"])
            #expect(snapshot.beacons.map(\.method) == ["GET", "POST", "GET"])
            #expect(snapshot.beacons[0].query == "cb=12345")
            #expect(snapshot.beacons[0].adId == "ad1")
            #expect(snapshot.beacons[0].event == "impression")
            #expect(snapshot.beacons[0].headers["x-device-ip"] == "203.0.113.7")
            #expect(snapshot.beacons[0].headers["user-agent"] == "SeamTest/1")
            #expect(snapshot.beacons[0].at.hasSuffix("Z"))
            #expect(snapshot.counts["/track/ad1/start"] == 2)
            #expect(await servers.beaconLog.count(path: "/track/ad1/impression") == 1)

            // The JSON uses the documented keys.
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [String: Any])
            #expect(Set(object.keys).isSuperset(of: ["beacons", "adRequests", "counts"]))
            let first = try #require((object["beacons"] as? [[String: Any]])?.first)
            #expect(Set(first.keys).isSuperset(of: ["path", "query", "at"]))

            let cleared = try await DemoTestSupport.request(base + "/beacons", method: .DELETE)
            #expect(cleared.status == 204)
            let empty = try JSONDecoder().decode(
                BeaconLog.Snapshot.self,
                from: Data(buffer: try await DemoTestSupport.request(base + "/beacons").body))
            #expect(empty.beacons.isEmpty)
            #expect(empty.adRequests.isEmpty)
        }
    }

    @Test func adRequestsAreRecordedWithTheirHeadersAndQuery() async throws {
        try await DemoTestSupport.withServers { servers in
            _ = try await DemoTestSupport.request(
                servers.vmapURL + "?sid=abc&gdpr=1",
                headers: [
                    ("X-Device-IP", "198.51.100.4"), ("X-Device-User-Agent", "Player/2.0"),
                    ("X-Custom-Tag", "demo"),
                ])
            _ = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/vast-midroll.xml")
            _ = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/error500")
            let snapshot = await servers.beaconLog.snapshot()
            #expect(snapshot.adRequests.map(\.path) == ["/vmap", "/vast/vast-midroll.xml", "/vast/error500"])
            let vmap = snapshot.adRequests[0]
            #expect(vmap.query == "sid=abc&gdpr=1")
            #expect(vmap.deviceIP == "198.51.100.4")
            #expect(vmap.deviceUserAgent == "Player/2.0")
            #expect(vmap.headers["x-custom-tag"] == "demo")
            #expect(snapshot.adRequests[1].deviceIP == nil)
            #expect(snapshot.beacons.isEmpty)
        }
    }

    @Test func slowAnswersAfterTheDelay() async throws {
        try await DemoTestSupport.withServers { servers in
            let clock = ContinuousClock()
            let started = clock.now
            let reply = try await DemoTestSupport.request(servers.adServer.baseURL + "/vast/slow.xml?ms=600")
            let elapsed = clock.now - started
            #expect(reply.status == 200)
            #expect(elapsed >= .milliseconds(600))
            #expect(reply.text.contains("<Ad id=\"ad3\""))
            let then = try await DemoTestSupport.request(
                servers.adServer.baseURL + "/vast/slow?ms=10&then=vast-postroll.xml")
            #expect(then.text.contains("<Ad id=\"ad4\""))
        }
    }

    @Test func failureModes() async throws {
        try await DemoTestSupport.withServers { servers in
            let base = servers.adServer.baseURL
            #expect(try await DemoTestSupport.request(base + "/vast/error500").status == 500)

            let malformed = try await DemoTestSupport.request(base + "/vast/malformed")
            #expect(malformed.status == 200)
            #expect(malformed.text.contains("<VAST"))
            #expect(!malformed.text.contains("</VAST>"))

            let empty = try await DemoTestSupport.request(base + "/vast/empty")
            #expect(empty.status == 200)
            #expect(empty.text.contains("<VAST"))
            #expect(!empty.text.contains("<Ad "))
            #expect(!empty.text.contains("{{"))

            let loop = try await DemoTestSupport.request(base + "/vast/wrapper-loop")
            #expect(loop.text.contains("<VASTAdTagURI><![CDATA[\(base)/vast/wrapper-loop]]></VASTAdTagURI>"))
        }
    }

    @Test func wrapperChainEndsAtTheMidroll() async throws {
        try await DemoTestSupport.withServers { servers in
            let base = servers.adServer.baseURL
            var url = base + "/vast/wrapper-chain?depth=6"
            var wrappers = 0
            // Follow the chain like an ad client would.
            while true {
                let reply = try await DemoTestSupport.request(url)
                #expect(reply.status == 200)
                guard let next = Self.adTagURI(in: reply.text) else {
                    #expect(reply.text.contains("<Ad id=\"ad3\""))
                    break
                }
                wrappers += 1
                url = next
                if wrappers > 10 { Issue.record("chain does not end"); break }
            }
            #expect(wrappers == 6)
            #expect(try await DemoTestSupport.request(base + "/vast/wrapper-chain?depth=0").status == 400)
            #expect(try await DemoTestSupport.request(base + "/vast/wrapper-chain?depth=x").status == 400)
        }
    }

    @Test func injectedBeaconFailures() async throws {
        try await DemoTestSupport.withServers { servers in
            let base = servers.adServer.baseURL
            let armed = try await DemoTestSupport.request(base + "/beacons/failures?count=2&status=503", method: .POST)
            #expect(armed.status == 204)
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await DemoTestSupport.request(base + "/track/ad2/complete").status)
            }
            #expect(statuses == [503, 503, 200])
            let snapshot = await servers.beaconLog.snapshot()
            #expect(snapshot.beacons.map(\.status) == [503, 503, 200])
        }
    }

    @Test func preflightAndCORS() async throws {
        try await DemoTestSupport.withServers { servers in
            let preflight = try await DemoTestSupport.request(
                servers.beaconsURL, method: .OPTIONS,
                headers: [("Origin", "http://127.0.0.1:8080"), ("Access-Control-Request-Method", "DELETE")])
            #expect(preflight.status == 204)
            #expect(preflight.header("access-control-allow-origin") == "*")
            #expect(preflight.header("access-control-allow-methods")?.contains("DELETE") == true)
        }
    }

    static func adTagURI(in xml: String) -> String? {
        guard let open = xml.range(of: "<VASTAdTagURI><![CDATA["),
            let close = xml.range(of: "]]></VASTAdTagURI>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.upperBound..<close.lowerBound])
    }
}

import Foundation
import SeamTesting
import Testing

/// Server-side beacons reach the ad server as VAST 4.x asks for server-side requests: with the
/// viewer's address and player in `X-Device-IP`/`X-Device-User-Agent` (and `X-Forwarded-For`/
/// `User-Agent`), not Seam's, so impressions are attributed to the device that played.
@Suite struct BeaconViewerEndToEndTests {
    static let viewerIP = "198.51.100.23"
    static let viewerAgent = "ExamplePlayer/7.1 (SmartTV; Tizen 8.0)"

    @Test("An ad segment fetched by a viewer sends its beacons with that viewer's device headers")
    func beaconsCarryTheViewersDevice() async throws {
        try await SeamStack.run({ configuration in
            // The test client stands for the proxy in front of Seam: its X-Forwarded-For names the viewer.
            configuration.server.trustedProxies = ["127.0.0.1"]
        }) { stack in
            let viewer = [("User-Agent", Self.viewerAgent), ("X-Forwarded-For", Self.viewerIP)]
            let created = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "trackingMode": "server"],
                headers: viewer)
            #expect(created.status == 201, "\(created.body)")
            let manifest = try #require(created.json["manifestUrl"] as? String)
            func absolute(_ uri: String, base: String) -> String {
                uri.hasPrefix("http") ? uri : String(base[...(base.lastIndex(of: "/") ?? base.startIndex)]) + uri
            }
            let master = try await stack.request(manifest, headers: viewer)
            let variant = try #require(master.body.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
            let mediaURL = absolute(String(variant), base: manifest)
            let media = try await stack.request(mediaURL, headers: viewer)
            let ad = try #require(media.body.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains("/ad/") })
            let answer = try await stack.request(absolute(String(ad), base: mediaURL), headers: viewer)
            #expect(answer.status == 302)

            // The first ad's impression as the ad server logged it, once Seam has sent it.
            await stack.drainBeacons()
            let log = try await stack.request(stack.demo.beaconsURL).json
            let beacons = (log["beacons"] as? [[String: Any]] ?? []).filter {
                ($0["path"] as? String)?.hasSuffix("/impression") == true
            }
            #expect(!beacons.isEmpty, "no impression reached the ad server")
            for beacon in beacons {
                let headers = beacon["headers"] as? [String: String] ?? [:]
                #expect(headers["x-device-ip"] == Self.viewerIP, "\(beacon)")
                #expect(headers["x-forwarded-for"] == Self.viewerIP, "\(beacon)")
                #expect(headers["x-device-user-agent"] == Self.viewerAgent, "\(beacon)")
                #expect(headers["user-agent"] == Self.viewerAgent, "Seam's own agent would hide the device: \(beacon)")
            }
        }
    }
}

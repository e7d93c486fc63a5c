import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// Fault matrix — SSRF through the content URL, with the spellings of loopback and "this host"
/// that URL parsers and resolvers accept (decimal, hexadecimal, octal, short forms, IPv4-mapped
/// and NAT64 IPv6, the unspecified address, `localhost`). With the default configuration
/// (`upstream.allowPrivateNetworks` off) every one is refused with `403 DOMAIN_NOT_ALLOWED` (or
/// `400` when the URL does not parse), before any connection — loopback only, nothing leaves
/// this machine.
@Suite struct SSRFLoopbackEncodingTests {
    static let hosts = [
        "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "017700000001",
        "0.0.0.0", "0", "localhost", "LOCALHOST", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
        "[64:ff9b::7f00:1]", "[::127.0.0.1]", "169.254.169.254", "[fe80::1]", "10.0.0.1", "192.168.0.1",
    ]

    @Test(arguments: hosts)
    func aLoopbackSpellingIsRefused(_ host: String) async throws {
        try await SeamStack.run({ $0.upstream.allowPrivateNetworks = false }) { stack in
            let answer = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": "http://\(host):8080/title.m3u8"])
            #expect([400, 403].contains(answer.status), "\(host): \(answer.status) \(answer.body)")
            #expect(
                ["DOMAIN_NOT_ALLOWED", "INVALID_PLAYBACK_URL"].contains(answer.errorCode ?? ""),
                "\(host): \(answer.body)")
            // The implicit route, with its host in the path, is refused the same way.
            let implicit = try await stack.request("/v1/hls/\(host):8080/title.m3u8?seam.scheme=http")
            #expect([400, 403].contains(implicit.status), "\(host): \(implicit.status) \(implicit.body)")
        }
    }

    /// User info in the URL is never a way to reach a host Seam did not check.
    @Test func userInfoIsRefused() async throws {
        try await SeamStack.run({ $0.upstream.allowPrivateNetworks = false }) { stack in
            for url in ["http://cdn.example.com@127.0.0.1/title.m3u8", "http://user:pass@127.0.0.1/title.m3u8"] {
                let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": url])
                #expect([400, 403].contains(answer.status), "\(url): \(answer.body)")
            }
        }
    }
}

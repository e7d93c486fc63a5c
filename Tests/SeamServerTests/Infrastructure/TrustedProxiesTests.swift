import Testing
@testable import SeamServer

/// The viewer's address behind proxies (`server.trustedProxies`, issue 23): forwarded headers are
/// read only from a trusted peer, from the right, and only a valid IP address is ever the answer.
@Suite struct TrustedProxiesTests {
    static let proxies = TrustedProxies(["10.0.0.0/8", "127.0.0.1", "fd00::/8"])

    @Test(
        "Device IP, as a table: peer, X-Forwarded-For, Forwarded -> the address the ad server sees",
        arguments: [
            // No trusted proxies: the header is ignored, whoever sends it.
            ("none", "198.51.100.20", ["203.0.113.7"], [], "198.51.100.20"),
            // An untrusted peer spoofing: nothing changes.
            ("proxies", "198.51.100.20", ["203.0.113.7"], [], "198.51.100.20"),
            ("proxies", "198.51.100.20", ["<script>alert(1)</script>"], [], "198.51.100.20"),
            // A trusted proxy: the right-most address that is not a proxy.
            ("proxies", "10.1.2.3", ["203.0.113.7"], [], "203.0.113.7"),
            ("proxies", "10.1.2.3", ["1.1.1.1, 203.0.113.7, 10.9.9.9"], [], "203.0.113.7"),
            ("proxies", "10.1.2.3", ["1.1.1.1", "203.0.113.7"], [], "203.0.113.7"),
            // What the client wrote left of it is not believed, even when it is a valid address.
            ("proxies", "127.0.0.1", ["6.6.6.6, 198.51.100.20"], [], "198.51.100.20"),
            // The right-most untrusted entry is not an address: the peer.
            ("proxies", "10.1.2.3", ["203.0.113.7, not-an-ip"], [], "10.1.2.3"),
            ("proxies", "10.1.2.3", [String(repeating: "9", count: 3000)], [], "10.1.2.3"),
            ("proxies", "10.1.2.3", [""], [], "10.1.2.3"),
            // Every hop a trusted proxy: the first of them.
            ("proxies", "10.1.2.3", ["10.0.0.5, 10.0.0.6"], [], "10.0.0.5"),
            // Ports and IPv6.
            ("proxies", "10.1.2.3", ["203.0.113.7:4711"], [], "203.0.113.7"),
            ("proxies", "10.1.2.3", ["[2001:db8::1]:4711"], [], "2001:db8::1"),
            ("proxies", "fd00::1", ["2001:db8::7"], [], "2001:db8::7"),
            // RFC 7239 Forwarded, read when there is no X-Forwarded-For.
            ("proxies", "10.1.2.3", [], ["for=203.0.113.7;proto=https"], "203.0.113.7"),
            ("proxies", "10.1.2.3", [], ["for=\"[2001:db8::1]:4711\", for=10.0.0.9"], "2001:db8::1"),
            ("proxies", "10.1.2.3", [], ["for=unknown"], "10.1.2.3"),
            ("proxies", "10.1.2.3", [], ["for=_hidden"], "10.1.2.3"),
        ] as [(String, String, [String], [String], String)])
    func deviceIP(list: String, peer: String, forwardedFor: [String], forwarded: [String], expected: String) {
        let trusted = list == "none" ? TrustedProxies([]) : Self.proxies
        #expect(trusted.clientIP(peer: peer, forwardedFor: forwardedFor, forwarded: forwarded) == expected)
    }

    @Test("server.trustedProxies takes addresses and CIDR ranges; anything else is refused naming the setting")
    func configuration() throws {
        var configuration = SeamConfiguration()
        configuration.server.trustedProxies = ["10.0.0.0/8", "127.0.0.1", "fd00::/8"]
        try ConfigurationLoader.validate(configuration)
        configuration.server.trustedProxies = ["10.0.0.0/8", "proxy.example.com"]
        do {
            try ConfigurationLoader.validate(configuration)
            Issue.record("a host name was accepted as a trusted proxy")
        } catch {
            #expect(error.key == "server.trustedProxies", "\(error)")
            #expect("\(error)".contains("proxy.example.com"), "\(error)")
        }
    }

    @Test(
        "Conditioning on and Seam listening beyond loopback without conditioning.prefetchToken: refused at start, naming the setting; on loopback, or with the token, it starts"
    )
    func prefetchTokenBeyondLoopback() throws {
        var configuration = SeamConfiguration()
        configuration.conditioning.directory = "/tmp/seam-conditioned"
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
            configuration.server.host = host
            try ConfigurationLoader.validate(configuration)
        }
        for host in ["0.0.0.0", "::", "10.1.2.3", "seam.example.com"] {
            configuration.server.host = host
            do {
                try ConfigurationLoader.validate(configuration)
                Issue.record("\(host): started without a prefetch token")
            } catch {
                #expect(error.key == "conditioning.prefetchToken", "\(host): \(error)")
                #expect("\(error)".contains("server.host"), "\(error)")
            }
        }
        configuration.conditioning.prefetchToken = "a-long-random-token"
        try ConfigurationLoader.validate(configuration)
        configuration.conditioning.prefetchToken = ""
        configuration.conditioning.directory = ""
        try ConfigurationLoader.validate(configuration)
    }
}

/// The connection limit follows the open-file limit (issue 23): with the 10,000 default under a
/// 1,024-descriptor limit, 1,100 idle connections stalled new requests and spun a core.
@Suite struct ConnectionLimitDefaultTests {
    @Test(
        "server.maxConnections, or the open-file limit minus 256 when lower (at least 16)",
        arguments: [
            (10_000, 1_024, 768), (10_000, 65_536, 10_000), (500, 1_024, 500), (10_000, 100, 16),
            (10_000, 10_256, 10_000),
        ]
            as [(Int, UInt64, Int)])
    func effective(configured: Int, openFiles: UInt64, expected: Int) {
        #expect(effectiveMaxConnections(configured, openFileLimit: openFiles) == expected)
    }
}

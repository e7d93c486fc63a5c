import Testing
@testable import SeamServer

@Suite("Infra: address classifier, URLs and the upstream policy")
struct InfraAddressClassifierTests {
    @Test(
        "IPv4 ranges",
        arguments: [
            ("8.8.8.8", AddressCategory.global),
            ("93.184.216.34", .global),
            ("1.1.1.1", .global),
            ("127.0.0.1", .loopback),
            ("127.255.255.254", .loopback),
            ("10.0.0.1", .privateNetwork),
            ("10.255.255.255", .privateNetwork),
            ("172.16.0.1", .privateNetwork),
            ("172.31.255.255", .privateNetwork),
            ("172.15.255.255", .global),
            ("172.32.0.0", .global),
            ("192.168.1.1", .privateNetwork),
            ("169.254.169.254", .linkLocal),
            ("100.64.0.1", .sharedAddressSpace),
            ("100.127.255.255", .sharedAddressSpace),
            ("100.128.0.0", .global),
            ("100.63.255.255", .global),
            ("0.0.0.0", .unspecified),
            ("0.1.2.3", .unspecified),
            ("224.0.0.1", .multicast),
            ("239.255.255.250", .multicast),
            ("240.0.0.1", .reserved),
            ("255.255.255.255", .reserved),
            ("192.0.2.1", .reserved),
            ("198.18.0.1", .reserved),
            ("203.0.113.200", .reserved),
        ])
    func ipv4(text: String, expected: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClassifier.classify(address) == expected)
    }

    @Test(
        "IPv6 ranges and IPv6 forms of IPv4 addresses",
        arguments: [
            ("2606:4700:4700::1111", AddressCategory.global),
            ("2a00:1450:4001:81b::200e", .global),
            ("::1", .loopback),
            ("::", .unspecified),
            ("fe80::1", .linkLocal),
            ("fe80::1%eth0", .linkLocal),
            ("febf:ffff::1", .linkLocal),
            ("fc00::1", .privateNetwork),
            ("fd12:3456:789a::1", .privateNetwork),
            ("fec0::1", .privateNetwork),
            ("ff02::1", .multicast),
            ("2001:db8::1", .reserved),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", .reserved),
            ("::ffff:127.0.0.1", .loopback),
            ("::ffff:7f00:1", .loopback),
            ("::ffff:10.1.2.3", .privateNetwork),
            ("::ffff:169.254.169.254", .linkLocal),
            ("::ffff:8.8.8.8", .global),
            ("::127.0.0.1", .loopback),
            ("::ffff:0:192.168.0.1", .privateNetwork),
            ("64:ff9b::10.0.0.1", .privateNetwork),
            ("64:ff9b::8.8.8.8", .global),
            ("64:ff9b:1::1", .privateNetwork),
            ("2002:7f00:0001::1", .loopback),
            ("2002:0808:0808::1", .global),
            ("100::1", .reserved),
            ("4000::1", .reserved),
            ("[::1]", .loopback),
        ])
    func ipv6(text: String, expected: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClassifier.classify(address) == expected)
    }

    @Test("Not addresses", arguments: ["", "localhost", "1.2.3", "256.1.1.1", "1.2.3.4.5", "::g", "12345::", "127.1"])
    func notAddresses(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("Canonical text")
    func canonicalText() throws {
        #expect(try #require(IPAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).description == "2001:db8::1")
        #expect(IPAddress.v4(192, 0, 2, 1).description == "192.0.2.1")
    }

    @Test("CIDR networks")
    func networks() throws {
        let ten = try #require(IPNetwork("10.1.2.0/24"))
        #expect(ten.contains(try #require(IPAddress("10.1.2.200"))))
        #expect(!ten.contains(try #require(IPAddress("10.1.3.1"))))
        #expect(!ten.contains(try #require(IPAddress("::ffff:10.1.2.1"))))
        let ula = try #require(IPNetwork("fd00::/64"))
        #expect(ula.contains(try #require(IPAddress("fd00::abcd"))))
        #expect(!ula.contains(try #require(IPAddress("fd00:0:0:1::1"))))
        #expect(try #require(IPNetwork("0.0.0.0/0")).contains(try #require(IPAddress("8.8.8.8"))))
        #expect(try #require(IPNetwork("192.0.2.7")).prefixLength == 32)
        #expect(IPNetwork("10.0.0.0/33") == nil)
        #expect(IPNetwork("10.0.0.0/") == nil)
        #expect(IPNetwork("fd00::/129") == nil)
    }

    @Test(
        "Upstream URLs are parsed strictly",
        arguments: [
            ("http://cdn.example.com/a.m3u8", "cdn.example.com", 80, "/a.m3u8"),
            ("HTTPS://CDN.Example.com:8443/a/b.m3u8?x=1#frag", "cdn.example.com", 8443, "/a/b.m3u8?x=1"),
            ("http://[::1]:8080", "::1", 8080, "/"),
            ("https://example.com?q=1", "example.com", 443, "/?q=1"),
            ("http://example.com./x", "example.com", 80, "/x"),
        ])
    func urls(text: String, host: String, port: Int, path: String) throws {
        let url = try UpstreamURL(text)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.pathAndQuery == path)
    }

    @Test(
        "Refused URLs",
        arguments: [
            "ftp://example.com/x", "file:///etc/passwd", "gopher://example.com", "//example.com/x", "example.com/x",
            "http://user:pass@example.com/", "http://allowed.com@evil.com/", "http://exa mple.com/",
            "http://example.com:0/",
            "http://example.com:99999/", "http://example.com:80a/", "http://[::1/", "http://[example.com]/",
            "http://%65xample.com/",
            "http://example.com\r\nHost: evil/", "http:///path", "http://ex\\ample.com/",
        ])
    func refusedURLs(text: String) {
        #expect(throws: UpstreamError.self) { try UpstreamURL(text) }
    }

    @Test("Pinned URL keeps path and port and brackets IPv6")
    func pinned() throws {
        let url = try UpstreamURL("http://origin.test/live/a.m3u8?t=1")
        #expect(url.pinned(to: .v4(93, 184, 216, 34)) == "http://93.184.216.34:80/live/a.m3u8?t=1")
        #expect(url.pinned(to: try #require(IPAddress("2001:db8::7"))) == "http://[2001:db8::7]:80/live/a.m3u8?t=1")
        #expect(try UpstreamURL("http://origin.test:8080/x").authority == "origin.test:8080")
        #expect(try UpstreamURL("https://origin.test:443/x").authority == "origin.test")
    }

    static func policy(_ edit: (inout SeamConfiguration) -> Void = { _ in }) throws -> UpstreamPolicy {
        var configuration = SeamConfiguration()
        edit(&configuration)
        return try UpstreamPolicy(configuration: configuration)
    }

    @Test("Host rule: allowedHosts, when set, uses the same wildcard rules")
    func hostRule() throws {
        let open = try Self.policy()
        #expect(throws: Never.self) { try open.checkHost("anything.example") }
        let listed = try Self.policy { $0.upstream.allowedHosts = ["origin.example.com", "*.cdn.example.net"] }
        #expect(throws: Never.self) { try listed.checkHost("ORIGIN.example.com.") }
        #expect(throws: Never.self) { try listed.checkHost("a.b.cdn.example.net") }
        let error = #expect(throws: UpstreamError.self) { try listed.checkHost("cdn.example.net") }
        guard case .blocked(let host, let reason) = error else {
            Issue.record("expected .blocked, got \(String(describing: error))")
            return
        }
        #expect(host == "cdn.example.net")
        #expect(reason.contains("upstream.allowedHosts"))
    }

    @Test("Address rule: private refused by default, opened wholesale or by range")
    func addressRule() throws {
        let strict = try Self.policy()
        let loopback = try #require(IPAddress("127.0.0.1"))
        let privateAddress = try #require(IPAddress("10.1.2.3"))
        let error = #expect(throws: UpstreamError.self) { try strict.checkAddress(loopback, host: "localhost") }
        #expect(error?.description.contains("loopback") == true)
        #expect(error?.description.contains("allowPrivateNetworks") == true)
        #expect(throws: Never.self) { try strict.checkAddress(.v4(8, 8, 8, 8), host: "dns.google") }

        let open = try Self.policy { $0.upstream.allowPrivateNetworks = true }
        #expect(throws: Never.self) { try open.checkAddress(loopback, host: "localhost") }

        let ranged = try Self.policy { $0.upstream.allowedNetworks = ["10.1.0.0/16"] }
        #expect(throws: Never.self) { try ranged.checkAddress(privateAddress, host: "origin.internal") }
        #expect(throws: UpstreamError.self) { try ranged.checkAddress(.v4(10, 2, 0, 1), host: "other.internal") }
        #expect(throws: UpstreamError.self) { try ranged.checkAddress(loopback, host: "localhost") }
    }

    @Test("Time-outs and size limits per purpose")
    func limits() throws {
        let policy = try Self.policy {
            $0.upstream.originTimeoutSeconds = 4
            $0.upstream.adMediaTimeoutSeconds = 3
            $0.ads.requestTimeoutSeconds = 1.5
            $0.beacons.timeoutSeconds = 0.5
            $0.upstream.maxPlaylistBytes = 1000
            $0.upstream.maxVASTBytes = 2000
        }
        #expect(policy.timeout(for: .origin) == .seconds(4))
        #expect(policy.timeout(for: .adMedia) == .seconds(3))
        #expect(policy.timeout(for: .adDecision) == .milliseconds(1500))
        #expect(policy.timeout(for: .beacon) == .milliseconds(500))
        #expect(policy.sizeLimit(for: .origin) == 1000)
        #expect(policy.sizeLimit(for: .adMedia) == 1000)
        #expect(policy.sizeLimit(for: .adDecision) == 2000)
        #expect(policy.sizeLimit(for: .beacon) == 64 * 1024)
    }
}

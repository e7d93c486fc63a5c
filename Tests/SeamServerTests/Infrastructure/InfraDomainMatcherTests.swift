import Testing
@testable import SeamServer

@Suite("Infra: domain matcher and host patterns")
struct InfraDomainMatcherTests {
    static let custom: DomainMatcher = {
        do {
            return try DomainMatcher.custom(["cdn.example.com", "*.example.net", "192.0.2.10", "[2001:db8::5]"])
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    @Test(
        "custom: exact names and *.suffix wildcards",
        arguments: [
            ("cdn.example.com", true),
            ("CDN.Example.COM", true),
            ("cdn.example.com.", true),
            ("www.example.com", false),
            ("example.com", false),
            ("a.example.net", true),
            ("a.b.example.net", true),
            ("A.B.EXAMPLE.NET.", true),
            ("example.net", false),
            ("badexample.net", false),
            ("example.net.evil.com", false),
            ("192.0.2.10", true),
            ("192.0.2.11", false),
            ("2001:db8::5", true),
            ("[2001:db8::5]", true),
            ("", false),
        ])
    func customMatching(host: String, expected: Bool) {
        #expect(Self.custom.intercepts(host: host) == expected)
    }

    @Test("all and none ignore the host")
    func allAndNone() {
        for host in ["cdn.example.com", "localhost", "10.0.0.1"] {
            #expect(DomainMatcher.all.intercepts(host: host))
            #expect(!DomainMatcher.none.intercepts(host: host))
        }
    }

    @Test(
        "URLs: the real host decides, and non-http URLs are never intercepted",
        arguments: [
            ("https://cdn.example.com/live/master.m3u8", true),
            ("http://CDN.example.com:8080/a.m3u8?token=1", true),
            ("https://x.example.net/v.m3u8", true),
            ("https://example.net/v.m3u8", false),
            ("https://cdn.example.com@evil.com/v.m3u8", false),
            ("ftp://cdn.example.com/v.m3u8", false),
            ("cdn.example.com/v.m3u8", false),
            ("https://[2001:db8::5]/v.m3u8", true),
        ])
    func urlMatching(url: String, expected: Bool) {
        #expect(Self.custom.intercepts(url: url) == expected)
    }

    @Test("From configuration: hosts only matter in custom mode")
    func fromConfiguration() throws {
        var domains = SeamConfiguration.Domains()
        domains.hosts = ["a.test"]
        domains.mode = .none
        #expect(try DomainMatcher(configuration: domains) == .none)
        domains.mode = .custom
        let matcher = try DomainMatcher(configuration: domains)
        #expect(matcher.intercepts(host: "a.test"))
        #expect(!matcher.intercepts(host: "b.test"))
    }

    @Test(
        "Bad entries are refused with a reason",
        arguments: [
            "*", "*.", "a.*.example.com", "https://cdn.example.com", "cdn.example.com/path", "bad host", "", "a..b",
        ])
    func badPatterns(entry: String) {
        #expect(throws: HostPatternError.self) { try HostPattern(entry) }
    }
}

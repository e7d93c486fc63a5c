import Foundation
import SeamKit
import Testing

/// The settings an app gives SeamKit, checked without a network.
@Suite struct ConfigurationTests {
    static let base = URL(string: "https://seam.example")!

    @Test(
        "The keep-alive interval: configured, else the server's, clamped to 5–10 s",
        arguments: [
            (nil, 10.0, 10.0), (nil, 1.0, 5.0), (nil, 60.0, 10.0), (nil, 7.5, 7.5), (6.0, 10.0, 6.0), (2.0, 10.0, 5.0),
            (nil, nil, 10.0), (Double.nan, 8.0, 10.0),
        ] as [(Double?, Double?, Double)])
    func keepAliveInterval(configured: Double?, server: Double?, expected: Double) {
        let configuration = SeamKitConfiguration(seamBaseURL: Self.base, keepAliveInterval: configured)
        #expect(configuration.keepAliveInterval(serverSuggests: server) == expected)
    }

    @Test("The domain rules decide as the server's: all, none, exact hosts and *.suffix wildcards")
    func domainRules() throws {
        let custom = try DomainRules.custom(["cdn.example.com", "*.media.example"])
        let cases: [(String, Bool)] = [
            ("https://cdn.example.com/a.m3u8", true), ("https://CDN.Example.com./a.m3u8", true),
            ("https://x.media.example/a.m3u8", true), ("https://media.example/a.m3u8", false),
            ("https://badcdn.example.com/a.m3u8", false), ("ftp://cdn.example.com/a.m3u8", false),
        ]
        for (text, expected) in cases {
            let url = try #require(URL(string: text))
            #expect(custom.intercepts(url: url) == expected, "\(text)")
            #expect(DomainRules.none.intercepts(url: url) == false)
        }
        #expect(DomainRules.all.intercepts(url: try #require(URL(string: "http://any.test/a.m3u8"))))
        #expect(throws: HostPatternError.self) { try DomainRules.custom(["*"]) }
    }

    @Test("Options become the session body; the duration in milliseconds")
    func optionsBody() throws {
        let options = SessionOptions(
            adParams: ["a": "1"], contentId: "c", durationSeconds: 61.5, palNonce: "n",
            consent: .init(allowStorage: true), trackingMode: .hybrid, renderingMode: .interstitials,
            policy: .init(repeat: .once))
        let body = options.body(contentURL: try #require(URL(string: "https://origin.test/a.m3u8")))
        #expect(
            body
                == SessionCreateBody(
                    url: "https://origin.test/a.m3u8", adParams: ["a": "1"], contentId: "c", durationMs: 61_500,
                    palNonce: "n", consent: .init(allowStorage: true), mode: .interstitials,
                    trackingMode: .hybrid, policy: .init(repeat: .once)))
    }
}

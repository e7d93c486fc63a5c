import Foundation
import Testing
@testable import VAST

@Suite("IAB macros")
struct VASTMacrosTests {
    private let macros = VASTMacros(
        cacheBuster: 1234,
        timestamp: Date(timeIntervalSince1970: 1_453_018_507.127),
        errorCode: .noAdsAfterWrapper,
        breakPosition: .midRoll,
        serverSide: .serverForClient,
        deviceIP: "203.0.113.7",
        deviceUserAgent: "Mozilla/5.0 (X11; Linux x86_64)",
        gdpr: true,
        gdprConsent: "CO-abc_1~x",
        adPlayhead: 75.5,
        contentPlayhead: 3723.25,
        assetURI: "https://cdn.example/ad/master.m3u8",
        podSequence: 2,
        adCount: 3,
        limitAdTracking: false,
        regulations: ["gdpr", "coppa"],
        transactionID: "123e4567-e89b-12d3-a456-426614174000",
        appBundle: "com.example.app",
        domain: "example.com",
        pageURL: "https://example.com/watch?v=1&t=2"
    )

    @Test("every supported macro is replaced with its encoded value")
    func allMacros() {
        let template =
            "https://t.example/b?e=[ERRORCODE]&cb=[CACHEBUSTING]&ts=[TIMESTAMP]&bp=[BREAKPOSITION]&ss=[SERVERSIDE]"
            + "&ip=[DEVICEIP]&ua=[DEVICEUA]&g=[GDPR]&gc=[GDPRCONSENT]&ap=[ADPLAYHEAD]&cp=[CONTENTPLAYHEAD]&mp=[MEDIAPLAYHEAD]"
            + "&a=[ASSETURI]&ps=[PODSEQUENCE]&ac=[ADCOUNT]&lat=[LIMITADTRACKING]&r=[REGULATIONS]&tx=[TRANSACTIONID]"
            + "&ab=[APPBUNDLE]&d=[DOMAIN]&pu=[PAGEURL]"
        #expect(
            macros.expand(template) == "https://t.example/b?e=303&cb=00001234&ts=2016-01-17T08%3A15%3A07.127Z&bp=2&ss=1"
                + "&ip=203.0.113.7&ua=Mozilla%2F5.0%20%28X11%3B%20Linux%20x86_64%29&g=1&gc=CO-abc_1~x&ap=00%3A01%3A15.500"
                + "&cp=01%3A02%3A03.250&mp=01%3A02%3A03.250&a=https%3A%2F%2Fcdn.example%2Fad%2Fmaster.m3u8&ps=2&ac=3&lat=0"
                + "&r=gdpr%2Ccoppa&tx=123e4567-e89b-12d3-a456-426614174000&ab=com.example.app&d=example.com"
                + "&pu=https%3A%2F%2Fexample.com%2Fwatch%3Fv%3D1%26t%3D2")
    }

    @Test("unknown macros and macros without a value are left untouched")
    func untouched() {
        let partial = VASTMacros(cacheBuster: 99_999_999)
        #expect(
            partial.expand("https://x/[CACHEBUSTING]/[ADPLAYHEAD]/[RANDOM]/[PALNONCE]/[not a macro]")
                == "https://x/99999999/[ADPLAYHEAD]/[RANDOM]/[PALNONCE]/[not a macro]")
        #expect(VASTMacros().expand("https://x/[CACHEBUSTING]") == "https://x/[CACHEBUSTING]")
        #expect(macros.expand("[CACHEBUSTING") == "[CACHEBUSTING")
        #expect(macros.expand("[[CACHEBUSTING]]") == "[00001234]")
        #expect(macros.expand("100%25 ok [] %5B%5D %") == "100%25 ok [] %5B%5D %")
    }

    @Test("custom macros in any case, a known macro over a custom one, and unset for known names only")
    func customAndUnset() {
        let viewer = VASTMacros(
            deviceIP: "203.0.113.7", custom: ["clientua": "Player 1/2", "DEVICEIP": "shadowed", "OWN": "x"])
        let template = "https://x/?ua=[CLIENTUA]&ip=[DEVICEIP]&o=%5Bown%5D&cb=[CACHEBUSTING]&r=[RANDOM]"
        #expect(
            viewer.expand(template) == "https://x/?ua=Player%201%2F2&ip=203.0.113.7&o=x&cb=[CACHEBUSTING]&r=[RANDOM]")
        // Unset fills the IAB names without a value, never an unknown one.
        #expect(
            viewer.expand(template, unset: VASTMacros.unknown)
                == "https://x/?ua=Player%201%2F2&ip=203.0.113.7&o=x&cb=-1&r=[RANDOM]")
        // What each name expands to is what `values` lists.
        for (name, value) in macros.values {
            #expect(macros.expand("[\(name)]") == VASTMacros.percentEncode(value), "\(name)")
        }
    }

    @Test("lenient forms: any case, and brackets the ad server percent-encoded")
    func lenientForms() {
        #expect(
            macros.expand("https://x/?cb=[cachebusting]&e=%5BERRORCODE%5D&e2=%5berrorcode%5d")
                == "https://x/?cb=00001234&e=303&e2=303")
    }

    @Test("sample.xml impression and error URLs expand as a beacon sender needs them")
    func corpusURLs() throws {
        let inline = try #require(try Fixtures.parse("sample.xml").ads.first?.inline)
        #expect(
            macros.expand(inline.impressions[0].url)
                == "http://example.com/impression1_asset:https%3A%2F%2Fcdn.example%2Fad%2Fmaster.m3u8_00001234")
        #expect(macros.expand(inline.impressions[1].url) == "http://example.com/impression2_[random]")
        var onError = VASTMacros()
        onError.errorCode = .noSupportedMediaFile
        #expect(onError.expand(inline.errorURLs[0]) == "http://example.com/error_403")
    }

    @Test("value formats: cache buster digits, timestamps, playheads, percent-encoding")
    func formats() {
        #expect(VASTMacros.formatCacheBuster(7) == "00000007")
        #expect(VASTMacros.formatCacheBuster(123_456_789_012) == "56789012")
        #expect(
            VASTMacros.formatTimestamp(Date(timeIntervalSince1970: 1_709_251_199.999)) == "2024-02-29T23:59:59.999Z")
        #expect(VASTMacros.formatTimestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(VASTMacros.formatTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(VASTMacros.formatTimestamp(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999Z")
        #expect(VASTMacros.formatTimestamp(Date(timeIntervalSince1970: -.infinity)) == "1970-01-01T00:00:00.000Z")
        #expect(VASTTime.format(0) == "00:00:00.000")
        #expect(VASTTime.format(36000.0004) == "10:00:00.000")
        #expect(VASTMacros.percentEncode("a b/ü~-._") == "a%20b%2F%C3%BC~-._")
        #expect(macros.values["GDPR"] == "1")
        #expect(VASTMacros(custom: ["clientua": "x y"]).expand("[CLIENTUA]") == "x%20y")
    }
}

import Foundation
import Testing
@testable import SeamServer

@Suite("Analytics configuration")
struct AnalyticsConfigurationTests {
    let loader = ConfigurationLoader(environment: [:])

    @Test("Off by default; with endpoints and no mode, personal data is anonymized")
    func defaults() throws {
        let configuration = try loader.load(yaml: nil)
        #expect(configuration.analytics.endpoints.isEmpty)
        let on = try loader.load(yaml: "analytics:\n  endpoints: [\"https://collector.test/seam\"]\n")
        #expect(on.analytics.privacy == .anonymized)
    }

    @Test("An encryption key of the wrong length is a clear startup error naming the key, never its value")
    func badKeyLength() throws {
        let short = Data(count: 16).base64EncodedString()
        do {
            _ = try loader.load(
                yaml: nil,
                overrides: [
                    "analytics.endpoints": "https://collector.test/seam",
                    "analytics.privacy": "encrypted", "analytics.encryptionKey": short,
                ])
            Issue.record("a 16-byte key was accepted")
        } catch {
            #expect(error.key == "analytics.encryptionKey")
            #expect(error.description.contains("16 bytes"))
            #expect(error.description.contains("32"))
            #expect(!error.description.contains(short))
        }
    }

    @Test("encrypted without a key is refused; with a good key it loads", arguments: [true, false])
    func encryptedNeedsKey(withKey: Bool) throws {
        var overrides = ["analytics.endpoints": "https://collector.test/seam", "analytics.privacy": "encrypted"]
        if withKey { overrides["analytics.encryptionKey"] = randomAnalyticsKey() }
        if withKey {
            #expect(try loader.load(yaml: nil, overrides: overrides).analytics.privacy == .encrypted)
        } else {
            #expect(throws: ConfigurationError.self) { try loader.load(yaml: nil, overrides: overrides) }
        }
    }

    @Test(
        "Bad values are refused with the key named",
        arguments: [
            ("analytics.endpoints", "collector.test/no-scheme"),
            ("analytics.privacy", "hashed"),
            ("analytics.hashSecret", "too short"),
            ("analytics.hashRotationSeconds", "10"),
            ("analytics.batchSize", "0"),
            ("analytics.flushSeconds", "0"),
            ("analytics.maxAttempts", "0"),
            ("analytics.queueCapacity", "0"),
        ])
    func badValues(key: String, value: String) {
        do {
            _ = try loader.load(yaml: nil, overrides: [key: value])
            Issue.record("\(key)=\(value) was accepted")
        } catch {
            #expect(error.key == key)
        }
    }

    @Test("The environment sets the mode and the key (SEAM_ANALYTICS_*)")
    func environment() throws {
        let key = randomAnalyticsKey()
        let loader = ConfigurationLoader(environment: [
            "SEAM_ANALYTICS_ENDPOINTS": "https://a.test/c,https://b.test/c", "SEAM_ANALYTICS_PRIVACY": "encrypted",
            "SEAM_ANALYTICS_ENCRYPTION_KEY": key,
        ])
        let configuration = try loader.load(yaml: nil)
        #expect(configuration.analytics.endpoints == ["https://a.test/c", "https://b.test/c"])
        #expect(configuration.analytics.encryptionKey == key)
        #expect(!ConfigurationLoader.renderYAML(configuration).contains(key), "the key is never printed")
    }
}

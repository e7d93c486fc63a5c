import Foundation
import Testing
@testable import SeamServer

/// A fresh 32-byte key in base64, as `openssl rand -base64 32` gives.
func randomAnalyticsKey() -> String {
    Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
}

@Suite("Analytics privacy transforms")
struct AnalyticsPrivacyTests {
    @Test(
        "IP addresses are cut to their network: IPv4 /24, IPv6 /48, IPv4-in-IPv6 as IPv4",
        arguments: [
            ("203.0.113.77", "203.0.113.0"),
            ("10.1.2.255", "10.1.2.0"),
            ("2001:db8:85a3:1234:5678:9abc:def0:1", "2001:db8:85a3::"),
            ("[2001:db8:1:ffff::7]", "2001:db8:1::"),
            ("::ffff:198.51.100.9", "198.51.100.0"),
        ])
    func truncation(input: String, expected: String) {
        #expect(AnalyticsPrivacy.truncated(input) == expected)
    }

    @Test("Text that is not an IP address is not sent at all", arguments: ["unknown", "", "203.0.113", "example.com"])
    func notAnAddress(input: String) {
        #expect(AnalyticsPrivacy.truncated(input) == nil)
    }

    @Test("AES-GCM: a sealed value opens with its key to the original, and each sealing differs")
    func roundTrip() throws {
        let key = try AnalyticsEncryptionKey(base64: randomAnalyticsKey())
        let value = "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) ünïcode"
        let first = key.seal(value)
        let second = key.seal(value)
        #expect(first != second, "a fresh nonce per value")
        #expect(!first.contains("Mozilla"))
        #expect(try key.open(first) == value)
        #expect(try key.open(second) == value)
        // base64 of 12-byte nonce + ciphertext + 16-byte tag
        #expect(Data(base64Encoded: first)?.count == 12 + value.utf8.count + 16)
    }

    @Test("AES-GCM: a value sealed by another implementation (nonce, ciphertext, tag) opens")
    func interoperates() throws {
        // Python `cryptography`: AESGCM(bytes(range(32))).encrypt(bytes(range(100, 112)), b"203.0.113.77", None)
        let key = try AnalyticsEncryptionKey(base64: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        #expect(try key.open("ZGVmZ2hpamtsbW5veivtSEnHZ68NTGjfa/VTgovzcJfiJQevCqZN5g==") == "203.0.113.77")
    }

    @Test("AES-GCM: another key, or an altered value, does not open")
    func wrongKeyFails() throws {
        let key = try AnalyticsEncryptionKey(base64: randomAnalyticsKey())
        let other = try AnalyticsEncryptionKey(base64: randomAnalyticsKey())
        let sealed = key.seal("203.0.113.77")
        #expect(throws: AnalyticsKeyError.self) { try other.open(sealed) }
        var bytes = try #require(Data(base64Encoded: sealed))
        bytes[bytes.count - 1] ^= 0x01
        #expect(throws: AnalyticsKeyError.self) { try key.open(bytes.base64EncodedString()) }
        #expect(throws: AnalyticsKeyError.self) { try key.open("not base64 at all!") }
    }

    @Test(
        "A key that is not 32 bytes of base64 is refused, saying what is expected",
        arguments: [
            "", "not-base64!!", Data(count: 16).base64EncodedString(), Data(count: 33).base64EncodedString(),
        ])
    func badKeys(text: String) {
        #expect(throws: AnalyticsKeyError.self) { try AnalyticsEncryptionKey(base64: text) }
    }

    @Test("Hashes: stable within a period, different in the next period and under another secret")
    func hashPeriods() {
        let secret = String(repeating: "s", count: 40)
        let keys = AnalyticsHashKeys(secret: secret, rotationSeconds: 86_400)
        let morning = Date(
            timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400) + 3600)
        let evening = morning.addingTimeInterval(20 * 3600)
        let tomorrow = morning.addingTimeInterval(24 * 3600)
        let value = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
        let hash = keys.hash(value, at: morning)
        #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit))
        #expect(keys.hash(value, at: evening) == hash, "same day, same key")
        #expect(keys.hash(value, at: tomorrow) != hash, "the key rotates daily")
        #expect(keys.hash("another device", at: morning) != hash)
        // Replicas with the same secret agree; another secret does not.
        #expect(AnalyticsHashKeys(secret: secret, rotationSeconds: 86_400).hash(value, at: evening) == hash)
        #expect(
            AnalyticsHashKeys(secret: String(repeating: "t", count: 40), rotationSeconds: 86_400).hash(
                value, at: morning) != hash)
    }

    @Test("Hashes without a secret: random per process and period, stable within it")
    func randomHashKeys() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let one = AnalyticsHashKeys(secret: "", rotationSeconds: 3600)
        let other = AnalyticsHashKeys(secret: "", rotationSeconds: 3600)
        #expect(one.hash("ua", at: date) == one.hash("ua", at: date.addingTimeInterval(1)))
        #expect(one.hash("ua", at: date) != other.hash("ua", at: date))
        #expect(one.hash("ua", at: date) != one.hash("ua", at: date.addingTimeInterval(3600)))
        // A late event of the previous period does not replace the new period's key.
        let next = one.hash("ua", at: date.addingTimeInterval(3600))
        _ = one.hash("ua", at: date)
        #expect(one.hash("ua", at: date.addingTimeInterval(3601)) == next)
    }

    static let inputs: SessionInputs = {
        var request = SessionRequest(url: "https://origin.test/master.m3u8")
        request.adParams = [
            "IFA": "6D92078A-8246-4BA4-AE5B-76104861E7DC", "device_id": "abc-123", "rdid": "r-1",
            "genre": "news", "ua": "ignored because the header has one",
        ]
        return SessionInputs(
            request: request, deviceIP: "203.0.113.77", userAgent: "TestPlayer/1.0", baseURL: "http://seam.test")
    }()

    @Test("Device-id ad parameters are personal whatever their spelling; the rest are not")
    func deviceIDParameters() {
        let data = PersonalData(Self.inputs)
        #expect(data.deviceIP == "203.0.113.77")
        #expect(data.userAgent == "TestPlayer/1.0")
        #expect(
            data.deviceIDs == ["IFA": "6D92078A-8246-4BA4-AE5B-76104861E7DC", "device_id": "abc-123", "rdid": "r-1"])
        #expect(PersonalData.impersonalParameters(Self.inputs.request.adParams) == ["genre": "news"])
        for name in ["idfa", "aaid", "deviceId", "device-id", "Advertising_ID", "ppid", "uip", "UserAgent"] {
            #expect(PersonalData.isPersonal(parameter: name), "\(name)")
        }
        for name in ["genre", "ct", "vpos", "pod"] { #expect(!PersonalData.isPersonal(parameter: name), "\(name)") }
    }

    @Test(
        "Consent: allowStorage false, or GDPR without a consent string, keeps device ids out",
        arguments: [
            (SessionRequest.Consent(allowStorage: false), false),
            (SessionRequest.Consent(gdpr: true), false),
            (SessionRequest.Consent(gdpr: true, gdprConsent: ""), false),
            (SessionRequest.Consent(gdpr: true, gdprConsent: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA"), true),
            (SessionRequest.Consent(gdpr: false), true),
            (SessionRequest.Consent(allowStorage: true), true),
        ])
    func consent(consent: SessionRequest.Consent, allowed: Bool) {
        var inputs = Self.inputs
        inputs.request.consent = consent
        let data = PersonalData(inputs)
        #expect(data.deviceIDs.isEmpty == !allowed)
        #expect(data.deviceIP == "203.0.113.77", "IP and User-Agent follow the privacy mode, not consent")
        // Under every mode, even clear.
        let clear = AnalyticsPrivacy(mode: .clear, hashKeys: AnalyticsHashKeys(secret: "", rotationSeconds: 86_400))
        #expect((clear.device(data, at: Date())?.ids == nil) == !allowed)
    }

    @Test("Each mode's device object: clear as received, encrypted sealed, anonymized cut and hashed, delete none")
    func modes() throws {
        let data = PersonalData(Self.inputs)
        let hashKeys = AnalyticsHashKeys(secret: String(repeating: "k", count: 32), rotationSeconds: 86_400)
        let now = Date()
        let clear = try #require(AnalyticsPrivacy(mode: .clear, hashKeys: hashKeys).device(data, at: now))
        #expect(
            clear.ip == "203.0.113.77" && clear.userAgent == "TestPlayer/1.0"
                && clear.ids?["IFA"] == "6D92078A-8246-4BA4-AE5B-76104861E7DC")

        let key = try AnalyticsEncryptionKey(base64: randomAnalyticsKey())
        let sealed = try #require(
            AnalyticsPrivacy(mode: .encrypted, encryption: key, hashKeys: hashKeys).device(data, at: now))
        #expect(try key.open(try #require(sealed.ip)) == "203.0.113.77")
        #expect(try key.open(try #require(sealed.userAgent)) == "TestPlayer/1.0")
        #expect(try key.open(try #require(sealed.ids?["device_id"])) == "abc-123")
        #expect(sealed.encryption == "AES-256-GCM")

        let anonymized = try #require(AnalyticsPrivacy(mode: .anonymized, hashKeys: hashKeys).device(data, at: now))
        #expect(anonymized.ip == "203.0.113.0")
        #expect(anonymized.userAgent == hashKeys.hash("TestPlayer/1.0", at: now))
        #expect(anonymized.ids?["IFA"] == hashKeys.hash("6D92078A-8246-4BA4-AE5B-76104861E7DC", at: now))
        #expect(anonymized.hashPeriod != nil)

        #expect(AnalyticsPrivacy(mode: .delete, hashKeys: hashKeys).device(data, at: now) == nil)
    }
}

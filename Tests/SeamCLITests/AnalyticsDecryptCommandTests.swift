import Foundation
import Testing

// `seam analytics decrypt` run as a subprocess. The values were sealed by another AES-GCM
// implementation (Python's `cryptography`, key bytes 0...31, nonce bytes 100...111), so the test
// also pins the format collectors store: base64 of nonce, ciphertext and tag.
@Suite("seam analytics decrypt", .timeLimit(.minutes(1)))
struct AnalyticsDecryptCommandTests {
    static let key = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let sealedIP = "ZGVmZ2hpamtsbW5veivtSEnHZ68NTGjfa/VTgovzcJfiJQevCqZN5g=="
    static let sealedUserAgent =
        "ZGVmZ2hpamtsbW5vCXW/CgCdP/1NNjqbrjUGnDundCW5QsJSj53FJo7bnmjhhym0bCapLdyxTRUeiUPWREIXmLTpPAI="

    @Test("Each value opens to its original, one per line")
    func decrypts() async throws {
        let workspace = try Workspace()
        let result = try await workspace.seam(
            "analytics", "decrypt", "--key", Self.key, Self.sealedIP, Self.sealedUserAgent)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "203.0.113.77\nAnalyticsTestPlayer/2.1 (Linux; unit 42)\n")
    }

    @Test("Another key fails with status 1; a key of the wrong length is refused")
    func wrongKey() async throws {
        let workspace = try Workspace()
        let other = Data(repeating: 7, count: 32).base64EncodedString()
        let result = try await workspace.seam("analytics", "decrypt", "--key", other, Self.sealedIP)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("does not open with this key"))
        let short = try await workspace.seam(
            "analytics", "decrypt", "--key", Data(count: 16).base64EncodedString(), Self.sealedIP)
        #expect(short.status != 0)
        #expect(short.stderr.contains("32"), "\(short)")
    }
}

import Foundation
import Logging
import Testing
@testable import SeamServer

@Suite("Infra: JSON log lines and log redaction")
struct InfraLoggingTests {
    @Test("Strings are escaped so every line is one valid JSON object")
    func quoting() throws {
        let quoted = JSONLogHandler.quote("a \"b\" \\ c\nd\te\u{1}")
        #expect(quoted == #""a \"b\" \\ c\nd\te\u0001""#)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8), options: []) as? [String]
        #expect(decoded == ["a \"b\" \\ c\nd\te\u{1}"])
    }

    @Test("Metadata values are flattened to text")
    func flattening() {
        let value: Logger.MetadataValue = .dictionary(["b": .array([.string("x"), .stringConvertible(3)]), "a": "1"])
        #expect(JSONLogHandler.flatten(value) == "{a: 1, b: [x, 3]}")
    }

    @Test("Upstream URLs in logs lose their query")
    func redaction() {
        #expect(SafeUpstreamClient.redacted("https://ads.test/vast?key=secret&ip=1.2.3.4") == "https://ads.test/vast?…")
        #expect(
            SafeUpstreamClient.redacted("https://a.test/x?k=1 answered HTTP 500")
                == "https://a.test/x?… answered HTTP 500")
        #expect(SafeUpstreamClient.redacted("no query here") == "no query here")
    }
}

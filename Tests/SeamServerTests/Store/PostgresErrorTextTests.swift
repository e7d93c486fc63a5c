import Foundation
import Testing

@testable import SeamServer

/// Store failures read as words an operator can act on, without the libraries' type names.
@Suite struct PostgresErrorTextTests {
    struct Record: Decodable {
        var version: Int
        var kind: String
    }

    @Test("A record that cannot be read names the field, not the decoder's types")
    func decodingFailures() throws {
        let cases: [(json: String, expected: String)] = [
            (#"{"version": 1}"#, "the stored value has no kind"),
            (#"{"version": "one", "kind": "vod"}"#, "the stored field version is missing or of another type"),
            ("{", "the stored value could not be read"),
        ]
        for (json, expected) in cases {
            do {
                _ = try JSONDecoder().decode(Record.self, from: Data(json.utf8))
                Issue.record("\(json) decoded")
            } catch {
                let text = PostgresErrorText.plain(error)
                #expect(text.hasPrefix(expected), "\(text)")
                for name in ["DecodingError", "CodingKeys", "Swift.", "PSQLError"] {
                    #expect(!text.contains(name), "\(text)")
                }
            }
        }
    }
}

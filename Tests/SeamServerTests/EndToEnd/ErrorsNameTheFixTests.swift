import Foundation
import SeamTesting
import Testing

/// The common mistakes of a first day with Seam, each answered with the fix: the field, the
/// setting or the URL form to use, and never a library's type name, errno text or usage text.
@Suite struct ErrorsNameTheFixTests {
    /// Runs the `seam` executable; its exit status and what it wrote to standard error.
    static func seam(_ arguments: [String]) throws -> (status: Int32, errors: String)? {
        guard let executable = PlayerTools.seamExecutable() else { return nil }
        let run = try PlayerTools.runSeparated(executable, arguments)
        return (run.status, run.errors)
    }

    static let leaks = ["errno", "bind(descriptor", "HTTPError", "NIO", "Usage:", "/checkouts/", "Dictionary<"]

    static func expectNoLeak(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in leaks { #expect(!text.contains(leak), "\(leak) in: \(text)", sourceLocation: sourceLocation) }
    }

    @Test("A busy port: the address, the reason and the setting to change")
    func busyPort() async throws {
        try await SeamStack.run { stack in
            let port = try #require(URL(string: stack.seamBaseURL)?.port)
            guard let run = try Self.seam(["serve", "--port", String(port)]) else {
                Issue.record("the seam executable is not built next to the tests")
                return
            }
            #expect(run.status != 0)
            #expect(run.errors.contains("127.0.0.1:\(port)") && run.errors.contains("another program"), "\(run.errors)")
            #expect(run.errors.contains("--port") && run.errors.contains("server.port"), "\(run.errors)")
            Self.expectNoLeak(run.errors)
        }
    }

    @Test("A misspelt setting: did you mean, and no usage text after it")
    func misspeltSetting() throws {
        guard let run = try Self.seam(["serve", "--set", "server.prot=8080"]) else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        #expect(run.status == 64)
        #expect(run.errors.contains("Did you mean server.port?"), "\(run.errors)")
        Self.expectNoLeak(run.errors)
    }

    @Test("Body mistakes: a field of the wrong type, a misspelt field, a misspelt seam.* parameter")
    func bodyMistakes() async throws {
        try await SeamStack.run { stack in
            let url = stack.demo.contentURL
            let cases: [(body: [String: Any], says: [String])] = [
                (["url": url, "durationMs": "abc"], ["\"durationMs\" must be a whole number"]),
                (["url": url, "adParams": "genre=news"], ["\"adParams\" must be an object"]),
                (["url": url, "consent": ["allowStorage": "yes"]], ["\"consent.allowStorage\" must be true or false"]),
                (
                    ["url": url, "trackingmode": "server"],
                    ["no field \"trackingmode\"", "did you mean \"trackingMode\"?"]
                ),
                (["durationMs": 1000], ["\"url\" is missing"]),
            ]
            for item in cases {
                let answer = try await stack.request("/v1/sessions", method: .POST, json: item.body)
                #expect(answer.status == 400, "\(item.body): \(answer.body)")
                #expect(answer.errorCode == "INVALID_REQUEST")
                let message = (answer.json["error"] as? [String: Any])?["message"] as? String ?? ""
                for words in item.says { #expect(message.contains(words), "\(item.body): \(message)") }
                Self.expectNoLeak(answer.body)
            }
            let implicit = try await stack.request(
                "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8?seam.schem=http")
            #expect(implicit.status == 400)
            let message = (implicit.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("did you mean seam.scheme?"), "\(message)")
        }
    }
}

import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// What the origin and the ad server receive, byte for byte, read off the wire by a loopback server
/// (issue 23): a signed query goes on as the player sent it; ad parameters are encoded once, with
/// or without a User-Agent; a spoofed `X-Forwarded-For` changes nothing; a bad `adTagHeaders`
/// entry is dropped, not the ad request.
@Suite struct UpstreamWireTests {
    static let content = FaultMedia.vod(segments: 3)
    static let emptyVAST = #"<VAST version="4.2"></VAST>"#

    @Test(
        "The implicit route forwards a signed query byte for byte, minus seam.* (before: %2B, %26 and %3D arrived decoded, and the token broke)"
    )
    func aSignedQueryArrivesByteForByte() async throws {
        let origin = FaultServer(["/content/index.m3u8": .text(Self.content)])
        try await origin.run { base in
            try await SeamStack.run({ $0.ads.adTagURL = "" }) { stack in
                let host = try #require(URLComponents(string: base)).port.map { "127.0.0.1:\($0)" } ?? ""
                let answer = try await stack.request(
                    "/v1/hls/\(host)/content/index.m3u8?tok=a%2Bb%26c%3Dd&seam.scheme=http&sig=x%2Fy%3D%3D&p=1+2")
                #expect(answer.status == 302, "\(answer.body)")
                let targets = origin.received("/content/").map(\.target)
                #expect(targets.first == "/content/index.m3u8?tok=a%2Bb%26c%3Dd&sig=x%2Fy%3D%3D&p=1+2", "\(targets)")
            }
        }
    }

    /// The ad server's requests, by target.
    static func adRequest(userAgent: String?) async throws -> FaultServer.Received? {
        let origin = FaultServer(["/content/index.m3u8": .text(Self.content)])
        let ads = FaultServer(["/vast": .text(Self.emptyVAST, contentType: "application/xml")])
        return try await origin.run { originBase in
            try await ads.run { adsBase in
                try await SeamStack.run({
                    $0.ads.adTagURL =
                        adsBase
                        + "/vast?ip=[DEVICEIP]&ua=[DEVICEUA]&lat=[LIMITADTRACKING]&x=[NOTAMACRO]&cb=[CACHEBUSTING]"
                }) { stack in
                    // A client naming an address of its choosing: Seam trusts no proxy here.
                    let headers = [("X-Forwarded-For", "203.0.113.7")] + (userAgent.map { [("User-Agent", $0)] } ?? [])
                    let answer = try await stack.request(
                        "/v1/sessions", method: .POST,
                        json: [
                            "url": originBase + "/content/index.m3u8",
                            "adParams": ["v": "1&ip=2", "s": "a b/c", "u": "é"],
                            "adTagHeaders": [
                                "X-Good": "yes", "X-Accent": "caf\u{E9}", "X-Control": "a\u{1}b", "Bad Name": "x",
                            ],
                        ], headers: headers)
                    #expect(answer.status == 201, "\(answer.body)")
                }
                return ads.received("/vast").first
            }
        }
    }

    @Test(
        "Ad parameters arrive encoded once, with and without a User-Agent; an IAB macro with no value is -1; a bad adTagHeaders entry is dropped, the request goes"
    )
    func adParametersAreEncodedOnce() async throws {
        for userAgent in [nil, "Player/1.0 (Test)"] {
            let request = try #require(
                try await Self.adRequest(userAgent: userAgent),
                "the ad server was not asked (user agent \(userAgent ?? "none"))")
            let target = request.target
            // Nothing encoded twice (before: v=1%2526ip%253D2 once a macro stayed unexpanded).
            #expect(!target.contains("%25"), "\(target)")
            #expect(target.contains("v=1%26ip%3D2"), "\(target)")
            #expect(target.contains("s=a%20b%2Fc"), "\(target)")
            #expect(target.contains("u=%C3%A9"), "\(target)")
            // X-Forwarded-For from an untrusted peer changes nothing the ad server sees.
            #expect(target.contains("ip=127.0.0.1"), "\(target)")
            #expect(!target.contains("203.0.113.7"), "\(target)")
            #expect(request.header("X-Device-IP") == "127.0.0.1")
            #expect(request.header("X-Forwarded-For")?.contains("203.0.113.7") == false, "\(request.headers)")
            #expect(target.contains("lat=-1"), "an unset IAB macro is VAST's unknown value: \(target)")
            #expect(target.contains("x=%5BNOTAMACRO%5D"), "not a macro: left, encoded once: \(target)")
            if let userAgent {
                #expect(target.contains("ua=Player%2F1.0%20%28Test%29"), "\(target)")
                #expect(request.header("User-Agent") == userAgent)
            } else {
                #expect(target.contains("ua=-1"), "no User-Agent: the macro is unknown, not literal: \(target)")
            }
            #expect(request.header("X-Good") == "yes")
            #expect(request.header("X-Accent") == nil)
            #expect(request.header("X-Control") == nil)
        }
    }

    @Test(
        "Upstream URLs: characters a URL may not hold are encoded once; valid URLs, and their %XX, are left as they are"
    )
    func invalidCharactersEncodedOnce() throws {
        let cases: [(String, String)] = [
            ("https://a.example/p?x=1&y=a%2Bb", "/p?x=1&y=a%2Bb"),
            ("https://a.example/p?ua=[DEVICEUA]&v=1%26ip", "/p?ua=%5BDEVICEUA%5D&v=1%26ip"),
            ("https://a.example/p?q={x}|\"^`", "/p?q=%7Bx%7D%7C%22%5E%60"),
            ("https://a.example/caf\u{E9}?x=100%", "/caf%C3%A9?x=100%25"),
            ("https://a.example/p?x=%zz&y=%4", "/p?x=%25zz&y=%254"),
        ]
        for (url, expected) in cases {
            #expect(try UpstreamURL(url).pathAndQuery == expected, "\(url)")
        }
    }
}

import Foundation
import NIOCore
import SeamTesting
import Testing

/// `seam vast resolve` as ad ops run it against an ad server: the same decisions Seam makes for
/// a session (wrappers followed to the limit, VMAP break by break, empty and broken answers), and
/// no Error URL called.
@Suite struct VASTResolveCommandTests {
    static func resolve(_ tag: String) async throws -> (status: Int32, json: [String: Any])? {
        guard let seam = PlayerTools.seamExecutable() else { return nil }
        // The demo's ad server listens on loopback, which Seam refuses unless told.
        let run = try await PlayerTools.runAsync(
            seam, ["vast", "resolve", tag, "--set", "upstream.allowPrivateNetworks=true", "--json"], timeout: 60)
        return (run.status, run.json)
    }

    static func steps(_ json: [String: Any], _ kind: String) -> [[String: Any]] {
        (json["steps"] as? [[String: Any]] ?? []).filter { $0["step"] as? String == kind }
    }

    @Test("The demo's VMAP: three breaks, the mid-roll through its wrapper, each ad's media")
    func vmap() async throws {
        try await SeamStack.run { stack in
            guard let run = try await Self.resolve(stack.demo.vmapURL) else {
                Issue.record("the seam executable is not built next to the tests")
                return
            }
            #expect(run.status == 0, "\(run.json)")
            let breaks = Self.steps(run.json, "break")
            #expect(breaks.map { $0["ads"] as? [String] ?? [] } == [["ad1", "ad2"], ["ad3"], ["ad4"]], "\(breaks)")
            let requests = Self.steps(run.json, "request")
            #expect(requests.contains { ($0["url"] as? String)?.hasSuffix("/vast/vast-wrapper.xml") == true })
            #expect(requests.allSatisfy { $0["outcome"] as? String == "ok" && $0["status"] as? Int == 200 })
            let ads = Self.steps(run.json, "ad")
            #expect(ads.allSatisfy { ($0["media"] as? String)?.hasSuffix("master.m3u8") == true }, "\(ads)")
        }
    }

    @Test(
        "A wrapper chain past ads.maxWrapperDepth, an empty answer, a broken one: the server's skip reasons, Error URLs not called"
    )
    func failures() async throws {
        let broken = FaultServer(["/broken.xml": .text("<VAST version=\"4.0\"><Ad><InLine>", contentType: "text/xml")])
        try await SeamStack.run { stack in
            let ads = String(stack.demo.vmapURL.dropLast("/vmap".count))
            guard let chain = try await Self.resolve(ads + "/vast/wrapper-chain?depth=6") else {
                Issue.record("the seam executable is not built next to the tests")
                return
            }
            #expect(chain.status == 1)
            #expect(Self.steps(chain.json, "break").first?["skipReason"] as? String == "WRAPPER_LIMIT")
            #expect(Self.steps(chain.json, "vastError").first?["code"] as? Int == 302)
            #expect(Self.steps(chain.json, "request").count == 6, "the limit of 5 wrappers and the one past it")

            let empty = try #require(try await Self.resolve(ads + "/vast/empty"))
            #expect(empty.status == 1)
            #expect(Self.steps(empty.json, "break").first?["skipReason"] as? String == "NO_FILL")

            try await broken.run { base in
                let answer = try #require(try await Self.resolve(base + "/broken.xml"))
                #expect(answer.status == 1)
                #expect(
                    Self.steps(answer.json, "break").first?["skipReason"] as? String == "INVALID_VAST", "\(answer.json)"
                )
            }
            // Nothing was reported to the ad server: resolving is a look, not a session.
            let beacons = try await stack.beacons()
            #expect(!beacons.contains { $0.contains("error") }, "\(beacons)")
        }
    }
}

import Foundation
import NIOCore
import SeamTesting
import Testing

/// `seam vast resolve` as ad ops run it against an ad server: the same decisions Seam makes for
/// a session (wrappers followed to the limit, VMAP break by break, empty and broken answers), and
/// no Error URL called.
@Suite struct VASTResolveCommandTests {
    static func resolve(_ tag: String, _ extra: [String] = []) async throws -> (status: Int32, json: [String: Any])? {
        guard let seam = PlayerTools.seamExecutable() else { return nil }
        // The demo's ad server listens on loopback, which Seam refuses unless told.
        let run = try await PlayerTools.runAsync(
            seam, ["vast", "resolve", tag, "--set", "upstream.allowPrivateNetworks=true", "--json"] + extra, timeout: 60
        )
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

    @Test("--content: each ad's creative variant for each of the title's variants, or why it cannot play there")
    func content() async throws {
        // A title in HEVC: the demo's H.264 creatives have no rendition in its codecs.
        let hevc = FaultServer([
            "/hevc/master.m3u8": .text(
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"hvc1.1.6.L93.B0,mp4a.40.2\",RESOLUTION=1280x720\nv.m3u8\n",
                contentType: "application/vnd.apple.mpegurl"),
            "/hevc/v.m3u8": .text(
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
                contentType: "application/vnd.apple.mpegurl"),
        ])
        try await SeamStack.run { stack in
            guard let run = try await Self.resolve(stack.demo.vmapURL, ["--content", stack.demo.contentURL]) else {
                Issue.record("the seam executable is not built next to the tests")
                return
            }
            #expect(run.status == 0, "\(run.json)")
            let fits = run.json["fits"] as? [[String: Any]] ?? []
            #expect(Set(fits.compactMap { $0["adId"] as? String }) == ["ad1", "ad2", "ad3", "ad4"], "\(fits)")
            for fit in fits {
                #expect(fit["plays"] as? Bool == true, "\(fit)")
                let renditions = fit["renditions"] as? [String: String] ?? [:]
                #expect(renditions.keys.contains("v0"), "\(fit)")
                #expect(renditions.values.allSatisfy { $0.hasPrefix("creative variant ") }, "\(fit)")
            }
            try await hevc.run { base in
                let mismatch = try #require(
                    try await Self.resolve(stack.demo.vmapURL, ["--content", base + "/hevc/master.m3u8"]))
                #expect(mismatch.status == 1, "no ad plays in the title")
                let fits = mismatch.json["fits"] as? [[String: Any]] ?? []
                #expect(!fits.isEmpty)
                for fit in fits {
                    #expect(fit["plays"] as? Bool == false, "\(fit)")
                    #expect(fit["code"] as? String == "creative_mismatch", "\(fit)")
                    #expect((fit["reason"] as? String)?.contains("codecs") == true, "\(fit)")
                }
            }
        }
    }
}

import Foundation
import HLS
import SeamTesting
import Testing

@testable import SeamServer

/// Rendition filters on loopback: the demo title's ladder (360p, 540p, 720p) cut by `renditions`
/// in the body or `seam.renditions.*` on the implicit URL; both renderings list only what passes,
/// the ads are matched to it, and a filter nothing passes is refused naming it.
@Suite struct RenditionFilterEndToEndTests {
    static func heights(_ stack: SeamStack, _ master: String) async throws -> [Int] {
        let answer = try await stack.request(master)
        #expect(answer.status == 200, "\(answer.body)")
        return try MultivariantPlaylist(parsing: answer.body).variants.compactMap { $0.resolution?.height }
    }

    @Test(
        "VOD: maxHeight 540 lists 360p and 540p in both renderings; the ads play in each; the ad assets offer the same")
    func vodBody() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession(["renditions": ["maxHeight": 540]])
            let stitched = try #require(session["stitchedManifestUrl"] as? String)
            let interstitials = try #require(session["interstitialsManifestUrl"] as? String)
            #expect(try await Self.heights(stack, stitched) == [360, 540])
            #expect(try await Self.heights(stack, interstitials) == [360, 540])
            let master = try MultivariantPlaylist(parsing: try await stack.request(stitched).body)
            for variant in master.variants {
                let url = URIReference.resolve(variant.uri, against: stitched)
                let body = try await stack.request(url).body
                #expect(body.contains("/ad/0/0/"), "\(url)")
                #expect(PlaylistValidator.validate(body).diagnostics.filter { $0.severity == .error }.isEmpty)
            }
            // An interstitial's ad asset offers the ad in the same variants.
            let primaryURL = URIReference.resolve(
                try #require(
                    try MultivariantPlaylist(parsing: try await stack.request(interstitials).body).variants.first?.uri),
                against: interstitials)
            let primary = try MediaPlaylist(parsing: try await stack.request(primaryURL).body)
            let listURL = try #require(primary.segments.flatMap(\.dateRanges).first { $0.isInterstitial }?.assetList)
            let list = try await stack.request(listURL).json
            let asset = try #require((list["ASSETS"] as? [[String: Any]])?.first?["URI"] as? String)
            #expect(try await Self.heights(stack, asset) == [360, 540])
        }
    }

    @Test(
        "Implicit: seam.renditions.maxHeight=360 and codecs; refusals name the field, and a filter nothing passes names the ladder"
    )
    func implicitAndRefusals() async throws {
        try await SeamStack.run { stack in
            let path =
                "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8?seam.scheme=http"
            let implicit = try await stack.request(
                path + "&seam.renditions.maxHeight=360&seam.renditions.codecs=avc,aac")
            #expect(implicit.status == 302, "\(implicit.body)")
            #expect(try await Self.heights(stack, try #require(implicit.header("location"))) == [360])

            let none = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "renditions": ["codecs": ["hevc"]]])
            #expect(none.status == 400)
            #expect(
                none.body.contains("renditions (codecs hevc) lets no variant of the content through"), "\(none.body)")
            #expect(none.body.contains("360p"), "\(none.body)")
            for (body, named) in [
                (["maxHeight": "big"] as [String: Any], "renditions.maxHeight must be"),
                (["maxWidth": 3], "renditions must be one of"),
                (["codecs": ["h264"]], "renditions.codecs must be one of"),
                (["maxBandwidth": 0], "renditions.maxBandwidth must be"),
            ] {
                let answer = try await stack.request(
                    "/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL, "renditions": body])
                #expect(answer.status == 400, "\(body)")
                #expect(answer.body.contains(named), "\(answer.body)")
            }
            let badQuery = try await stack.request(path + "&seam.renditions.maxHeight=tall")
            #expect(badQuery.status == 400)
            #expect(badQuery.body.contains("seam.renditions.maxHeight must be"), "\(badQuery.body)")
        }
    }

    @Test("Live: the session's masters list only the variants that pass; the channel stays whole for others")
    func live() async throws {
        let origin = ScriptedLiveOrigin()
        try await SeamStack.run { stack in
            try await origin.run { base in
                let small = try await stack.createSession(
                    ["renditions": ["maxHeight": 480]], url: base + "/master.m3u8")
                #expect(try await Self.heights(stack, try #require(small["stitchedManifestUrl"] as? String)) == [360])
                #expect(
                    try await Self.heights(stack, try #require(small["interstitialsManifestUrl"] as? String)) == [360])
                let whole = try await stack.createSession(url: base + "/master.m3u8")
                #expect(
                    try await Self.heights(stack, try #require(whole["stitchedManifestUrl"] as? String)) == [360, 720])
            }
        }
    }
}

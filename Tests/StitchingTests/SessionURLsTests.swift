import Testing
@testable import Stitching

@Suite struct SessionURLsTests {
    let urls = SessionURLs(baseURL: "https://seam.example/prefix", sessionID: "S3SS10N")

    /// The path part of a URL Seam built under `urls`.
    func path(_ url: String) -> Substring {
        url.dropFirst("https://seam.example/prefix".count)
    }

    @Test func everyURLReadsBackAsWhatItNames() throws {
        let master = try #require(SessionURLs.resource(atPath: path(urls.multivariant)))
        #expect(master.sessionID == "S3SS10N")
        #expect(master.resource == .multivariant)
        #expect(SessionURLs.resource(atPath: path(urls.tracking))?.resource == .tracking)
        for key in [
            RenditionKey(.variant, 0), RenditionKey(.audio, 3), RenditionKey(.subtitles, 11),
            RenditionKey(.alternateVideo, 1),
        ] {
            #expect(urls.media(key) == "https://seam.example/prefix/v1/sessions/S3SS10N/media/\(key.path).m3u8")
            #expect(SessionURLs.resource(atPath: path(urls.media(key)))?.resource == .media(key))
        }
        for source in [
            "https://ads.example/a/seg_1.ts", "https://ads.example/a/seg_1.m4s?token=1.2",
            "https://ads.example/a.b/segment",
        ] {
            let address = AdSegmentAddress(pod: 2, ad: 1, rendition: RenditionKey(.audio, 4), segment: 17)
            let url = urls.adSegment(address, sourceURI: source)
            #expect(url.hasPrefix("https://seam.example/prefix/v1/sessions/S3SS10N/ad/2/1/a4/17"))
            #expect(SessionURLs.resource(atPath: path(url))?.resource == .adSegment(address))
        }
    }

    @Test func adSegmentsKeepTheCreativesExtension() {
        let address = AdSegmentAddress(pod: 0, ad: 0, rendition: RenditionKey(.variant, 0), segment: 3)
        #expect(
            urls.adSegment(address, sourceURI: "https://ads.example/ad3/360p/seg_001.ts").hasSuffix("/ad/0/0/v0/3.ts"))
        #expect(
            urls.adSegment(address, sourceURI: "https://ads.example/a/seg.m4s?token=1.2").hasSuffix("/ad/0/0/v0/3.m4s"))
        #expect(urls.adSegment(address, sourceURI: "https://ads.example/a.b/segment").hasSuffix("/ad/0/0/v0/3"))
        #expect(SessionURLs.extensionSuffix("https://ads.example/a/seg.verylongextension") == "")
        #expect(SessionURLs.extensionSuffix("seg.") == "")
        #expect(SessionURLs.extensionSuffix("https://ads.example/x.ab/c") == "")
    }

    @Test(arguments: [
        "/v1/sessions/S/ad/0/0/v0/../../x",
        "/v1/sessions/S/ad/-1/0/v0/1.ts",
        "/v1/sessions/S/ad/+1/0/v0/1.ts",
        "/v1/sessions/S/ad/0/0/v0/ 1.ts",
        "/v1/sessions/S/ad/99999999999999999999/0/v0/1.ts",
        "/v1/sessions/S/ad/0/0/v00/1.ts",
        "/v1/sessions/S/ad/01/0/v0/1.ts",
        "/v1/sessions/S/ad/0/0/v0/007.ts",
        "/v1/sessions/S/ad/0/0/x0/1.ts",
        "/v1/sessions/S/ad/0/0/v0/.ts",
        "/v1/sessions/S/ad/0/0/v0",
        "/v1/sessions/S/media/v0.m3u8/extra",
        "/v1/sessions/S/media/v0",
        "/v1/sessions/S/media/..%2Fv0.m3u8",
        "/v1/sessions/S/media/.m3u8",
        "/v1/sessions//master.m3u8",
        "/v1/sessions/S/master.m3u8/",
        "/v1/sessions/S",
        "v1/sessions/S/master.m3u8",
        "/v2/sessions/S/master.m3u8",
        "//v1/sessions/S/tracking",
        "",
    ])
    func pathsSeamDidNotWriteAreNotUnderstood(path: String) {
        #expect(SessionURLs.resource(atPath: path[...]) == nil)
    }

    @Test func theRoutesComponentReaderAgreesWithThePathReader() {
        #expect(
            SessionURLs.adSegment(pod: "3", ad: "0", rendition: "s2", segment: "5.vtt")
                == AdSegmentAddress(pod: 3, ad: 0, rendition: RenditionKey(.subtitles, 2), segment: 5))
        #expect(SessionURLs.adSegment(pod: "3", ad: "0", rendition: "s2", segment: "5") != nil)
        #expect(SessionURLs.adSegment(pod: "3", ad: "0x1", rendition: "s2", segment: "5") == nil)
        #expect(SessionURLs.rendition("a1") == RenditionKey(.audio, 1))
        #expect(SessionURLs.rendition("a1.m3u8") == nil)
    }

    @Test func theSharedSubtitlePlaceholderBecomesEachSessionsOwnURL() {
        let other = SessionURLs(baseURL: "http://10.0.0.7:8080", sessionID: "B")
        #expect(
            urls.segmentURI(SessionURLs.emptySubtitlesPlaceholder) == "https://seam.example/prefix/v1/assets/empty.vtt")
        #expect(other.segmentURI(SessionURLs.emptySubtitlesPlaceholder) == "http://10.0.0.7:8080/v1/assets/empty.vtt")
        #expect(urls.segmentURI("https://ads.example/a/0.ts") == "https://ads.example/a/0.ts")
    }

    /// Thousands of mutated paths: whatever reads as a resource is exactly what Seam writes for it
    /// (an ad segment's extension aside), so no second spelling reaches a session.
    @Test func whateverParsesIsWhatSeamWrites() {
        let seeds = [
            "/v1/sessions/S/master.m3u8", "/v1/sessions/S/tracking", "/v1/sessions/S/media/v10.m3u8",
            "/v1/sessions/S/ad/12/3/a4/56.ts", "/v1/sessions/S/interstitials/master.m3u8",
            "/v1/sessions/S/interstitials/media/s1.m3u8", "/v1/sessions/S/assets/mid-1500.json",
            "/v1/sessions/S/assets/scte-42.json", "/v1/sessions/S/adplaylist/1/0/master.m3u8",
            "/v1/sessions/S/adplaylist/10/2/media/a1.m3u8", "/v1/sessions/S/adplaylist/1/0/media/v1/12.ts",
        ]
        let alphabet = Array("/v1sam.0123456789-+ %".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var parsed = 0
        for round in 0..<20_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(1 + next(3)) {
                let at = next(bytes.count + 1)
                switch next(3) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1: bytes.insert(alphabet[next(alphabet.count)], at: at)
                default: if at < bytes.count { bytes[at] = alphabet[next(alphabet.count)] }
                }
            }
            let path = String(decoding: bytes, as: UTF8.self)
            guard let (id, resource) = SessionURLs.resource(atPath: path[...]) else { continue }
            parsed += 1
            let urls = SessionURLs(baseURL: "", sessionID: String(id))
            let written: String
            switch resource {
            case .multivariant: written = urls.multivariant
            case .tracking: written = urls.tracking
            case .media(let key): written = urls.media(key)
            case .adSegment(let address): written = urls.adSegment(address, sourceURI: "x")
            case .interstitialsMultivariant: written = urls.interstitialsMultivariant
            case .interstitialsMedia(let key): written = urls.interstitialsMedia(key)
            case .assetList(let id): written = urls.assetList(id)
            case .adAsset(let address): written = urls.adAsset(address)
            case .adAssetMedia(let address, let key): written = urls.adAssetMedia(address, key)
            case .adAssetSegment(let address): written = urls.adAssetSegment(address, sourceURI: "x")
            }
            switch resource {
            case .adSegment, .adAssetSegment:
                #expect(path.hasPrefix(written), "\(path) read as \(resource)")
                #expect(path.dropFirst(written.count).first.map { $0 == "." } ?? true, "\(path)")
            default:
                #expect(path == written, "\(path) read as \(resource)")
            }
        }
        #expect(parsed > 600, "the mutations kept too few paths readable to test anything")
    }
}

@Suite struct SessionAssetListURLTests {
    let urls = SessionURLs(baseURL: "https://seam.example/prefix", sessionID: "S3SS10N")

    @Test func assetListURLsReadBack() throws {
        for id in [
            InterstitialBreakID.preroll, .postroll, InterstitialBreakID(position: .midroll(seconds: 30)),
            InterstitialBreakID(scte35EventID: 77),
        ] {
            let url = urls.assetList(id)
            #expect(url == "https://seam.example/prefix/v1/sessions/S3SS10N/assets/\(id.text).json")
            let read = try #require(SessionURLs.resource(atPath: url.dropFirst("https://seam.example/prefix".count)))
            #expect(read.sessionID == "S3SS10N")
            #expect(read.resource == .assetList(id))
        }
    }

    @Test func interstitialsRenderingAndAdAssetURLsReadBack() throws {
        let prefix = "https://seam.example/prefix/v1/sessions/S3SS10N"
        func read(_ url: String) -> SessionURLs.Resource? {
            SessionURLs.resource(atPath: url.dropFirst("https://seam.example/prefix".count))?.resource
        }
        #expect(urls.interstitialsMultivariant == prefix + "/interstitials/master.m3u8")
        #expect(read(urls.interstitialsMultivariant) == .interstitialsMultivariant)
        let key = RenditionKey(.audio, 2)
        #expect(urls.interstitialsMedia(key) == prefix + "/interstitials/media/a2.m3u8")
        #expect(read(urls.interstitialsMedia(key)) == .interstitialsMedia(key))
        let address = AdAssetAddress(pod: 3, ad: 1)
        #expect(urls.adAsset(address) == prefix + "/adplaylist/3/1/master.m3u8")
        #expect(read(urls.adAsset(address)) == .adAsset(address))
        #expect(urls.adAssetMedia(address, key) == prefix + "/adplaylist/3/1/media/a2.m3u8")
        #expect(read(urls.adAssetMedia(address, key)) == .adAssetMedia(address, key))
        let segment = AdSegmentAddress(pod: 3, ad: 1, rendition: key, segment: 7)
        #expect(SessionURLs.adAssetSegmentReference(segment, sourceURI: "https://ads.example/x/7.aac") == "a2/7.aac")
        #expect(
            urls.adAssetSegment(segment, sourceURI: "https://ads.example/x/7.aac") == prefix
                + "/adplaylist/3/1/media/a2/7.aac")
        #expect(
            read(urls.adAssetSegment(segment, sourceURI: "https://ads.example/x/7.aac")) == .adAssetSegment(segment))
        for hostile in [
            "/v1/sessions/S/adplaylist/01/0/master.m3u8", "/v1/sessions/S/adplaylist/0/0/media/x0.m3u8",
            "/v1/sessions/S/adplaylist/0/0/index.m3u8", "/v1/sessions/S/interstitials/media/v0",
            "/v1/sessions/S/interstitials/master.m3u8/x", "/v1/sessions/S/adplaylist/0/master.m3u8",
        ] {
            #expect(SessionURLs.resource(atPath: hostile[...]) == nil, "\(hostile)")
        }
    }

    @Test(arguments: [
        "/v1/sessions/S/assets/pre",
        "/v1/sessions/S/assets/pre.json/",
        "/v1/sessions/S/assets/pre.json/x",
        "/v1/sessions/S/assets/.json",
        "/v1/sessions/S/assets/../pre.json",
        "/v1/sessions/S/assets/..%2Fpre.json",
        "/v1/sessions/S/assets/mid-01.json",
        "/v1/sessions/S/assets/mid-1.json.json",
        "/v1/sessions/S/assets/PRE.json",
        "/v1/sessions//assets/pre.json",
        "/v1/sessions/S/asset/pre.json",
        "v1/sessions/S/assets/pre.json",
        "//v1/sessions/S/assets/pre.json",
        "/v2/sessions/S/assets/pre.json",
        "/v1/sessions/S/master.m3u8",
    ])
    func hostilePathsAreNotAssetLists(_ path: String) {
        if case .assetList? = SessionURLs.resource(atPath: Substring(path))?.resource {
            Issue.record("\(path) read as an asset list")
        }
    }
}

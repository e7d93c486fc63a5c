import Testing
@testable import Stitching

@Suite struct RenditionKeyTests {
    @Test(arguments: [
        (RenditionKey(.variant, 0), "v0"), (RenditionKey(.audio, 1), "a1"),
        (RenditionKey(.subtitles, 2), "s2"), (RenditionKey(.alternateVideo, 3), "m3"),
        (RenditionKey(.variant, 12), "v12"), (RenditionKey(.audio, RenditionKey.maxIndex), "a999999"),
    ])
    func thePathFormRoundTrips(key: RenditionKey, path: String) {
        #expect(key.path == path)
        #expect(RenditionKey(path) == key)
        #expect(RenditionKey(path[...]) == key)
    }

    @Test(arguments: [
        "", "v", "0", "x0", "V0", "v01", "v00", "v-1", "v+1", "v1a", "v 1", " v0", "v0 ", "v0.m3u8",
        "v1000000", "v99999999999999999999", "a١", "v0\u{0}", "vv0", "../v0",
    ])
    func anythingPathWouldNotWriteIsRefused(text: String) {
        #expect(RenditionKey(text) == nil)
    }

    @Test func variantsSortBeforeRenditions() {
        let keys = [
            RenditionKey(.audio, 0), RenditionKey(.variant, 2), RenditionKey(.subtitles, 1), RenditionKey(.variant, 0),
        ]
        #expect(keys.sorted().map(\.path) == ["v0", "v2", "a0", "s1"])
    }
}

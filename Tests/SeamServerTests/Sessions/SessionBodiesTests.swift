import CompressNIO
import NIOCore
import Stitching
import Testing

@testable import SeamServer

@Suite struct SessionBodiesTests {
    static func gzip(_ text: String) throws -> ByteBuffer {
        var plain = ByteBuffer(string: text)
        return try plain.compress(with: .gzip())
    }

    @Test(
        "Each body is kept once, in its gzip form when it has one, and answered in both forms; the array holds their bytes and no more"
    )
    func bodiesAreKeptOnce() throws {
        let long = "#EXTM3U\n" + String(repeating: "#EXTINF:4.0,\nseg.ts\n", count: 80)
        let key = try #require(RenditionKey("v0"))
        let compressed = try Self.gzip(long)
        let bodies = SessionBodies([
            .init(key: .multivariant(.stitched), bytes: ByteBuffer(string: "#EXTM3U\n")),
            .init(key: .media(.stitched, key), bytes: ByteBuffer(string: long), gzipped: compressed),
            .init(key: .media(.interstitials, key), bytes: ByteBuffer(string: "")),
        ])
        let small = try #require(bodies.body(.multivariant(.stitched)))
        #expect(small.bytes == ByteBuffer(string: "#EXTM3U\n"))
        #expect(small.gzipped == nil)
        // Without a gzip copy for the wire, kept compressed all the same, answered plain.
        let listText =
            "{\"ASSETS\":[" + String(repeating: "{\"URI\":\"https://ads.example/ad.m3u8\",\"DURATION\":10},", count: 6)
            + "]}"
        let unwired = SessionBodies([
            .init(key: .assetList(InterstitialBreakID(scte35EventID: 7)), bytes: ByteBuffer(string: listText))
        ])
        let list = try #require(unwired.body(.assetList(InterstitialBreakID(scte35EventID: 7))))
        #expect(list.gzipped == nil)
        #expect(list.bytes == ByteBuffer(string: listText))
        #expect(unwired.storedBytes < listText.utf8.count)
        let media = try #require(bodies.body(.media(.stitched, key)))
        #expect(media.gzipped == compressed, "the gzip copy is answered as it was made")
        #expect(media.bytes == ByteBuffer(string: long), "the plain bytes inflate from it")
        #expect(bodies.body(.media(.interstitials, key))?.bytes == ByteBuffer())
        #expect(bodies.body(.media(.interstitials, try #require(RenditionKey("v1")))) == nil)
        #expect(bodies.keys.count == 3)
        #expect(bodies.storedBytes == 8 + compressed.readableBytes, "the plain copy of a compressed body is not kept")
    }

    @Test(
        "A gzip-only body inflates to its bytes, short or long; a copy whose trailer lies is never answered cut",
        arguments: [0, 1, 80, 20_000])
    func gzipOnlyInflates(lines: Int) throws {
        let text = "#EXTM3U\n" + String(repeating: "#EXTINF:6.006,\nhttps://cdn.example/a/seg.ts\n", count: lines)
        let compressed = try Self.gzip(text)
        #expect(PlaylistBody(gzipOnly: compressed).bytes == ByteBuffer(string: text))
        // A trailer saying less than the plain length: read past it, not cut at it.
        var lying = compressed
        lying.setInteger(UInt32(3), at: lying.writerIndex - 4, endianness: .little)
        let inflated = PlaylistBody(gzipOnly: lying).bytes
        #expect(inflated == ByteBuffer(string: text) || inflated.readableBytes == 0)
    }
}

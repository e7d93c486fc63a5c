import CompressNIO
import NIOCore
import Testing

@testable import SeamServer

@Suite struct GzipEncodingTests {
    /// A media playlist of `segments` segments, as Seam writes them.
    static func playlist(_ segments: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<segments {
            text += "#EXTINF:6.006,\nhttp://127.0.0.1:8081/media/content/v0/segment\(index).ts\n"
        }
        return text
    }

    @Test(
        "A body compressed with zlib's state fitted to it inflates to itself, empty, short or long",
        arguments: [0, 1, 10, 30, 300, 3_000])
    func roundTrip(segments: Int) throws {
        let text = Self.playlist(segments)
        var compressed = try GzipEncoding.compress(ByteBuffer(string: text))
        #expect(compressed.getBytes(at: compressed.readerIndex, length: 2) == [0x1F, 0x8B], "a gzip member")
        #expect(try compressed.decompress(with: .gzip()) == ByteBuffer(string: text))
    }

    @Test(
        "zlib's window and memory level shrink with the body (as nginx's gzip filter sizes them), down to zlib's least, and stay zlib's defaults past 16 KiB"
    )
    func fittedState() {
        let sizes = [0, 200, 1_980, 4_000, 16_000, 20_000, 1_000_000]
        let settings = sizes.map { GzipEncoding.configuration(forBytes: $0) }
        #expect(settings.map(\.windowSize) == [9, 9, 12, 13, 14, 15, 15])
        #expect(settings.map(\.memoryLevel) == [2, 2, 5, 6, 7, 8, 8])
        for (size, setting) in zip(sizes, settings) where size > 0 {
            #expect(1 << setting.windowSize >= size + 262 || setting.windowSize == 15, "\(size) bytes fit the window")
        }
    }

    @Test("Fitted, a playlist compresses as small as with zlib's default state", arguments: [20, 100, 1_000])
    func asSmallAsTheDefault(segments: Int) throws {
        var plain = ByteBuffer(string: Self.playlist(segments))
        let fitted = try GzipEncoding.compress(plain)
        let byDefault = try plain.compress(with: .gzip())
        #expect(
            fitted.readableBytes <= byDefault.readableBytes,
            "\(fitted.readableBytes) against \(byDefault.readableBytes)")
    }
}

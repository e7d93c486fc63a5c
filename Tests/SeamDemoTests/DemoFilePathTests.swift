import Testing
@testable import SeamDemo
@testable import SeamServer

@Suite("DemoFilePath: request paths that stay inside the root")
struct DemoFilePathTests {
    @Test(
        "plain paths are accepted and decoded",
        arguments: [
            ("content/master.m3u8", ["content", "master.m3u8"]),
            ("ads/ad1/360p/seg%20one.ts", ["ads", "ad1", "360p", "seg one.ts"]),
        ])
    func accepted(encoded: String, components: [String]) {
        #expect(DemoFilePath(urlEncoded: encoded)?.components == components)
    }

    @Test(
        "traversal and odd segments are refused",
        arguments: [
            "", "..", "../etc/passwd", "content/../../etc/passwd", "%2e%2e/etc/passwd", "%2E%2E/x",
            "content/%2e%2e/%2e%2e/x",
            "./content", "content/./x", "/etc/passwd", "content//x", "a%2Fb", "a%2f..%2fb", "a%5Cb", "a\\b",
            "a%00b", ".hidden", "content/.git", "bad%zzescape", "%",
        ])
    func refused(encoded: String) {
        #expect(DemoFilePath(urlEncoded: encoded) == nil)
    }

    @Test func fileExtensionIsLowercased() {
        #expect(DemoFilePath(urlEncoded: "a/B.M3U8")?.fileExtension == "m3u8")
        #expect(DemoFilePath(urlEncoded: "a/noext")?.fileExtension == "")
    }

    @Test func contentTypes() {
        #expect(DemoContentType.forExtension("m3u8") == "application/vnd.apple.mpegurl")
        #expect(DemoContentType.forExtension("ts") == "video/mp2t")
        #expect(DemoContentType.forExtension("mp4") == "video/mp4")
        #expect(DemoContentType.forExtension("m4s") == "video/mp4")
        #expect(DemoContentType.forExtension("vtt").hasPrefix("text/vtt"))
        #expect(DemoContentType.forExtension("bin") == "application/octet-stream")
    }
}

@Suite("DemoByteRange: Range header resolution")
struct DemoByteRangeTests {
    @Test func noHeaderMeansWholeFile() {
        #expect(DemoByteRange(header: nil, size: 10) == .whole)
    }

    @Test(
        "satisfiable ranges",
        arguments: [
            ("bytes=0-3", 0...3), ("bytes=2-", 2...9), ("bytes=-4", 6...9), ("bytes=5-100", 5...9),
            ("bytes=-100", 0...9), (" bytes=1-1 ", 1...1), ("bytes=9-9", 9...9),
            ("bytes=3-99999999999999999999999", 3...9),
        ])
    func partial(header: String, range: ClosedRange<Int>) {
        #expect(DemoByteRange(header: header, size: 10) == .partial(range))
    }

    @Test("unsatisfiable ranges", arguments: ["bytes=10-", "bytes=10-20", "bytes=-0"])
    func unsatisfiable(header: String) {
        #expect(DemoByteRange(header: header, size: 10) == .unsatisfiable)
    }

    @Test(
        "ignored headers serve the whole file",
        arguments: ["items=0-3", "bytes=0-1,4-5", "bytes=abc", "bytes=5-2", "bytes=", "bytes=-"])
    func ignored(header: String) {
        #expect(DemoByteRange(header: header, size: 10) == .whole)
    }
}

import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoOrigin: static media over loopback HTTP")
struct DemoOriginTests {
    @Test func servesThePlaylistWithTypeAndLength() async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.contentURL)
            #expect(reply.status == 200)
            #expect(reply.header("content-type") == "application/vnd.apple.mpegurl")
            let size = try DemoTestSupport.fileSize(DemoTestSupport.mediaRoot + "/content/master.m3u8")
            #expect(reply.header("content-length") == String(size))
            #expect(reply.body.readableBytes == size)
            #expect(reply.text.hasPrefix("#EXTM3U"))
            #expect(reply.header("access-control-allow-origin") == "*")
            #expect(reply.header("accept-ranges") == "bytes")
        }
    }

    @Test func servesASegmentAsMPEGTS() async throws {
        let segment = try Self.firstSegment()
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.origin.baseURL + "/media/" + segment.relative)
            #expect(reply.status == 200)
            #expect(reply.header("content-type") == "video/mp2t")
            #expect(reply.header("content-length") == String(segment.size))
            #expect(reply.body.readableBytes == segment.size)
            // MPEG-TS packets start with the sync byte 0x47.
            #expect(reply.body.getInteger(at: reply.body.readerIndex, as: UInt8.self) == 0x47)
        }
    }

    @Test func headHasLengthButNoBody() async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.contentURL, method: .HEAD)
            let size = try DemoTestSupport.fileSize(DemoTestSupport.mediaRoot + "/content/master.m3u8")
            #expect(reply.status == 200)
            #expect(reply.header("content-length") == String(size))
            #expect(reply.header("content-type") == "application/vnd.apple.mpegurl")
            #expect(reply.body.readableBytes == 0)
        }
    }

    @Test func byteRangesAnswer206WithTheRightBytes() async throws {
        let segment = try Self.firstSegment()
        let whole = try Data(contentsOf: URL(fileURLWithPath: DemoTestSupport.mediaRoot + "/" + segment.relative))
        try await DemoTestSupport.withServers { servers in
            let url = servers.origin.baseURL + "/media/" + segment.relative

            let middle = try await DemoTestSupport.request(url, headers: [("Range", "bytes=188-375")])
            #expect(middle.status == 206)
            #expect(middle.header("content-range") == "bytes 188-375/\(segment.size)")
            #expect(middle.header("content-length") == "188")
            #expect(Array(buffer: middle.body) == Array(whole[188...375]))

            let suffix = try await DemoTestSupport.request(url, headers: [("Range", "bytes=-10")])
            #expect(suffix.status == 206)
            #expect(Array(buffer: suffix.body) == Array(whole.suffix(10)))

            let open = try await DemoTestSupport.request(url, headers: [("Range", "bytes=\(segment.size - 5)-")])
            #expect(open.status == 206)
            #expect(open.body.readableBytes == 5)

            let beyond = try await DemoTestSupport.request(url, headers: [("Range", "bytes=\(segment.size)-")])
            #expect(beyond.status == 416)
            #expect(beyond.header("content-range") == "bytes */\(segment.size)")

            let rangedHead = try await DemoTestSupport.request(url, method: .HEAD, headers: [("Range", "bytes=0-9")])
            #expect(rangedHead.status == 206)
            #expect(rangedHead.header("content-length") == "10")
        }
    }

    @Test func conditionalGetAnswers304() async throws {
        try await DemoTestSupport.withServers { servers in
            let first = try await DemoTestSupport.request(servers.contentURL)
            let eTag = try #require(first.header("etag"))
            let second = try await DemoTestSupport.request(servers.contentURL, headers: [("If-None-Match", eTag)])
            #expect(second.status == 304)
        }
    }

    @Test func missingFilesAnswerJSON404() async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.origin.baseURL + "/media/content/nope.m3u8")
            #expect(reply.status == 404)
            #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
            #expect(reply.text.contains("\"code\":\"NOT_FOUND\""))
            #expect(reply.header("access-control-allow-origin") == "*")

            let directory = try await DemoTestSupport.request(servers.origin.baseURL + "/media/content")
            #expect(directory.status == 404)
            let unknownRoute = try await DemoTestSupport.request(servers.origin.baseURL + "/elsewhere")
            #expect(unknownRoute.status == 404)
            #expect(unknownRoute.text.contains("NOT_FOUND"))
        }
    }

    @Test func writesAreRefused() async throws {
        try await DemoTestSupport.withServers { servers in
            let reply = try await DemoTestSupport.request(servers.contentURL, method: .PUT, body: "#EXTM3U")
            #expect(reply.status == 405)
            #expect(reply.header("allow") == "GET, HEAD")
        }
    }

    @Test(
        "traversal attempts are refused",
        arguments: [
            "/media/../../../../etc/passwd",
            "/media/content/../../../etc/passwd",
            "/media/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/media/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "/media/content/%2e%2e/content/master.m3u8",
            "/media//etc/passwd",
            "/media/..%5c..%5cetc%5cpasswd",
            "/media/.%2e/.%2e/etc/passwd",
            "/media/%252e%252e/etc/passwd",
            "/media/content/master.m3u8%00.txt",
        ])
    func traversalIsRefused(target: String) async throws {
        try await DemoTestSupport.withServers { servers in
            let status = try await DemoTestSupport.rawStatus(port: servers.origin.port, target: target)
            #expect(status == 400 || status == 404, "\(target) answered \(status)")
        }
    }

    @Test func symlinksLeavingTheRootAreRefused() async throws {
        let base = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root"
        let outside = base + "/outside"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/inner", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: root + "/inner/ok.m3u8"))
        try manager.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: outside + "/secret.txt")
        try manager.createSymbolicLink(atPath: root + "/leakdir", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: root + "/alias.m3u8", withDestinationPath: "inner/ok.m3u8")

        try await DemoTestSupport.withServers(mediaRoot: root) { servers in
            let base = servers.origin.baseURL + "/media/"
            #expect(try await DemoTestSupport.request(base + "inner/ok.m3u8").status == 200)
            // A symlink that stays inside the root is fine.
            let alias = try await DemoTestSupport.request(base + "alias.m3u8")
            #expect(alias.status == 200)
            #expect(alias.header("content-type") == "application/vnd.apple.mpegurl")
            #expect(try await DemoTestSupport.request(base + "leak.txt").status == 404)
            #expect(try await DemoTestSupport.request(base + "leakdir/secret.txt").status == 404)
        }
    }

    @Test func largeFilesAreStreamedFromDisk() async throws {
        // maxCachedFileBytes 0: nothing is held in memory, every body comes from Hummingbird's FileIO.
        let segment = try Self.firstSegment()
        let whole = try Data(contentsOf: URL(fileURLWithPath: DemoTestSupport.mediaRoot + "/" + segment.relative))
        let store = try DemoFileStore(root: DemoTestSupport.mediaRoot, maxCachedFileBytes: 0)
        let responder = DemoFileResponder(store: store)
        let router = Router()
        router.get("/media/**") { request, context in
            try await responder.respond(
                to: request, encodedSubpath: DemoOrigin.subpath(of: request.uri.path, after: "/media/"),
                context: context)
        }
        let app = Application(router: router, logger: DemoTestSupport.quietLogger)
        try await app.test(.live) { client in
            try await client.execute(uri: "/media/" + segment.relative, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(segment.size))
                #expect(Array(buffer: response.body) == Array(whole))
            }
            try await client.execute(
                uri: "/media/" + segment.relative, method: .get, headers: [.range: "bytes=100-199"]
            ) { response in
                #expect(response.status == .partialContent)
                #expect(Array(buffer: response.body) == Array(whole[100...199]))
            }
        }
        #expect(store.cachedFileCount == 0)
    }

    @Test func startFailsClearlyForAMissingFolder() async throws {
        let error = await #expect(throws: DemoServerError.self) {
            _ = try await DemoServers.start(DemoTestSupport.configuration(mediaRoot: "/nonexistent/seam-media"))
        }
        #expect(error == .directoryNotFound("/nonexistent/seam-media"))
    }

    /// The first segment of the 360p content rendition, read from its playlist.
    static func firstSegment() throws -> (relative: String, size: Int) {
        let playlist = try String(
            contentsOfFile: DemoTestSupport.mediaRoot + "/content/360p/index.m3u8", encoding: .utf8)
        let name = try #require(playlist.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let relative = "content/360p/" + name
        return (relative, try DemoTestSupport.fileSize(DemoTestSupport.mediaRoot + "/" + relative))
    }
}

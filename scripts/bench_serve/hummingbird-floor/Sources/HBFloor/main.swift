// Framework floor for the serving benchmark (scripts/bench-serve.sh runs it with FLOORS=1): bare Hummingbird 2,
// no middleware, answering a fixed playlist body, once on a static path and once on a route shaped
// like Seam's. Shows how much of Seam's cost per request is the framework and how much is Seam.
// Build: cp ../../../Package.resolved . && swift build -c release   (same Hummingbird as Seam)
// Run:   .build/release/HBFloor <port> <playlist file> [<gzip file>]   (scripts/bench-serve.sh with FLOORS=1)
//        wrk -t2 -c64 -d10s http://127.0.0.1:<port>/static/v0.m3u8
//        wrk -t2 -c64 -d10s http://127.0.0.1:<port>/v1/sessions/x/media/v0.m3u8
import Foundation
import Hummingbird
import NIOCore

let port = Int(CommandLine.arguments[1])!
let bytes = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2]))
let body = ByteBuffer(bytes: bytes)
let media: [String: ByteBuffer] = ["v0": body]
// The gzip form, answered to a request that accepts gzip (as Seam and nginx's gzip_static do).
let gzipped = CommandLine.arguments.count > 3
    ? ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[3]))) : nil

func answer(_ plain: ByteBuffer, to request: Request) -> Response {
    if let gzipped, request.headers[values: .acceptEncoding].contains(where: { $0.contains("gzip") }) {
        return Response(
            status: .ok,
            headers: [.contentType: "application/vnd.apple.mpegurl", .cacheControl: "no-cache", .contentEncoding: "gzip",
                      .vary: "Accept-Encoding"],
            body: .init(byteBuffer: gzipped))
    }
    return Response(status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl", .cacheControl: "no-cache"],
                    body: .init(byteBuffer: plain))
}

let router = Router()
router.get("/static/v0.m3u8") { request, _ in answer(body, to: request) }
router.get("/v1/sessions/:id/media/{rendition}.m3u8") { request, context in
    guard let r = context.parameters.get("rendition"), let b = media[r] else { return Response(status: .notFound) }
    return answer(b, to: request)
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()

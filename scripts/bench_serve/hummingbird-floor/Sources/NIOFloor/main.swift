// The stack's floor for the serving benchmark (scripts/bench-serve.sh runs it with FLOORS=1): a bare SwiftNIO
// HTTP/1.1 server — NIO's codec and one handler, no framework, no task per request — answering a
// fixed playlist body (its gzip form to a request that accepts gzip) with the headers Seam's early
// path writes. Whatever Seam does, answering a GET on SwiftNIO costs at least this much.
// Build: cp ../../../Package.resolved . && swift build -c release --product NIOFloor
// Run:   .build/release/NIOFloor <port> <playlist file> [<gzip file>]
//        wrk -t2 -c64 -d10s [-H 'Accept-Encoding: gzip'] http://127.0.0.1:<port>/v0.m3u8
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

let port = Int(CommandLine.arguments[1])!
let plain = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2])))
let gzipped = CommandLine.arguments.count > 3
    ? ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[3]))) : nil

final class Answer: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var gzip = false
    private var keepAlive = true

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            gzip = gzipped != nil && head.headers[canonicalForm: "accept-encoding"].contains { $0.contains("gzip") }
        case .body:
            break
        case .end:
            let body = gzip ? gzipped! : plain
            var headers = HTTPHeaders()
            headers.reserveCapacity(8)
            headers.add(name: "Content-Type", value: "application/vnd.apple.mpegurl")
            headers.add(name: "Cache-Control", value: "no-cache")
            if gzip {
                headers.add(name: "Content-Encoding", value: "gzip")
                headers.add(name: "Vary", value: "Accept-Encoding")
            }
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            headers.add(name: "Date", value: "Tue, 01 Dec 2026 03:00:00 GMT")
            headers.add(name: "Server", value: "floor")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            if !keepAlive { context.close(promise: nil) }
        }
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false).flatMap {
            channel.pipeline.addHandler(Answer())
        }
    }
    .bind(host: "127.0.0.1", port: port).wait()
try channel.closeFuture.wait()

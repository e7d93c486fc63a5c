import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Runs a Hummingbird application on 127.0.0.1 with a free port for the duration of `body`.
/// Stopped by cancellation rather than graceful shutdown, so a deliberately slow handler does not
/// hold the test up.
func withInfraTestServer<Value: Sendable>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value {
    let router = Router()
    configure(router)
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let logger: Logger = {
        var logger = Logger(label: "infra-test-server")
        logger.logLevel = .critical
        return logger
    }()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger
    )
    return try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask {
            try await ServiceGroup(configuration: .init(services: [app], logger: logger)).run()
            return nil
        }
        var port = 0
        for await value in ports { port = value }
        guard port > 0 else {
            group.cancelAll()
            throw InfraTestServerError.didNotStart
        }
        do {
            let value = try await body(port)
            group.cancelAll()
            return value
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

enum InfraTestServerError: Error {
    case didNotStart
}

/// Routes the upstream-client tests fetch from.
func addUpstreamTestRoutes(to router: Router<BasicRequestContext>) {
    router.get("/ok") { _, _ in "hello" }
    router.get("/host") { request, _ in request.head.authority ?? "" }
    router.get("/missing") { _, _ -> Response in Response(status: .notFound) }
    router.get("/redirect") { request, _ -> Response in
        let target = request.uri.queryParameters.get("to") ?? "/ok"
        return Response(status: .found, headers: [.location: target])
    }
    router.get("/loop") { _, _ -> Response in
        Response(status: .found, headers: [.location: "/loop"])
    }
    router.get("/slow") { _, _ -> String in
        try await Task.sleep(for: .seconds(10))
        return "late"
    }
    router.get("/huge-declared") { _, _ -> Response in
        Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x41, count: 256 * 1024)))
    }
    router.get("/huge-streamed") { _, _ -> Response in
        // No Content-Length: the limit must hold while the body streams in.
        Response(
            status: .ok,
            body: ResponseBody { writer in
                for _ in 0..<64 {
                    try await writer.write(ByteBuffer(repeating: 0x42, count: 4096))
                }
                try await writer.finish(nil)
            })
    }
}

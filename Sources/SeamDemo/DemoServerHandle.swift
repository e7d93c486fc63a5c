import SeamServer
import Hummingbird
import Logging
import ServiceLifecycle

/// One running Hummingbird application of the demo, with what it takes to stop it.
///
/// The application runs inside its own `ServiceGroup` on a task owned by this handle: `seam demo`
/// and the tests need the bound port *before* they start Seam (port 0 is only known after bind),
/// which a purely structured `run()` cannot hand back. ``DemoServers`` keeps the task's lifetime
/// tied to its own `run()`/`stop()`, so it never outlives the demo.
final class DemoServerHandle: Sendable {
    let name: String
    let host: String
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(name: String, host: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.name = name
        self.host = host
        self.port = port
        self.group = group
        self.task = task
    }

    private enum StartEvent: Sendable {
        case bound(port: Int)
        case finished((any Error)?)
    }

    /// Starts `router` on `host:port` and returns once it listens (or throws why it cannot).
    static func start(
        name: String, router: Router<BasicRequestContext>, host: String, port: Int,
        logger: Logger
    ) async throws -> DemoServerHandle {
        let (events, continuation) = AsyncStream.makeStream(of: StartEvent.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "seam-demo-\(name)"),
            onServerRunning: { channel in
                continuation.yield(.bound(port: channel.localAddress?.port ?? port))
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do {
                try await group.run()
                continuation.yield(.finished(nil))
                continuation.finish()
            } catch {
                continuation.yield(.finished(error))
                continuation.finish()
                throw error
            }
        }
        for await event in events {
            switch event {
            case .bound(let boundPort):
                return DemoServerHandle(name: name, host: host, port: boundPort, group: group, task: task)
            case .finished(let error):
                throw DemoServerError.bindFailed(
                    server: name, host: host, port: port,
                    reason: error.map { "\($0)" } ?? "the server stopped")
            }
        }
        // The stream only ends after `.finished`, handled above; keep the compiler and a future
        // refactoring honest anyway.
        task.cancel()
        throw DemoServerError.stoppedBeforeReady("\(name) ended without reporting its port")
    }

    /// Asks the server to finish in-flight requests and close, then waits until it has.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the server has stopped; rethrows what made it stop, if anything.
    func wait() async throws {
        try await task.value
    }
}

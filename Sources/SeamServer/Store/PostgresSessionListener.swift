import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Hears from PostgreSQL which sessions other replicas deleted or rewrote, so the replica's
/// `SessionMap` can trust what it holds until told otherwise instead of asking the database on
/// every playlist reload.
///
/// A trigger on `seam_sessions` (migration 3) sends `NOTIFY seam_sessions_<schema>` with
/// `<application_name> <id> <live_version or -1>` for every deleted row and every rewritten record;
/// each replica names its connections with a name of its own, so it skips what it wrote itself.
/// The listener holds one connection of its own (`LISTEN` needs one); every `heartbeatSeconds` it
/// sends a notification through the pool and expects it back within `timeoutSeconds`: only then
/// does the map count on notifications (a pooler in transaction mode, a stalled connection or a
/// lost one never answers, and the map falls back to `store.cacheSeconds`). A lost connection is
/// opened again after a pause.
struct PostgresSessionListener: Sendable {
    /// This replica's `application_name`.
    let replica: String
    let settings: PostgresStoreSettings
    let client: PostgresClient
    /// Told what is heard (the runtime's map).
    let listener: any SessionChangeListening
    let logger: Logger
    /// Runs a query through the pool within the store's time-out, counted in its metrics.
    let query: @Sendable (_ what: String, _ sql: PostgresQuery) async throws -> Void
    /// Told the other replicas' heartbeats (the replicas the deployment-wide caps are shared among).
    var census: ReplicaCensus? = nil
    /// When this replica's own heartbeat last came back: the listener heard everything until then.
    private let lastHeartbeatBack = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// What a notification payload says.
    enum Message: Equatable, Sendable {
        /// A session deleted (`version` nil) or its record rewritten as `version`, by `writer`.
        case changed(writer: Substring, id: SessionID, version: Int64?)
        /// A replica's heartbeat.
        case heartbeat(sender: Substring, number: UInt64)

        /// Nil for a payload Seam did not write (ignored).
        init?(_ payload: String) {
            let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            if parts[1] == "heartbeat" {
                guard let number = UInt64(parts[2]) else { return nil }
                self = .heartbeat(sender: parts[0], number: number)
                return
            }
            guard let id = SessionID(parts[1]), let version = Int64(parts[2]) else { return nil }
            self = .changed(writer: parts[0], id: id, version: version < 0 ? nil : version)
        }
    }

    var heartbeatSeconds: Double { min(5, max(0.5, settings.cacheSeconds)) }

    /// Listens until cancelled, opening the connection again after each loss.
    func run() async {
        census?.heartbeatsEvery(heartbeatSeconds)
        var failures = 0
        while !Task.isCancelled {
            do {
                try await listenOnce()
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                failures += 1
                // Said once per outage, not on every retry.
                if failures == 1 {
                    logger.warning(
                        "not hearing PostgreSQL's session notifications; sessions held are checked every store.cacheSeconds until they are back",
                        metadata: ["error": "\(PostgresErrorText.plain(error))"])
                }
            }
            listener.listeningStopped()
            census?.deaf(since: lastHeartbeatBack.withLockedValue { $0 })
            try? await Task.sleep(for: .milliseconds(Int64(min(5, Double(failures) * 0.5 + 0.5) * 1000)))
        }
        listener.listeningStopped()
    }

    /// Why a listening period ended.
    struct Lost: Error, CustomStringConvertible {
        var description: String
    }

    private func listenOnce() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: try settings.connectionConfiguration(applicationName: replica + "-listen"),
            id: 0, logger: logger)
        // A query on a connection of its own does not end when the task is cancelled, nor when
        // the database stops answering: closing the connection ends it. So a replica shutting
        // down (or a test ending) closes it, and a setup (the schema's name, `LISTEN`) that has
        // not reached the heartbeats within `timeoutSeconds` closes it too and is tried again;
        // from the heartbeats on, one that does not come back in time ends the period.
        let setup = connection.eventLoop.scheduleTask(in: .milliseconds(Int64(settings.timeoutSeconds * 1000))) {
            let _: EventLoopFuture<Void> = connection.close()
        }
        do {
            try await withTaskCancellationHandler {
                try await listen(on: connection) { setup.cancel() }
            } onCancel: {
                let _: EventLoopFuture<Void> = connection.close()
            }
        } catch {
            setup.cancel()
            try? await connection.close()
            throw error
        }
        setup.cancel()
        try? await connection.close()
    }

    /// - Parameter listening: called once `LISTEN` holds, before the first heartbeat.
    private func listen(on connection: PostgresConnection, listening: @escaping @Sendable () -> Void) async throws {
        // The schema the table is in, as the trigger names the channel.
        var schema: String?
        for try await name in try await connection.query(
            """
            SELECT n.nspname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.oid = 'seam_sessions'::regclass
            """, logger: logger
        ).decode(String.self) {
            schema = name
        }
        guard let schema else { throw Lost(description: "seam_sessions is not there") }
        let channel = "seam_sessions_" + schema
        let heard = NIOLockedValueBox<UInt64>(0)
        // A replica heard for the first time is answered with a heartbeat at once, so a newcomer
        // counts the replicas already there within a round trip instead of a heartbeat interval
        // (until then it would take a whole deployment-wide cap for itself).
        let (newcomers, newcomer) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await connection.listen(on: channel) { notifications in
            listening()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications {
                        if handle(notification.payload, heard: heard) { newcomer.yield() }
                    }
                    throw Lost(description: "the notification stream ended")
                }
                group.addTask { try await beat(channel: channel, heard: heard) }
                group.addTask {
                    // Number 0: an answer, which this replica's own beat loop does not wait for.
                    let payload = "\(replica) heartbeat 0"
                    for await _ in newcomers {
                        // Best effort: a failed answer (a database too busy) is not a lost listener;
                        // the newcomer counts this replica at its next heartbeat instead.
                        try? await query("sending a heartbeat", "SELECT pg_notify(\(channel), \(payload))::text")
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    /// Sends heartbeats through the pool and waits for each to come back; the map counts on
    /// notifications from the first that does until one does not.
    private func beat(channel: String, heard: NIOLockedValueBox<UInt64>) async throws {
        var number: UInt64 = 0
        var listening = false
        while true {
            number += 1
            let payload = "\(replica) heartbeat \(number)"
            try await query("sending a heartbeat", "SELECT pg_notify(\(channel), \(payload))::text")
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(settings.timeoutSeconds * 1000)))
            while heard.withLockedValue({ $0 }) < number {
                guard ContinuousClock.now < deadline else {
                    throw Lost(description: "a heartbeat did not come back within \(settings.timeoutSeconds) s")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            if !listening {
                listening = true
                listener.listeningStarted()
                census?.hearing()
                logger.info("hearing PostgreSQL's session notifications", metadata: ["channel": "\(channel)"])
            }
            try await Task.sleep(for: .milliseconds(Int64(heartbeatSeconds * 1000)))
        }
    }

    /// Acts on one notification; true when it was the heartbeat of a replica the census did not
    /// count until now (to be answered).
    private func handle(_ payload: String, heard: NIOLockedValueBox<UInt64>) -> Bool {
        switch Message(payload) {
        case .heartbeat(let sender, let number)? where sender == replica:
            heard.withLockedValue { $0 = max($0, number) }
            lastHeartbeatBack.withLockedValue { $0 = ContinuousClock.now }
        case .heartbeat(let sender, _)?:
            return census?.heard(sender) ?? false
        case .changed(let writer, let id, let version)? where writer != replica:
            listener.changed(id, version: version)
        default:
            break
        }
        return false
    }
}

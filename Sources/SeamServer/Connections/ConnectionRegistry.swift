import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore

/// Every open client connection of one server, to hold their number at `maxConnections` in the way
/// that keeps a new viewer served: at the limit, a new connection closes the connection that has
/// waited longest for a request (idle keep-alive, or a request head still trickling in); only when
/// every connection has a request in flight is the new one closed at once instead.
///
/// Connections live on several event loops, so the registry is shared behind one lock. The waiting
/// connections are also kept in the order they started waiting, so finding the one to close at the
/// limit is a step from the front of that list, not a scan of every connection (a flood of new
/// connections at the limit must not cost a scan each).
final class ConnectionRegistry: Sendable {
    /// Why Seam closed a connection itself (the `reason` of `seam_http_connections_closed_total`).
    enum CloseReason: String, Sendable {
        /// Closed to make room for a new connection at `server.maxConnections`.
        case evicted
        /// A new connection closed at once: at the limit, with no idle connection to close.
        case refused
        /// The request head was not complete within `server.headerReadTimeoutSeconds`.
        case headerTimeout = "header_timeout"
        /// No request came within `server.idleTimeoutSeconds` after the last response.
        case idleTimeout = "idle_timeout"
    }

    enum Admission: Sendable {
        /// Accepted as `id`; `evicting` is the idle connection to close to make room, if any.
        case admitted(id: UInt64, evicting: (any Channel)?)
        case refused
    }

    struct Entry: Sendable {
        var channel: any Channel
        /// nil while a request is in flight: such a connection is never closed to make room.
        var waitingSince: NIODeadline?
    }

    struct State: Sendable {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// (id, waiting since) in the order connections started waiting. An item whose connection
        /// has closed, took a request or waited again since is stale and skipped when reached.
        var waitOrder: [(id: UInt64, since: NIODeadline)] = []
        var waitHead = 0

        mutating func appendWaiting(_ id: UInt64, since: NIODeadline) {
            waitOrder.append((id, since))
            // Stale items pile up while the limit is never reached: drop them now and then, in
            // time proportional to what was appended since the last time.
            if waitOrder.count - waitHead > 2 * entries.count + 1024 {
                waitOrder = waitOrder[waitHead...].filter { entries[$0.id]?.waitingSince == $0.since }
                waitHead = 0
            }
        }

        /// The connection waiting longest, taken off the list; nil when none waits.
        mutating func popLongestWaiting() -> UInt64? {
            while waitHead < waitOrder.count {
                let item = waitOrder[waitHead]
                waitHead += 1
                if entries[item.id]?.waitingSince == item.since { return item.id }
            }
            waitOrder.removeAll(keepingCapacity: true)
            waitHead = 0
            return nil
        }
    }

    let maxConnections: Int
    private let state = NIOLockedValueBox(State())
    private let openGauge: CoreMetrics.Gauge
    private let closedCounters: [CloseReason: CoreMetrics.Counter]

    init(maxConnections: Int, metricsFactory: any MetricsFactory) {
        self.maxConnections = max(1, maxConnections)
        openGauge = CoreMetrics.Gauge(label: SeamMetrics.connectionsOpenName, factory: metricsFactory)
        var counters: [CloseReason: CoreMetrics.Counter] = [:]
        for reason in [CloseReason.evicted, .refused, .headerTimeout, .idleTimeout] {
            counters[reason] = CoreMetrics.Counter(
                label: SeamMetrics.connectionsClosedName,
                dimensions: [("reason", reason.rawValue)], factory: metricsFactory)
        }
        closedCounters = counters
    }

    /// Connections open right now.
    var openCount: Int { state.withLockedValue { $0.entries.count } }

    /// Registers a new connection, opened at `now`, making room when the registry is full.
    func admit(_ channel: any Channel, now: NIODeadline) -> Admission {
        let (admission, count) = state.withLockedValue { state -> (Admission, Int) in
            var evicted: (any Channel)?
            if state.entries.count >= maxConnections {
                guard let oldest = state.popLongestWaiting() else { return (.refused, state.entries.count) }
                evicted = state.entries.removeValue(forKey: oldest)?.channel
            }
            let id = state.nextID
            state.nextID &+= 1
            state.entries[id] = Entry(channel: channel, waitingSince: now)
            state.appendWaiting(id, since: now)
            return (.admitted(id: id, evicting: evicted), state.entries.count)
        }
        switch admission {
        case .admitted(_, let evicting): if evicting != nil { closed(.evicted) }
        case .refused: closed(.refused)
        }
        openGauge.record(count)
        return admission
    }

    /// The connection is handling a request: never closed to make room.
    func markHandling(_ id: UInt64) {
        state.withLockedValue { $0.entries[id]?.waitingSince = nil }
    }

    /// The connection has waited for a request since `since`.
    func markWaiting(_ id: UInt64, since: NIODeadline) {
        state.withLockedValue { state in
            guard state.entries[id] != nil else { return }
            state.entries[id]?.waitingSince = since
            state.appendWaiting(id, since: since)
        }
    }

    /// The connection closed (or was closed to make room, which removed it already).
    func remove(_ id: UInt64) {
        let count = state.withLockedValue { state in
            state.entries.removeValue(forKey: id)
            return state.entries.count
        }
        openGauge.record(count)
    }

    func closed(_ reason: CloseReason) {
        closedCounters[reason]?.increment()
    }
}

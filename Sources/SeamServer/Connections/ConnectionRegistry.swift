import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore

/// Every open client connection of one server, to hold their number at `maxConnections` in the way
/// that keeps a new viewer served: at the limit, a new connection closes the connection that has
/// waited longest for a request (idle keep-alive, or a request head still trickling in); only when
/// every connection has a request in flight is the new one closed at once instead.
///
/// Connections live on several event loops, so the registry is shared behind one lock. Finding the
/// connection to close scans all of them, only when the limit is reached.
final class ConnectionRegistry: Sendable {
    /// Why Seam closed a connection itself (the `reason` of `seam_http_connections_closed_total`).
    enum CloseReason: String, Sendable {
        /// Closed to make room for a new connection at `server.maxConnections`.
        case evicted
        /// A new connection closed at once: at the limit, with no idle connection to close.
        case refused
        /// The request head was not complete within `server.headerReadTimeoutSeconds`.
        case headerTimeout = "header_timeout"
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
    }

    let maxConnections: Int
    private let state = NIOLockedValueBox(State())
    private let openGauge: CoreMetrics.Gauge
    private let closedCounters: [CloseReason: CoreMetrics.Counter]

    init(maxConnections: Int, metricsFactory: any MetricsFactory) {
        self.maxConnections = max(1, maxConnections)
        openGauge = CoreMetrics.Gauge(label: SeamMetrics.connectionsOpenName, factory: metricsFactory)
        var counters: [CloseReason: CoreMetrics.Counter] = [:]
        for reason in [CloseReason.evicted, .refused, .headerTimeout] {
            counters[reason] = CoreMetrics.Counter(label: SeamMetrics.connectionsClosedName,
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
                var oldest: (id: UInt64, since: NIODeadline)?
                for (id, entry) in state.entries {
                    guard let since = entry.waitingSince else { continue }
                    if oldest.map({ since < $0.since }) ?? true { oldest = (id, since) }
                }
                guard let oldest else { return (.refused, state.entries.count) }
                evicted = state.entries.removeValue(forKey: oldest.id)?.channel
            }
            let id = state.nextID
            state.nextID &+= 1
            state.entries[id] = Entry(channel: channel, waitingSince: now)
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
        state.withLockedValue { $0.entries[id]?.waitingSince = since }
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

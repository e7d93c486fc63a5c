import NIOCore
import NIOEmbedded
import Testing
import Metrics
@testable import SeamServer

/// The connection limit's choice, as a table of events with time passed in: at the limit, the
/// connection that has waited longest for a request makes room; one with a request in flight never
/// does; when every connection is busy the new one is refused.
@Suite struct ConnectionRegistryTests {
    enum Event {
        case open(String, at: Int64)
        case handling(String)
        case waiting(String, since: Int64)
        case close(String)
    }

    /// Runs `events` against a registry of `limit` connections; returns, per `open`, who was
    /// evicted ("-" for none, "refused" when the new one was refused).
    func run(limit: Int, _ events: [Event]) -> [String] {
        let registry = ConnectionRegistry(maxConnections: limit, metricsFactory: SeamMetrics().factory)
        var ids: [String: UInt64] = [:]
        var names: [ObjectIdentifier: String] = [:]
        var outcomes: [String] = []
        for event in events {
            switch event {
            case .open(let name, let at):
                let channel = EmbeddedChannel()
                names[ObjectIdentifier(channel)] = name
                switch registry.admit(channel, now: NIODeadline.uptimeNanoseconds(UInt64(at) * 1_000_000_000)) {
                case .admitted(let id, let evicting):
                    ids[name] = id
                    outcomes.append(evicting.map { names[ObjectIdentifier($0 as AnyObject)] ?? "?" } ?? "-")
                case .refused:
                    outcomes.append("refused")
                }
            case .handling(let name):
                if let id = ids[name] { registry.markHandling(id) }
            case .waiting(let name, let since):
                if let id = ids[name] {
                    registry.markWaiting(id, since: NIODeadline.uptimeNanoseconds(UInt64(since) * 1_000_000_000))
                }
            case .close(let name):
                if let id = ids[name] { registry.remove(id) }
            }
        }
        return outcomes
    }

    @Test func theLongestWaitingMakesRoomAndBusyOnesNever() {
        let outcomes = run(
            limit: 3,
            [
                .open("a", at: 1), .open("b", at: 2), .open("c", at: 3),
                .handling("a"),  // a has a request in flight
                .handling("b"), .waiting("b", since: 5),  // b answered and waits again since 5
                .open("d", at: 6),  // c has waited longest (since 3)
                .open("e", at: 7),  // then b (since 5); a is busy
                .handling("d"), .handling("e"),
                .open("f", at: 8),  // everyone busy
                .close("a"),
                .open("g", at: 9),  // room without evicting
            ])
        #expect(outcomes == ["-", "-", "-", "c", "b", "refused", "-"])
    }

    @Test func manyWaitsAndClosesKeepTheOrder() {
        var events: [Event] = [.open("x", at: 0), .open("y", at: 1)]
        // x answers and waits again many times (stale items pile up and are dropped), y stays idle.
        for t in 2..<3000 { events += [.handling("x"), .waiting("x", since: Int64(t))] }
        events.append(.open("z", at: 3000))
        #expect(run(limit: 2, events) == ["-", "-", "y"])
    }
}

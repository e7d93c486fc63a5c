import NIOCore

/// When one connection must have sent a whole request head, as a state machine with the time
/// passed in (no clock, no I/O; `ConnectionGuardHandler` runs it on the connection's event loop).
///
/// The header-read time-out runs from the moment the connection opens, and from the first byte of
/// each later request; bytes that trickle in meanwhile do not extend it (that is the slowloris
/// attack). It stops when the head is complete and the request is being handled. Between requests
/// on a keep-alive connection nothing is armed here: Hummingbird's idle time-out
/// (`server.idleTimeoutSeconds`) closes a connection that sends nothing.
///
/// Known gap: request bytes that arrive together with the end of the previous request (HTTP
/// pipelining) do not arm the timer; such a connection is bounded by the idle time-out instead.
struct RequestHeadTimer: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Between requests (keep-alive): nothing sent yet.
        case waiting
        /// Part of a request head has arrived (or the connection just opened); complete by `deadline`.
        case readingHead(deadline: NIODeadline)
        /// This many requests are being handled (read, answered); no head deadline applies.
        case handling(requests: Int)
    }

    /// What the caller must do with its scheduled task.
    enum Action: Sendable, Equatable {
        case none
        /// (Re)schedule the check for `deadline`.
        case arm(NIODeadline)
        /// Cancel the scheduled check.
        case disarm
        /// The head did not arrive in time: close the connection.
        case close
    }

    let timeout: TimeAmount
    private(set) var phase: Phase
    /// Since when the connection has waited for a request (opened, or finished its last response):
    /// the order in which `ConnectionRegistry` closes idle connections at the limit.
    private(set) var waitingSince: NIODeadline

    /// A connection that opened at `now`: its first request head is due by `now + timeout`.
    init(timeout: TimeAmount, openedAt now: NIODeadline) {
        self.timeout = timeout
        phase = .readingHead(deadline: now + timeout)
        waitingSince = now
    }

    /// The deadline to schedule right after `init`.
    var firstDeadline: NIODeadline {
        if case .readingHead(let deadline) = phase { return deadline }
        return waitingSince + timeout
    }

    /// Whether the connection is handling no request (idle, or still sending a head).
    var isWaitingForRequest: Bool {
        if case .handling = phase { return false }
        return true
    }

    mutating func bytesArrived(at now: NIODeadline) -> Action {
        guard case .waiting = phase else { return .none }
        let deadline = now + timeout
        phase = .readingHead(deadline: deadline)
        return .arm(deadline)
    }

    mutating func headReceived() -> Action {
        if case .handling(let requests) = phase {
            phase = .handling(requests: requests + 1)
            return .none
        }
        phase = .handling(requests: 1)
        return .disarm
    }

    mutating func responseEnded(at now: NIODeadline) -> Action {
        guard case .handling(let requests) = phase else { return .none }
        if requests > 1 {
            phase = .handling(requests: requests - 1)
        } else {
            phase = .waiting
            waitingSince = now
        }
        return .none
    }

    /// The scheduled check ran at `now`.
    func deadlinePassed(at now: NIODeadline) -> Action {
        guard case .readingHead(let deadline) = phase else { return .none }
        return now >= deadline ? .close : .arm(deadline)
    }
}

import NIOCore

/// When one connection must have sent a whole request, and how long it may then wait for its next
/// one, as a state machine with the time passed in (no clock, no I/O; `ConnectionGuardHandler`
/// runs it on the connection's event loop).
///
/// The header-read time-out runs from the moment the connection opens, and from the first byte of
/// each later request; bytes that trickle in meanwhile do not extend it (that is the slowloris
/// attack). It stops when the request is complete and being handled. Between requests on a
/// keep-alive connection the idle time-out (`server.idleTimeoutSeconds`) runs from the end of the
/// last response. It is kept here, on the raw bytes and the answers, rather than by Hummingbird's
/// connection state handler, because playlists answered on the event loop
/// (`CachedPlaylistHandler`, right after the HTTP codec) never pass that handler: it would take a
/// connection busy with them for an idle one.
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
        /// No check is needed now (`ConnectionGuardHandler` leaves a scheduled one to run and find
        /// nothing due).
        case disarm
        /// The head did not arrive in time: close the connection.
        case close
        /// No request came within the idle time-out after the last response: close the connection.
        case closeIdle
    }

    let timeout: TimeAmount
    /// `server.idleTimeoutSeconds`; nil: a connection may wait for its next request for ever.
    let idleTimeout: TimeAmount?
    private(set) var phase: Phase
    /// Since when the connection has waited for a request (opened, or finished its last response):
    /// the order in which `ConnectionRegistry` closes idle connections at the limit.
    private(set) var waitingSince: NIODeadline
    /// Requests answered before they were whole: the router may answer a request before reading
    /// its body (a `413` for a body over the limit), so that request's answer ends while its body
    /// is still arriving, under the header-read time-out, and its end then finds it answered.
    private var answeredAhead = 0

    /// A connection that opened at `now`: its first request head is due by `now + timeout`.
    init(timeout: TimeAmount, idleTimeout: TimeAmount? = nil, openedAt now: NIODeadline) {
        self.timeout = timeout
        self.idleTimeout = idleTimeout
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

    /// A request is whole (head and body); `now` places the wait that follows one already answered.
    mutating func headReceived(at now: NIODeadline? = nil) -> Action {
        if answeredAhead > 0, case .readingHead = phase {
            answeredAhead -= 1
            phase = .waiting
            let since = now ?? waitingSince
            waitingSince = since
            if let idleTimeout { return .arm(since + idleTimeout) }
            return .disarm
        }
        if case .handling(let requests) = phase {
            phase = .handling(requests: requests + 1)
            return .none
        }
        phase = .handling(requests: 1)
        return .disarm
    }

    mutating func responseEnded(at now: NIODeadline) -> Action {
        if case .readingHead = phase {
            // Answered before it was whole: the header-read time-out goes on for its body.
            answeredAhead += 1
            return .none
        }
        guard case .handling(let requests) = phase else { return .none }
        if requests > 1 {
            phase = .handling(requests: requests - 1)
        } else {
            phase = .waiting
            waitingSince = now
            if let idleTimeout { return .arm(now + idleTimeout) }
        }
        return .none
    }

    /// The scheduled check ran at `now`.
    func deadlinePassed(at now: NIODeadline) -> Action {
        switch phase {
        case .readingHead(let deadline):
            return now >= deadline ? .close : .arm(deadline)
        case .waiting:
            guard let idleTimeout else { return .none }
            let deadline = waitingSince + idleTimeout
            return now >= deadline ? .closeIdle : .arm(deadline)
        case .handling:
            return .none
        }
    }
}

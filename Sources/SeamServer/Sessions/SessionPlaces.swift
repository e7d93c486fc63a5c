import NIOConcurrencyHelpers

/// A place in the `SessionStore` held for a session that is being built.
package struct SessionReservation: Sendable, Hashable {
    let number: UInt64
}

/// The count behind `sessions.maxSessions`: places taken by stored sessions and by starts under
/// way, changed under one lock so that checking and taking a place is a single step. (Summing
/// the shards and then inserting let concurrent starts all see room and all get in.)
final class SessionPlaces: Sendable {
    private struct State {
        var taken = 0
        /// Reservations not yet used or released; each holds one place in `taken`.
        var open: Set<UInt64> = []
        var nextNumber: UInt64 = 0
    }

    let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = limit
    }

    var taken: Int { state.withLockedValue { $0.taken } }

    /// Takes a place for a start; nil when all `limit` places are taken.
    func reserve() -> SessionReservation? {
        state.withLockedValue { state -> SessionReservation? in
            guard state.taken < limit else { return nil }
            state.taken += 1
            state.nextNumber &+= 1
            state.open.insert(state.nextNumber)
            return SessionReservation(number: state.nextNumber)
        }
    }

    /// A start failed: its place is free again. No effect for a reservation already used or released.
    func release(_ reservation: SessionReservation) {
        state.withLockedValue { state in
            if state.open.remove(reservation.number) != nil { state.taken -= 1 }
        }
    }

    /// The session is stored: its reservation's place now belongs to it. A reservation already
    /// used or released takes a new place if one is free; false when none is.
    func occupy(_ reservation: SessionReservation) -> Bool {
        state.withLockedValue { state -> Bool in
            if state.open.remove(reservation.number) != nil { return true }
            guard state.taken < limit else { return false }
            state.taken += 1
            return true
        }
    }

    /// Stored sessions left (deleted, expired): their places are free.
    func vacate(_ count: Int) {
        state.withLockedValue { $0.taken = max(0, $0.taken - count) }
    }
}

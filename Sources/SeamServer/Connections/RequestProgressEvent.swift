/// Sent toward the front of a connection's pipeline (a user outbound event) by
/// `RequestProgressHandler`, which sees decoded HTTP parts, to `ConnectionGuardHandler`, which sees
/// raw bytes and owns the header-read timer and the connection's place in `ConnectionRegistry`.
enum RequestProgressEvent: Sendable, Equatable {
    /// A complete request — head and body — was decoded.
    case headReceived
    /// The last part of a response was written.
    case responseEnded
}

/// Why the demo servers could not start. Messages say what to change, because the first person to
/// see them is a newcomer running `seam demo`.
package enum DemoServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The media, VAST or web folder does not exist (wrong working directory, usually).
    case directoryNotFound(String)
    /// A port could not be bound (already in use, or not permitted).
    case bindFailed(server: String, host: String, port: Int, reason: String)
    /// The servers stopped before both had bound their ports.
    case stoppedBeforeReady(String)

    package var description: String {
        switch self {
        case .directoryNotFound(let path):
            return "directory not found: \(path) (run from the repository root, or pass the folder explicitly)"
        case .bindFailed(let server, let host, let port, let reason):
            return
                "the demo \(server) could not listen on \(host):\(port): \(reason) (choose another port, or 0 for any free one)"
        case .stoppedBeforeReady(let reason):
            return "the demo servers stopped before they were ready: \(reason)"
        }
    }
}

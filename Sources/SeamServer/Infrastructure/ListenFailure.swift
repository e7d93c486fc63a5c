import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Seam could not listen where it was told to: said with the address, the reason in plain words
/// and the settings that choose it, instead of the socket call's errno text.
package struct ListenFailure: Error, CustomStringConvertible {
    package let description: String

    /// Nil when `error` is not a failure to listen.
    init?(_ error: any Error, server: SeamConfiguration.Server) {
        guard let io = error as? IOError, String(describing: io).contains("bind") else { return nil }
        let address = "\(server.host):\(server.port)"
        let fix = "choose another with --port or server.port (SEAM_SERVER_PORT), and the address with server.host"
        switch io.errnoCode {
        case EADDRINUSE:
            description = "Seam cannot listen on \(address): another program uses that port; stop it, or \(fix)"
        case EACCES:
            description =
                "Seam cannot listen on \(address): ports below 1024 need privileges; use a port above 1024 behind a proxy, or \(fix)"
        case EADDRNOTAVAIL:
            description =
                "Seam cannot listen on \(address): no interface of this machine has that address; use 0.0.0.0 (all) or 127.0.0.1 in server.host (SEAM_SERVER_HOST)"
        default:
            description = "Seam cannot listen on \(address); \(fix)"
        }
    }
}

import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why Seam could not talk to an upstream, in words a user acts on. The libraries' own errors
/// name their types, errno text and the paths they were built at; none of that reaches an answer
/// or a log line meant for users (the raw error is logged at debug level for developers).
enum ConnectionFailure: Sendable, Equatable {
    /// Seam spoke TLS (an `https` URL) and the server answered in plain HTTP.
    case notTLS
    /// The server's TLS certificate was not accepted.
    case untrustedCertificate
    /// The TLS handshake failed for another reason (no common protocol version or cipher).
    case tlsFailed
    /// Nothing accepted the connection at that address and port.
    case refused
    /// The host name has no address.
    case noAddress
    /// The server closed the connection before it answered.
    case closedEarly
    /// Anything else; `detail` is Seam's own words, never the library's.
    case other

    init(_ error: any Error) {
        // Matched on what the libraries say, but never repeated to the user.
        let text = String(describing: error)
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
            self = .notTLS
        } else if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("unableToValidateCertificate")
            || text.contains("certificate")
        {
            self = .untrustedCertificate
        } else if error is NIOSSLError {
            self = .tlsFailed
        } else if Self.errno(of: error) == ECONNREFUSED || text.contains("Connection refused") {
            self = .refused
        } else if let connection = error as? NIOConnectionError,
            connection.dnsAError != nil || connection.dnsAAAAError != nil,
            connection.connectionErrors.isEmpty
        {
            self = .noAddress
        } else if let client = error as? HTTPClientError, client == .remoteConnectionClosed {
            self = .closedEarly
        } else {
            self = .other
        }
    }

    private static func errno(of error: any Error) -> Int32? {
        if let io = error as? IOError { return io.errnoCode }
        if let connection = error as? NIOConnectionError {
            for failure in connection.connectionErrors {
                if let io = failure.error as? IOError { return io.errnoCode }
            }
        }
        return nil
    }

    /// What happened, for `url`'s host: a sentence part, after "… is unreachable: ".
    func words(host: String) -> String {
        switch self {
        case .notTLS:
            return "\(host) answered plain HTTP to Seam's TLS handshake: it does not speak https on that port"
        case .untrustedCertificate:
            return "\(host)'s TLS certificate was not accepted (expired, self-signed, or made for another name)"
        case .tlsFailed:
            return "the TLS handshake with \(host) failed (no protocol version or cipher both sides speak)"
        case .refused: return "the connection to \(host) was refused: nothing listens on that port"
        case .noAddress: return "\(host) has no address (DNS)"
        case .closedEarly: return "\(host) closed the connection before answering"
        case .other: return "the connection to \(host) failed"
        }
    }
}

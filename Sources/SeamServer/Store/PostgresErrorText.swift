import PostgresNIO

/// A PostgreSQL failure in words an operator can act on, for logs and store errors: the server's
/// own message and SQLSTATE when it said something, else what happened to the connection. Never
/// the client library's type names (its errors print as `PSQLError(...)`, or as a notice that
/// hides their details).
enum PostgresErrorText {
    static func plain(_ error: any Error) -> String {
        guard let failure = error as? PSQLError else {
            if let decoding = error as? DecodingError { return describe(decoding) }
            return String(describing: error)
        }
        if let message = failure.serverInfo?[.message] {
            let state = failure.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return "PostgreSQL answered: \(message)\(state)"
        }
        switch failure.code {
        case .connectionError:
            return "PostgreSQL could not be reached: check store.postgresURL and that the server is up"
        case .serverClosedConnection, .uncleanShutdown:
            return "PostgreSQL closed the connection"
        case .clientClosedConnection, .poolClosed:
            return "the connection to PostgreSQL was closed by this Seam (shutting down)"
        case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return "PostgreSQL refused TLS: check the server's ssl setting and store.postgresURL's sslmode"
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return "PostgreSQL refused the login: check the user and password in store.postgresURL"
        case .queryCancelled:
            return "the query was cancelled"
        case .listenFailed, .unlistenFailed:
            return "PostgreSQL refused to listen for session notifications"
        default:
            return "PostgreSQL's answer could not be understood"
        }
    }

    /// Where a stored value could not be read, by its field path.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let fields = context.codingPath.map(\.stringValue).joined(separator: ".")
            return fields.isEmpty ? "the stored value" : "the stored field \(fields)"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context)) has no \(key.stringValue)"
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            return "\(path(context)) is missing or of another type"
        case .dataCorrupted(let context):
            return "\(path(context)) could not be read: \(context.debugDescription)"
        @unknown default:
            return "a stored value could not be read"
        }
    }
}

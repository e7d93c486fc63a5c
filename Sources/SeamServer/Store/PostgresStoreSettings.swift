import Foundation
import NIOSSL
import PostgresNIO

/// Where the PostgreSQL session store connects, and how it behaves, from the `store` section:
/// `store.postgresURL` parsed once, at startup, so a malformed URL is a configuration error that
/// names the setting instead of a connection failure later.
///
/// The URL is libpq's: `postgres://user:password@host:5432/database`. `sslmode=disable` (the
/// default, for a database on loopback or a private network; `allow` and `prefer` mean the same
/// here), `require` or `verify-full` (TLS, the server's certificate checked against the trusted
/// roots and the host name — stricter than libpq's `require`, which checks nothing: Seam never
/// sends session data over an unverified connection), `verify-ca` (the certificate chain checked,
/// not the host name: a database reached by an address its certificate does not name).
/// `sslrootcert=/path/ca.pem` trusts the certificates in that PEM file instead of the system's
/// roots (a private CA, as managed databases give); it is read when the configuration loads.
/// `schema=` puts Seam's tables in a schema of their own (created when missing), e.g. one per test.
package struct PostgresStoreSettings: Sendable, Equatable {
    package enum TLSMode: String, Sendable, Equatable {
        case disable
        /// TLS; the certificate's chain and host name are checked.
        case require
        /// TLS; the certificate's chain is checked, not its host name.
        case verifyCA
    }

    package var host: String
    package var port: Int
    package var username: String
    package var password: String?
    package var database: String?
    package var tls: TLSMode
    /// `sslrootcert`: a PEM file of the certificates to trust instead of the system's roots.
    package var caFile: String?
    /// The schema Seam's tables live in; nil: the connection's default (`public`).
    package var schema: String?
    /// Most connections this replica opens (`store.postgresPoolSize`).
    package var poolSize: Int
    /// Longest one store operation may take, connection included (`store.postgresTimeoutSeconds`):
    /// a database lost at runtime answers `503` after this, never a hang.
    package var timeoutSeconds: Double
    /// How long a replica serves a session it holds without asking PostgreSQL again
    /// (`store.cacheSeconds`); also how stale the count behind `sessions.maxSessions` may be.
    package var cacheSeconds: Double
    /// Whether the replica listens to PostgreSQL's notifications of deleted and rewritten
    /// sessions (`store.notifications`): then it trusts the sessions it holds until told
    /// otherwise, and `cacheSeconds` only bounds the trust while the notifications are lost.
    package var notifications: Bool

    /// The URL with the password hidden, for logs and errors.
    package var redacted: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database ?? "")"
    }

    package init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
        tls: TLSMode = .disable, caFile: String? = nil, schema: String? = nil, poolSize: Int = 10,
        timeoutSeconds: Double = 2,
        cacheSeconds: Double = 2, notifications: Bool = true
    ) {
        self.notifications = notifications
        self.caFile = caFile
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.schema = schema
        self.poolSize = poolSize
        self.timeoutSeconds = timeoutSeconds
        self.cacheSeconds = cacheSeconds
    }

    /// The settings of a `store` section; nil when `postgresURL` is empty (the in-memory store).
    package init?(_ store: SeamConfiguration.Store, source: String = "configuration") throws(ConfigurationError) {
        guard !store.postgresURL.isEmpty else { return nil }
        self = try Self(url: store.postgresURL, source: source)
        poolSize = store.postgresPoolSize
        timeoutSeconds = store.postgresTimeoutSeconds
        cacheSeconds = store.cacheSeconds
        notifications = store.notifications
    }

    /// Parses `postgres://user:password@host:port/database?sslmode=...&schema=...`.
    package init(url text: String, source: String = "configuration") throws(ConfigurationError) {
        func fail(_ why: String) -> ConfigurationError {
            ConfigurationError(
                .invalidValue, key: "store.postgresURL", source: source,
                message:
                    "\(why); use a URL like postgres://seam:secret@db.internal:5432/seam (or leave it empty for the in-memory store)"
            )
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw fail("is not a postgres:// URL")
        }
        guard let host = components.host, !host.isEmpty else { throw fail("names no host") }
        guard let user = components.user, !user.isEmpty else { throw fail("names no user") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw fail("has port \(port), outside 1...65535") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var tls = TLSMode.disable
        var schema: String?
        var caFile: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value {
                case "disable", "allow", "prefer": tls = .disable
                case "require", "verify-full": tls = .require
                case "verify-ca": tls = .verifyCA
                default: throw fail("has sslmode=\(item.value ?? ""); use disable, require, verify-ca or verify-full")
                }
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else {
                    throw fail("has an empty sslrootcert; name a PEM file of CA certificates")
                }
                do {
                    guard !(try NIOSSLCertificate.fromPEMFile(path)).isEmpty else {
                        throw fail("has sslrootcert=\(path), which holds no certificate")
                    }
                } catch let error as ConfigurationError {
                    throw error
                } catch {
                    throw fail("has sslrootcert=\(path), which cannot be read as PEM certificates (\(error))")
                }
                caFile = path
            case "schema":
                guard let value = item.value, Self.isIdentifier(value) else {
                    throw fail("has schema=\(item.value ?? ""); use letters, digits and _ only")
                }
                schema = value
            default:
                throw fail(
                    "has the option \(item.name), which Seam does not know (sslmode, sslrootcert and schema are)")
            }
        }
        if caFile != nil && tls == .disable {
            throw fail("has sslrootcert without TLS; add sslmode=verify-full (or verify-ca)")
        }
        self.init(
            host: host, port: port, username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: path.isEmpty ? nil : path, tls: tls, caFile: caFile, schema: schema)
    }

    /// A name Seam writes into SQL unquoted: lower-case letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !(("0"..."9").contains(first)), text.count <= 63 else {
            return false
        }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The client's configuration: the pool size, a connect time-out within the operation time-out;
    /// `applicationName` names this replica's connections (the trigger that notifies deletes and
    /// rewrites says who wrote, so a replica skips its own; `PostgresSessionListener`).
    func clientConfiguration(applicationName: String? = nil) throws -> PostgresClient.Configuration {
        let tlsConfiguration: PostgresClient.Configuration.TLS
        switch try tlsClientConfiguration() {
        case nil: tlsConfiguration = .disable
        case let client?: tlsConfiguration = .require(client)
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password,
            database: database, tls: tlsConfiguration)
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.connectTimeout = .milliseconds(Int64(max(0.1, timeoutSeconds) * 1000))
        configuration.options.additionalStartupParameters = startupParameters(applicationName: applicationName)
        return configuration
    }

    /// One connection of its own, as the pool's are (the listener's: `LISTEN` holds a connection).
    func connectionConfiguration(applicationName: String? = nil) throws -> PostgresConnection.Configuration {
        let tlsConfiguration: PostgresConnection.Configuration.TLS
        switch try tlsClientConfiguration() {
        case nil: tlsConfiguration = .disable
        case let client?: tlsConfiguration = .require(try NIOSSLContext(configuration: client))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password,
            database: database, tls: tlsConfiguration)
        configuration.options.connectTimeout = .milliseconds(Int64(max(0.1, timeoutSeconds) * 1000))
        configuration.options.additionalStartupParameters = startupParameters(applicationName: applicationName)
        return configuration
    }

    /// The TLS client configuration of `sslmode` and `sslrootcert`; nil: no TLS.
    private func tlsClientConfiguration() throws -> TLSConfiguration? {
        var client = TLSConfiguration.makeClientConfiguration()
        if let caFile { client.trustRoots = .file(caFile) }
        switch tls {
        case .disable: return nil
        case .require: return client
        case .verifyCA:
            client.certificateVerification = .noHostnameVerification
            return client
        }
    }

    private func startupParameters(applicationName: String?) -> [(String, String)] {
        var parameters: [(String, String)] = []
        if let schema { parameters.append(("search_path", schema)) }
        if let applicationName { parameters.append(("application_name", applicationName)) }
        return parameters
    }
}

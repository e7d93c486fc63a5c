import Foundation
import PostgresNIO

/// Where the PostgreSQL session store connects, and how it behaves, from the `store` section:
/// `store.postgresURL` parsed once, at startup, so a malformed URL is a configuration error that
/// names the setting instead of a connection failure later.
///
/// The URL is libpq's: `postgres://user:password@host:5432/database`. `sslmode=disable` (the
/// default, for a database on loopback or a private network) or `sslmode=require`; `schema=` puts
/// Seam's tables in a schema of their own (created when missing), e.g. one per test.
public struct PostgresStoreSettings: Sendable, Equatable {
    public enum TLSMode: String, Sendable, Equatable {
        case disable
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String?
    public var tls: TLSMode
    /// The schema Seam's tables live in; nil: the connection's default (`public`).
    public var schema: String?
    /// Most connections this replica opens (`store.postgresPoolSize`).
    public var poolSize: Int
    /// Longest one store operation may take, connection included (`store.postgresTimeoutSeconds`):
    /// a database lost at runtime answers `503` after this, never a hang.
    public var timeoutSeconds: Double
    /// How long a replica serves a session it holds without asking PostgreSQL again
    /// (`store.cacheSeconds`); also how stale the count behind `sessions.maxSessions` may be.
    public var cacheSeconds: Double

    /// The URL with the password hidden, for logs and errors.
    public var redacted: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database ?? "")"
    }

    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
                tls: TLSMode = .disable, schema: String? = nil, poolSize: Int = 10, timeoutSeconds: Double = 2,
                cacheSeconds: Double = 2) {
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
    public init?(_ store: SeamConfiguration.Store, source: String = "configuration") throws(ConfigurationError) {
        guard !store.postgresURL.isEmpty else { return nil }
        self = try Self(url: store.postgresURL, source: source)
        poolSize = store.postgresPoolSize
        timeoutSeconds = store.postgresTimeoutSeconds
        cacheSeconds = store.cacheSeconds
    }

    /// Parses `postgres://user:password@host:port/database?sslmode=...&schema=...`.
    public init(url text: String, source: String = "configuration") throws(ConfigurationError) {
        func fail(_ why: String) -> ConfigurationError {
            ConfigurationError(.invalidValue, key: "store.postgresURL", source: source, message: "\(why); use a URL like postgres://seam:secret@db.internal:5432/seam (or leave it empty for the in-memory store)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw fail("is not a postgres:// URL")
        }
        guard let host = components.host, !host.isEmpty else { throw fail("names no host") }
        guard let user = components.user, !user.isEmpty else { throw fail("names no user") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw fail("has port \(port), outside 1...65535") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var tls = TLSMode.disable
        var schema: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value {
                case "disable", "allow", "prefer": tls = .disable
                case "require", "verify-ca", "verify-full": tls = .require
                default: throw fail("has sslmode=\(item.value ?? ""); use disable or require")
                }
            case "schema":
                guard let value = item.value, Self.isIdentifier(value) else {
                    throw fail("has schema=\(item.value ?? ""); use letters, digits and _ only")
                }
                schema = value
            default:
                throw fail("has the option \(item.name), which Seam does not know (sslmode and schema are)")
            }
        }
        self.init(host: host, port: port, username: user.removingPercentEncoding ?? user,
                  password: components.password.map { $0.removingPercentEncoding ?? $0 },
                  database: path.isEmpty ? nil : path, tls: tls, schema: schema)
    }

    /// A name Seam writes into SQL unquoted: lower-case letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !(("0"..."9").contains(first)), text.count <= 63 else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The client's configuration: the pool size, a connect time-out within the operation time-out.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        let tlsConfiguration: PostgresClient.Configuration.TLS
        switch tls {
        case .disable: tlsConfiguration = .disable
        case .require: tlsConfiguration = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: host, port: port, username: username, password: password,
                                                         database: database, tls: tlsConfiguration)
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.connectTimeout = .milliseconds(Int64(max(0.1, timeoutSeconds) * 1000))
        if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
        return configuration
    }
}

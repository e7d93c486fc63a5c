import ArgumentParser
import Logging
import SeamServer

/// `seam serve`: loads the configuration (defaults < YAML file < SEAM_* environment < flags) and
/// runs the service until SIGTERM/SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Seam ad insertion proxy.",
        discussion: """
            Configuration comes from, lowest to highest precedence: built-in defaults, the YAML file \
            (--config, or $SEAM_CONFIG), SEAM_* environment variables (SEAM_SERVER_PORT, \
            SEAM_DOMAINS_HOSTS=a.com,*.b.com, ...), then the flags below. Every key is listed in \
            docs/configuration.md. Stops gracefully on SIGTERM or SIGINT.
            """
    )

    /// The product's routes, built from the shared services (upstream client, matcher, metrics):
    /// the same wiring `seam demo` uses.
    static let routes: @Sendable (SeamServices) throws -> [any SeamRouteProvider] = { SeamProduct.routes($0) }

    @Option(name: .customLong("config"), help: ArgumentHelp("YAML configuration file.", valueName: "file"))
    var configFile: String?

    @Option(help: "Address to listen on (server.host), e.g. 0.0.0.0 for all interfaces.")
    var host: String?

    @Option(help: "Port to listen on (server.port).")
    var port: Int?

    @Option(
        name: .customLong("set"), help: ArgumentHelp("Set any configuration key; repeatable.", valueName: "key=value"))
    var settings: [String] = []

    @Option(
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical (server.logLevel).", valueName: "level"))
    var logLevel: String?

    @Flag(help: "Print the effective configuration as YAML and exit.")
    var printConfig = false

    mutating func run() async throws {
        var overrides: [String: String] = [:]
        let configuration: SeamConfiguration
        let loader = ConfigurationLoader()
        do {
            for setting in settings {
                let (key, value) = try ConfigurationLoader.parseOverride(setting)
                overrides[key] = value
            }
            if let host { overrides["server.host"] = host }
            if let port { overrides["server.port"] = String(port) }
            if let logLevel { overrides["server.logLevel"] = logLevel }
            configuration = try loader.load(configFile: configFile, overrides: overrides)
        } catch {
            throw refuse(error.description)
        }
        if printConfig {
            print(ConfigurationLoader.renderYAML(configuration), terminator: "")
            return
        }

        let level = Logger.Level(rawValue: configuration.server.logLevel) ?? .info
        let json = configuration.server.logFormat == "json"
        let handler: @Sendable (String, Logger.MetadataProvider?) -> any LogHandler = { label, provider in
            if json { return JSONLogHandler(label: label, level: level, metadataProvider: provider) }
            var handler = StreamLogHandler.standardOutput(label: label, metadataProvider: provider)
            handler.logLevel = level
            return handler
        }
        // The exporter first (its own trouble is logged without trace ids), so the logging system
        // can be bootstrapped with the tracer's trace_id/span_id metadata.
        let tracing: SeamTracing
        do {
            tracing = try SeamTracing.make(
                configuration.tracing, logger: Logger(label: "seam.tracing") { handler($0, nil) })
        } catch {
            throw refuse("tracing.otlpEndpoint: the OTLP exporter could not be set up: \(error)")
        }
        LoggingSystem.bootstrap(handler, metadataProvider: tracing.tracer.logMetadataProvider)
        var logger = Logger(label: "seam")
        logger.logLevel = level
        for variable in loader.unrecognizedEnvironmentVariables() {
            logger.warning(
                "environment variable \(variable) sets no configuration key; check its spelling against docs/configuration.md (platform variables such as Kubernetes' SEAM_SERVICE_HOST can be ignored)"
            )
        }
        try await runSeam(configuration: configuration, logger: logger, extraRoutes: Self.routes, tracing: tracing)
    }
}

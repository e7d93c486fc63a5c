import Logging
import OTel
import ServiceLifecycle

/// Tracing for one `seam serve` process: the tracer the services record with, and the services
/// that export its spans (run in the process's service group, after the server so they stop last).
///
/// The exporter is swift-otel's OTLP/HTTP one (protobuf, to `tracing.otlpEndpoint` + `/v1/traces`),
/// with its batch processor: spans wait in a bounded queue and go out in batches from a
/// background task, so no request ever waits for the collector; when the collector is down or
/// slow, the queue fills and further spans are dropped (swift-otel logs it). Only the trait for
/// OTLP/HTTP is built: the gRPC one would add grpc-swift to every build.
package struct SeamTracing: Sendable {
    package let tracer: SeamTracer
    package let services: [any Service]

    /// No spans, no exporter.
    package static let off = SeamTracing(tracer: .off, services: [])

    package init(tracer: SeamTracer, services: [any Service]) {
        self.tracer = tracer
        self.services = services
    }

    /// From the `tracing` section: off when `otlpEndpoint` is empty, else the OTLP/HTTP exporter.
    ///
    /// The standard `OTEL_*` environment variables (`OTEL_EXPORTER_OTLP_HEADERS` for a
    /// collector's API key, `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, `OTEL_BSP_SCHEDULE_DELAY`,
    /// `OTEL_RESOURCE_ATTRIBUTES`, ...) adjust it, as swift-otel reads them; they never turn
    /// tracing on by themselves.
    ///
    /// - Parameter logger: where the exporter reports its own trouble (a collector that does not
    ///   answer, spans dropped).
    package static func make(_ configuration: SeamConfiguration.Tracing, logger: Logger) throws -> SeamTracing {
        guard !configuration.otlpEndpoint.isEmpty else { return .off }
        var otel = OTel.Configuration.default
        otel.serviceName = configuration.serviceName
        otel.diagnosticLogger = .custom(logger)
        otel.logs.enabled = false
        otel.metrics.enabled = false
        otel.traces.enabled = true
        otel.traces.exporter = .otlp
        otel.traces.otlpExporter.protocol = .httpProtobuf
        otel.traces.otlpExporter.endpoint = tracesURL(configuration.otlpEndpoint)
        otel.traces.sampler = .parentBasedTraceIDRatio(ratio: configuration.sampleRatio) ?? .parentBasedAlwaysOn
        otel.propagators = [.traceContext]
        let backend = try OTel.makeTracingBackend(configuration: otel)
        return SeamTracing(
            tracer: SeamTracer(backend.factory, logMetadataProvider: OTel.makeLoggingMetadataProvider()),
            services: [backend.service])
    }

    /// `http://collector:4318` → `http://collector:4318/v1/traces`; a URL already ending in
    /// `/v1/traces` is kept.
    static func tracesURL(_ endpoint: String) -> String {
        if endpoint.hasSuffix("/v1/traces") { return endpoint }
        return (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/traces"
    }
}

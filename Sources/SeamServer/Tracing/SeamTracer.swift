import Logging
import Tracing

/// The spans Seam records (`docs/tracing.md`): off unless `tracing.otlpEndpoint` is set, so the
/// hot paths pay one `nil` check and nothing else when nobody is looking.
///
/// A value handed to the parts that record spans (through `SeamServices`), never a process-wide
/// tracer: `InstrumentationSystem` is global and once-only, and tests run many servers in one
/// process, each with its own in-memory tracer. Spans still nest the usual way: a span started
/// here is the child of the span in `InstrumentationContext.current`, and is that context while
/// its operation runs.
package struct SeamTracer: Sendable {
    /// Nil: tracing off.
    let tracer: (any Tracer)?
    /// `trace_id` and `span_id` of the current span, as the tracer writes them (32 and 16 hex
    /// digits for OpenTelemetry), for every log line written inside a span.
    package let logMetadataProvider: Logger.MetadataProvider?

    /// Tracing off: no span is started, nothing is recorded or sent.
    package static let off = SeamTracer()

    private init() {
        tracer = nil
        logMetadataProvider = nil
    }

    /// - Parameters:
    ///   - tracer: the backend (swift-otel's in `seam serve`, an in-memory tracer in tests).
    ///   - logMetadataProvider: reads the ids of the current span for log lines; the logging
    ///     system is bootstrapped with it (`seam serve`), and `JSONLogHandler` honours it.
    package init(_ tracer: any Tracer, logMetadataProvider: Logger.MetadataProvider) {
        self.tracer = tracer
        self.logMetadataProvider = logMetadataProvider
    }

    package var isOn: Bool { tracer != nil }

    /// Runs `operation` inside a new span named `name`: a child of `parent` (default: the current
    /// context's span, if any), ended when `operation` returns. A thrown error is recorded on the
    /// span, which then has an error status, and rethrown with its type intact.
    func span<T, Failure: Error>(
        _ name: String, kind: SpanKind = .internal, parent: InstrumentationContext? = nil,
        _ operation: (TraceSpan) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        guard let tracer else { return try await operation(TraceSpan(nil)) }
        let span = tracer.startAnySpan(
            name, context: parent ?? InstrumentationContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        let handle = TraceSpan(span)
        let result: Result<T, Failure> = await InstrumentationContext.$current.withValue(span.context) {
            do throws(Failure) {
                return .success(try await operation(handle))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            handle.fail(error)
            throw error
        }
    }

    /// The W3C `traceparent` (and `tracestate`) of the current span, added to an upstream
    /// request's headers so the origin or ad server can join the trace. Nothing when off or
    /// outside a span.
    func inject(into headers: inout [(name: String, value: String)]) {
        guard let tracer, let context = InstrumentationContext.current else { return }
        tracer.inject(context, into: &headers, using: HeaderListInjector())
    }
}

/// Writes propagation headers into an upstream request's header list.
struct HeaderListInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [(name: String, value: String)]) {
        carrier.removeAll { $0.name.lowercased() == key.lowercased() }
        carrier.append((name: key, value: value))
    }
}

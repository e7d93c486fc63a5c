import Tracing

/// The span an operation runs in, for its attributes and outcome. With tracing off it holds no
/// span and every call does nothing, so call sites need no `if`.
struct TraceSpan: Sendable {
    let span: (any Span)?

    init(_ span: (any Span)?) {
        self.span = span
    }

    var isRecording: Bool { span?.isRecording ?? false }

    func set(_ key: String, _ value: String) {
        span?.attributes[key] = value
    }

    func set(_ key: String, _ value: Int) {
        span?.attributes[key] = value
    }

    func set(_ key: String, _ value: Double) {
        span?.attributes[key] = value
    }

    /// Adds a timestamped event (one per break of a decision, say) with its own attributes.
    func event(_ name: String, _ attributes: [String: TraceValue]) {
        guard let span else { return }
        var converted = SpanAttributes()
        for (key, value) in attributes { converted.set(key, value: value.attribute) }
        span.addEvent(SpanEvent(name: name, attributes: converted))
    }

    /// Marks the span failed: the OpenTelemetry error status with `message`, and `error.type`
    /// (a short, low-cardinality name of what went wrong: `ORIGIN_TIMEOUT`, `timeout`, `500`).
    func fail(type: String, message: String) {
        guard let span else { return }
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error, message: message))
    }

    /// Marks the span failed by `error` (see `errorType(_:)`), recording it as an exception event.
    func fail(_ error: any Error) {
        guard let span else { return }
        span.recordError(error)
        fail(type: Self.errorType(error), message: "\(error)")
    }

    /// `error.type` of an error Seam throws: a `SeamError`'s code, an `UpstreamError`'s case.
    static func errorType(_ error: any Error) -> String {
        switch error {
        case let error as SeamError: return error.code.rawValue
        case let error as UpstreamError: return error.kind
        default: return String(describing: type(of: error))
        }
    }
}

extension UpstreamError {
    /// The case's name, for `error.type`: what failed, without the URL.
    var kind: String {
        switch self {
        case .invalidURL: return "invalid_url"
        case .blocked: return "blocked"
        case .timeout: return "timeout"
        case .tooLarge: return "too_large"
        case .tooManyRedirects: return "too_many_redirects"
        case .unreachable: return "unreachable"
        case .status(_, let code): return "\(code)"
        case .refused: return "refused"
        case .loop: return "loop"
        case .noConnection: return "no_connection"
        case .notTLS: return "not_tls"
        }
    }
}

/// An attribute value of a span event.
enum TraceValue: Sendable {
    case text(String)
    case number(Double)
    case count(Int)

    var attribute: SpanAttribute {
        switch self {
        case .text(let text): return .string(text)
        case .number(let number): return .double(number)
        case .count(let count): return .int64(Int64(count))
        }
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SeamTesting
@testable import SeamServer

/// Seam's product routes in process (`app.test(.router)`), over an in-memory origin, with the
/// session id key and the live clock chosen by the test: what a restart or a moving origin needs,
/// without sockets or sleeps.
enum FaultMatrixApp {
    static var quietLogger: Logger {
        var logger = Logger(label: "seam.fault-matrix")
        logger.logLevel = .critical
        return logger
    }

    /// Seam with `configuration` (no ads unless it sets an ad tag).
    static func make(
        _ configuration: SeamConfiguration, upstream: any UpstreamFetching,
        sessionIDs: SessionIDKey? = nil,
        clock: TestClock? = nil, metrics: SeamMetrics = SeamMetrics()
    ) throws -> some ApplicationProtocol {
        let logger = quietLogger
        let services = SeamServices(
            configuration: configuration, logger: logger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains), metrics: metrics,
            sessionIDs: sessionIDs,
            clock: clock?.seamClock)
        return buildSeamApplication(
            configuration: configuration, logger: logger, routes: SeamProduct.routes(services),
            metrics: services.metrics)
    }

    /// An answer, with the JSON error's code and message when there is one.
    struct Answer: Sendable {
        var status: Int
        var body: String

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }

        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }
}

extension TestClientProtocol {
    /// `url` may be absolute (as Seam writes them into answers); only its path and query are used.
    func call(
        _ url: String, method: HTTPRequest.Method = .get, json: [String: String]? = nil
    ) async throws -> FaultMatrixApp.Answer {
        var path = url
        if let schemeEnd = url.range(of: "://"), let slash = url[schemeEnd.upperBound...].firstIndex(of: "/") {
            path = String(url[slash...])
        }
        var headers: HTTPFields = [:]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        }
        return try await execute(uri: path, method: method, headers: headers, body: body) { response in
            FaultMatrixApp.Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }
}

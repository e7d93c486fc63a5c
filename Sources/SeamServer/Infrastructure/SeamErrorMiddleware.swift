import Hummingbird
import Logging

/// Turns whatever a route throws into Seam's JSON error shape with a fitting status.
///
/// - `SeamError`: its code, status and message, as they are (they are written for clients).
/// - Hummingbird `HTTPError` and other `HTTPResponseError`s (unknown route, undecodable body, too
///   large body): their status, with a code derived from it (`NOT_FOUND`, `INVALID_REQUEST`, ...).
/// - `UpstreamError` that a route let through: the origin error it most likely is (time-out → 504
///   `ORIGIN_TIMEOUT`, refused host → 403 `DOMAIN_NOT_ALLOWED`, anything else → 502
///   `ORIGIN_UNAVAILABLE`), since an unhandled upstream failure is an origin failure to the player.
/// - Anything else: 500 `INTERNAL_ERROR` with a fixed message. The error itself is logged, never
///   sent: internal errors can carry paths, addresses and configuration.
package struct SeamErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as SeamError {
            return JSONResponses.error(error)
        } catch let error as UpstreamError {
            context.logger.info(
                "upstream error reached the client",
                metadata: ["error": "\(SafeUpstreamClient.redacted(error.description))"])
            return JSONResponses.error(Self.seamError(for: error))
        } catch let error as any HTTPResponseError {
            return Self.response(for: error)
        } catch {
            context.logger.error(
                "unhandled error",
                metadata: [
                    "error": "\(String(reflecting: error))", "path": "\(request.uri.path)",
                ])
            return JSONResponses.error(
                SeamError(
                    .internalError,
                    "Seam hit an unexpected error and logged it. Try again; if it keeps happening, report it with the time of the request."
                ))
        }
    }

    static func seamError(for error: UpstreamError) -> SeamError {
        switch error {
        case .timeout:
            return SeamError(.originTimeout, "The origin did not answer in time. Try again later.")
        case .blocked:
            return SeamError(
                .domainNotAllowed, "Seam is not allowed to fetch from that host. Ask the operator to allow it.")
        case .invalidURL:
            return SeamError(.invalidPlaybackURL, "The URL is not an absolute http(s) URL.")
        case .loop:
            return SeamError(
                .loopDetected, "The URL is a Seam's, not the origin's: give the origin's own playlist URL.")
        case .refused(_, let reason):
            return SeamError(.originInvalidPlaylist, "The origin's answer was refused: \(reason)")
        case .notTLS:
            return SeamError(
                .originNotTLS,
                "The origin answered plain HTTP to Seam's https request: give its http:// URL, or add seam.scheme=http to a /v1/hls/ stream URL."
            )
        case .status(_, let code) where code == 404 || code == 410:
            return SeamError(.originNotFound, "The origin answered HTTP \(code): check the playlist URL.")
        case .tooLarge, .tooManyRedirects, .unreachable, .status, .noConnection:
            return SeamError(.originUnavailable, "The origin could not be fetched. Try again later.")
        }
    }

    static func response(for error: any HTTPResponseError) -> Response {
        let status = error.status
        let code: String
        let message: String
        switch status.code {
        case 400: (code, message) = ("INVALID_REQUEST", "The request is not valid.")
        case 404: (code, message) = ("NOT_FOUND", "There is nothing at this path. Check the URL against Seam's API.")
        case 405: (code, message) = ("METHOD_NOT_ALLOWED", "This path does not accept that method.")
        case 413: (code, message) = (SeamError.Code.payloadTooLarge.rawValue, "The request body is too large.")
        case 400..<500: (code, message) = ("HTTP_\(status.code)", status.reasonPhrase)
        default: (code, message) = (SeamError.Code.internalError.rawValue, "Seam could not answer this request.")
        }
        // A client error's own text (a JSON decoding problem, say) helps the caller; a server
        // error's does not go out.
        let detail = (error as? HTTPError)?.body
        let text = (400..<500).contains(status.code) && detail != nil ? detail ?? message : message
        var response = JSONResponses.error(code: code, message: text, status: status)
        for field in (error as? HTTPError)?.headers ?? [:]
        where field.name != .contentType && field.name != .contentLength {
            response.headers.append(field)
        }
        return response
    }
}

import HTTPTypes
import Hummingbird

/// No Seam inside a Seam (issue 23): one anonymous request for a content URL that was itself a
/// Seam URL, smuggling its scheme parameter one level deeper per hop, made 40 nested sessions,
/// 40 ad decisions and 40 stacked pre-rolls for one viewer.
///
/// Three marks, so a loop stops at the first level whichever way it is built:
/// - every request Seam makes upstream says `CDN-Loop: seam` (RFC 8586); a Seam asked to start or
///   serve a session by such a request refuses it, `403 LOOP_DETECTED`;
/// - every session answer (`/v1/hls/...`, `/v1/sessions...`) says `Via: 1.1 seam`; an upstream
///   answer that says so is refused by the fetching Seam (`UpstreamError.loop`), even from a Seam
///   that does not check the request's mark, or behind a proxy that dropped it;
/// - a content URL naming the address the request reached Seam at, or `server.publicBaseURL`'s
///   host, is refused before anything is fetched.
enum LoopGuard {
    /// Seam's name in `CDN-Loop` and `Via`.
    static let token = "seam"
    static let cdnLoop = HTTPField.Name("CDN-Loop")!
    static let via = HTTPField.Name("Via")!
    /// The `Via` value on session answers.
    static let viaValue = "1.1 " + token

    /// Whether a `CDN-Loop` field names Seam: one of its comma-separated entries is `seam`
    /// (parameters after `;` aside), in any letter case.
    static func marked(cdnLoop values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { entry in
                let name = entry.split(separator: ";", maxSplits: 1).first ?? ""
                return name.trimmingSpaces().lowercased() == token
            }
        }
    }

    /// Whether a `Via` field names Seam: an entry whose received-by part is `seam`.
    static func marked(via values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { entry in
                let parts = entry.split(separator: " ", omittingEmptySubsequences: true)
                return parts.count >= 2 && parts[1].lowercased() == token
            }
        }
    }

    /// The routes that start or serve sessions.
    static func guards(path: String) -> Bool {
        path.hasPrefix("/v1/hls/") || path == "/v1/sessions" || path.hasPrefix("/v1/sessions/")
    }

    static func refusal() -> SeamError {
        SeamError(
            .loopDetected,
            "this request came from a Seam (CDN-Loop: seam): a Seam URL cannot be the content, ad or creative of another Seam session; give the origin's own URL"
        )
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}

/// Refuses session requests that came from a Seam, and marks session answers (`LoopGuard`).
struct LoopGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard LoopGuard.guards(path: request.uri.path) else { return try await next(request, context) }
        var response: Response
        if LoopGuard.marked(cdnLoop: request.headers[values: LoopGuard.cdnLoop]) {
            response = JSONResponses.error(LoopGuard.refusal())
        } else {
            response = try await next(request, context)
        }
        response.headers[values: LoopGuard.via].append(LoopGuard.viaValue)
        return response
    }
}

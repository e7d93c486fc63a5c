import Hummingbird

/// What a request came to, as the client sees it: the status answered (a thrown error's own
/// status, else 500, because the error middleware further out answers it so) and how long the
/// rest of the chain took. Metrics and the request log both observe it.
struct RequestOutcome {
    var status: Int
    var elapsed: Duration

    /// Runs `next` and tells `observe` the outcome, whether it answered or threw.
    static func observing<Context: RequestContext>(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response,
        _ observe: (RequestOutcome) -> Void
    ) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            observe(RequestOutcome(status: Int(response.status.code), elapsed: ContinuousClock.now - started))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            observe(RequestOutcome(status: Int(status), elapsed: ContinuousClock.now - started))
            throw error
        }
    }
}

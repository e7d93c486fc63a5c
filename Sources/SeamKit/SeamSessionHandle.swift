import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One running Seam session on the device: keeps it alive (`POST .../keepalive` every
/// `keepAliveInterval` seconds), reads its tracking JSON, and deletes it on `shutdown()`. An
/// actor because the keep-alive loop and the app call it at once.
public actor SeamSessionHandle {
    public nonisolated let sessionID: String
    public nonisolated let trackingURL: URL
    /// Seconds between keep-alives (5–10).
    public nonisolated let keepAliveInterval: Double
    /// `.alive` after each keep-alive, then one `.expired` or `.ended`, then the stream finishes.
    /// One consumer: `SeamPlayback` reads it (and reports expiry as `AdEvent.sessionExpired`), so
    /// an app using `SeamPlayback` listens there instead.
    public nonisolated let statuses: AsyncStream<SessionStatus>

    /// When the session expires unless kept alive, as Seam last said.
    public private(set) var expiresAt: Date

    private let continuation: AsyncStream<SessionStatus>.Continuation
    private let http: SeamHTTP
    private let sessionURL: URL
    private let time: KeepAliveTime
    private var loop: Task<Void, Never>?
    private var finished = false

    init(
        sessionID: String, trackingURL: URL, seamBaseURL: URL, expiresAt: Date, keepAliveInterval: Double,
        http: SeamHTTP,
        time: KeepAliveTime
    ) {
        self.sessionID = sessionID
        self.trackingURL = trackingURL
        self.keepAliveInterval = keepAliveInterval
        self.expiresAt = expiresAt
        self.http = http
        self.time = time
        sessionURL = seamBaseURL.appendingPathComponent("v1").appendingPathComponent("sessions").appendingPathComponent(
            sessionID)
        (statuses, continuation) = AsyncStream.makeStream(of: SessionStatus.self, bufferingPolicy: .unbounded)
    }

    /// Starts the keep-alive loop (once).
    func startKeepAlive() {
        guard loop == nil, !finished else { return }
        let interval = keepAliveInterval
        let clock = time.clock
        loop = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: .seconds(interval))
                } catch {
                    return
                }
                guard let self, await self.keepAliveTurn() else { return }
            }
        }
    }

    /// One turn of the loop: false once the session is over. Seam saying the session is gone
    /// (`410`, `404`) ends it at once. No answer or a server error is tried again — after 1 s,
    /// 2 s, 4 s... up to the keep-alive interval — for as long as the session lives by Seam's
    /// last word (`expiresAt`): one lost request, or a minute in a tunnel shorter than the
    /// session's time to live, must not cost the viewer their session.
    private func keepAliveTurn() async -> Bool {
        var delay = 1.0
        while !finished {
            do {
                _ = try await keepAlive()
                return true
            } catch {
                guard !finished else { return false }
                if case .sessionExpired(let status, _, _) = error, status == 410 || status == 404 {
                    finish(.expired(error))
                    return false
                }
                guard time.date().addingTimeInterval(delay) < expiresAt else {
                    finish(.expired(error))
                    // Seam may still hold it (it was unreachable, not gone): free it if it can hear.
                    let http = http
                    let sessionURL = sessionURL
                    Task { _ = try? await http.send("DELETE", sessionURL) }
                    return false
                }
                do {
                    try await time.clock.sleep(for: .seconds(delay))
                } catch {
                    return false
                }
                delay = min(delay * 2, keepAliveInterval)
            }
        }
        return false
    }

    /// Sends one keep-alive now and returns the new expiry (also reported as `.alive`). Throws
    /// `sessionExpired` with the status (nil for no answer); the loop ends the session at once
    /// on `410`/`404` and tries again on anything else until the session's expiry has passed.
    @discardableResult
    public func keepAlive() async throws(SeamKitError) -> Date {
        let answer: SeamHTTP.Answer
        do {
            answer = try await http.send("POST", sessionURL.appendingPathComponent("keepalive"))
        } catch {
            throw .sessionExpired(
                status: nil, code: nil, message: "keep-alive got no answer: \(error.localizedDescription)")
        }
        guard answer.status == 200 else {
            let detail = answer.error
            throw .sessionExpired(
                status: answer.status, code: detail?.code,
                message: detail?.message ?? "keep-alive answered \(answer.status)")
        }
        guard let kept = try? JSONDecoder().decode(KeepAlive.self, from: answer.body),
            let expiry = SeamHTTP.date(kept.expiresAt)
        else {
            throw .sessionExpired(
                status: answer.status, code: nil, message: "keep-alive answer is not Seam's KeepAlive JSON")
        }
        expiresAt = expiry
        if !finished { continuation.yield(.alive(expiresAt: expiry)) }
        return expiry
    }

    /// The session's tracking JSON: its avails, ads, beacons and cue points.
    public func tracking() async throws(SeamKitError) -> TrackingDocument {
        let answer: SeamHTTP.Answer
        do {
            answer = try await http.send("GET", trackingURL)
        } catch {
            throw .requestFailed(
                status: nil, code: nil, message: "tracking got no answer: \(error.localizedDescription)")
        }
        guard answer.status == 200 else {
            let detail = answer.error
            let message = detail?.message ?? "tracking answered \(answer.status)"
            if answer.status == 410 { throw .sessionExpired(status: 410, code: detail?.code, message: message) }
            throw .requestFailed(status: answer.status, code: detail?.code, message: message)
        }
        do {
            return try JSONDecoder().decode(TrackingDocument.self, from: answer.body)
        } catch {
            throw .requestFailed(
                status: answer.status, code: nil, message: "tracking is not Seam's tracking JSON: \(error)")
        }
    }

    /// Stops the keep-alives and deletes the session (`DELETE /v1/sessions/{id}`), so Seam frees
    /// it now rather than at expiry. Best effort: a session already gone is fine. Reports `.ended`.
    public func shutdown() async {
        guard !finished else { return }
        finish(.ended)
        _ = try? await http.send("DELETE", sessionURL)
    }

    private func finish(_ status: SessionStatus) {
        finished = true
        loop?.cancel()
        loop = nil
        continuation.yield(status)
        continuation.finish()
    }

    deinit {
        loop?.cancel()
        continuation.finish()
    }
}

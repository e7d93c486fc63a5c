import Foundation
import Hummingbird
import Stitching

/// The break API: `POST /v1/admin/breaks` announces a break on a live channel, `GET` lists the
/// breaks announced, `DELETE /v1/admin/breaks/{breakId}` cancels one. Registered only when
/// `live.breaksToken` is set (otherwise `404` like any unknown path); each request needs
/// `Authorization: Bearer <live.breaksToken>`.
struct BreakAnnouncementRoutes: Sendable {
    let announcements: BreakAnnouncements
    let token: String
    /// The store the replicas share (PostgreSQL), where each announcement is written so every
    /// replica's sessions get it; nil: this replica only.
    let shared: (any BreakAnnouncementSharing)?
    let clock: @Sendable () -> Date

    func add(to router: some RouterMethods<SeamRequestContext>) {
        let bearer = BearerToken(token: token, setting: "live.breaksToken")
        router.post("/v1/admin/breaks") { request, context in
            if let refusal = bearer.refusal(request) { return refusal }
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            let body = try Self.decode(Data(buffer: buffer))
            let announcement = try await announce(body)
            return try SessionRoutes.json(Self.wire(announcement), status: .created)
        }
        router.get("/v1/admin/breaks") { request, _ in
            if let refusal = bearer.refusal(request) { return refusal }
            return try SessionRoutes.json(
                BreakAnnouncementList(breaks: announcements.all().map(Self.wire)), status: .ok)
        }
        router.delete("/v1/admin/breaks/:breakId") { request, context in
            if let refusal = bearer.refusal(request) { return refusal }
            guard let id = context.parameters.get("breakId"), try await cancel(id) else {
                return JSONResponses.error(
                    code: "NOT_FOUND", message: "no break announced with that id; GET /v1/admin/breaks lists them",
                    status: .notFound)
            }
            return Response(status: .noContent)
        }
    }

    /// Cancels break `id`, in the shared store first; false when no one knew it.
    func cancel(_ id: String) async throws(SeamError) -> Bool {
        var known = false
        if let shared {
            do {
                known = try await shared.deleteAnnouncement(id)
            } catch {
                throw SeamError(.storeUnavailable, "\(error); the break is not cancelled, try again shortly")
            }
        }
        return announcements.cancel(id) != nil || known
    }

    /// The announcement `body` asks for, added (written to the shared store first, when there is
    /// one); refused with what to change.
    func announce(_ body: BreakAnnouncementBody) async throws(SeamError) -> BreakAnnouncements.Announcement {
        guard UpstreamURL.hasHTTPScheme(body.channelUrl) else {
            throw SeamError(
                .invalidRequest, "channelUrl must be the channel's http(s) playlist URL (or a prefix of it)")
        }
        let now = clock()
        let start: Date
        switch (body.start, body.startInSeconds) {
        case (let text?, nil):
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw SeamError(
                    .invalidRequest, "start must be an ISO 8601 date like 2026-11-29T20:00:00Z (or use startInSeconds)")
            }
            start = date
        case (nil, let seconds?):
            guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw SeamError(.invalidRequest, "startInSeconds must be 0 to 86400")
            }
            start = now.addingTimeInterval(seconds)
        case (nil, nil):
            throw SeamError(.invalidRequest, "give the break's start: start (an ISO 8601 date) or startInSeconds")
        case (.some, .some):
            throw SeamError(.invalidRequest, "give start or startInSeconds, not both")
        }
        guard body.durationSeconds.isFinite, body.durationSeconds >= 2, body.durationSeconds <= 3600 else {
            throw SeamError(.invalidRequest, "durationSeconds must be 2 to 3600")
        }
        guard start.addingTimeInterval(body.durationSeconds) > now else {
            throw SeamError(.invalidRequest, "the break would already be over: give a start that is not in the past")
        }
        let announcement = BreakAnnouncements.Announcement(
            id: Self.newID(), channelPrefix: body.channelUrl, start: start, durationSeconds: body.durationSeconds,
            adParameters: body.adParams ?? [:])
        guard announcements.all().count < BreakAnnouncements.capacity else {
            throw SeamError(
                .rateLimited,
                "\(BreakAnnouncements.capacity) breaks are announced already; cancel some (DELETE /v1/admin/breaks/{breakId})"
            )
        }
        if let shared {
            do {
                try await shared.saveAnnouncement(announcement)
            } catch {
                throw SeamError(.storeUnavailable, "\(error); the break is not announced, try again shortly")
            }
        }
        _ = announcements.announce(announcement, now: now)
        return announcement
    }

    static func newID() -> String {
        (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func wire(_ announcement: BreakAnnouncements.Announcement) -> BreakAnnouncement {
        BreakAnnouncement(
            breakId: announcement.id, channelUrl: announcement.channelPrefix,
            start: announcement.start.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            durationSeconds: announcement.durationSeconds, adParams: announcement.adParameters)
    }

    static let fields = ["channelUrl", "start", "startInSeconds", "durationSeconds", "adParams"]

    /// The body, strictly: an unknown field is refused, naming it, with the closest known one.
    static func decode(_ data: Data) throws(SeamError) -> BreakAnnouncementBody {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SeamError(.invalidRequest, BodyDecodingWords.notJSON)
        }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            let suggestion = Suggestion.closest(to: unknown, in: fields).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw SeamError(
                .invalidRequest,
                "the break has no field \"\(unknown)\"\(suggestion); its fields are \(fields.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
        do {
            return try JSONDecoder().decode(BreakAnnouncementBody.self, from: data)
        } catch let error as DecodingError {
            throw SeamError(.invalidRequest, BodyDecodingWords.describe(error))
        } catch {
            throw SeamError(.invalidRequest, BodyDecodingWords.notJSON)
        }
    }
}

import HTTPTypes
import Hummingbird

/// The check of an operator route's bearer token (`Authorization: Bearer <token>`), compared in
/// constant time so the answer's timing says nothing about how much of a guess was right.
struct BearerToken: Sendable {
    /// The configured token; empty: no token is asked for.
    var token: String
    /// The setting that holds it, named in the refusal (`debug.token`).
    var setting: String

    /// Refuses a request without the token (`401 UNAUTHORIZED`, `WWW-Authenticate: Bearer`).
    func authorize(_ request: Request) throws(SeamError) {
        guard !token.isEmpty else { return }
        let given =
            request.headers[.authorization].flatMap { value -> Substring? in
                value.lowercased().hasPrefix("bearer ") ? value.dropFirst("bearer ".count) : nil
            } ?? ""
        var difference = UInt8(truncatingIfNeeded: given.utf8.count ^ token.utf8.count)
        for (a, b) in zip(given.utf8, token.utf8) { difference |= a ^ b }
        guard difference == 0, given.utf8.count == token.utf8.count else {
            throw SeamError(.unauthorized, "this route needs Authorization: Bearer <\(setting)>")
        }
    }

    /// The `401` answer for a request without the token, with the challenge; nil when it has it.
    func refusal(_ request: Request) -> Response? {
        do throws(SeamError) {
            try authorize(request)
            return nil
        } catch {
            var response = JSONResponses.error(error)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
    }
}

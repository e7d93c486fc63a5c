import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The few HTTP exchanges SeamKit makes, over the app's `URLSession`: one request, its status and
/// body, Seam's error body read when there is one.
struct SeamHTTP: Sendable {
    let urlSession: URLSession

    struct Answer: Sendable {
        var status: Int
        var body: Data

        /// Seam's `{"error": {...}}`, when the body is one.
        var error: APIErrorBody.Detail? {
            (try? JSONDecoder().decode(APIErrorBody.self, from: body))?.error
        }
    }

    /// Sends one request. Throws only when no answer came (connection refused, time-out, ...).
    func send(_ method: String, _ url: URL, json: Data? = nil) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = json
        }
        let (data, response) = try await urlSession.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return Answer(status: http.statusCode, body: data)
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// An ISO 8601 date as Seam writes them (`2026-11-25T00:13:26Z`).
    static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }

    /// An absolute http(s) URL, or nil.
    static func playbackURL(_ text: String) -> URL? {
        guard let url = URL(string: text) else { return nil }
        return isPlayable(url) ? url : nil
    }

    static func isPlayable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host, !host.isEmpty
        else { return false }
        return true
    }
}

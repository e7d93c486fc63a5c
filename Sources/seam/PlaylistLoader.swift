import AsyncHTTPClient
import Foundation
import HLS
import NIOCore
import NIOHTTP1

/// Reads playlists from files or http(s) URLs for the command-line tools.
struct PlaylistLoader {
    let client: HTTPClient
    let timeout: TimeAmount
    let maximumBytes: Int

    struct LoadError: Error, CustomStringConvertible {
        let location: String
        let reason: String
        var description: String { reason }
    }

    static func isURL(_ location: String) -> Bool {
        // Schemes are case-insensitive: HTTPS://... is a URL too.
        let scheme = location.prefix(8).lowercased()
        return scheme.hasPrefix("http://") || scheme.hasPrefix("https://")
    }

    /// Resolves a reference found in the playlist at `base`, for files and URLs alike.
    static func resolve(_ reference: String, against base: String) -> String {
        if isURL(base) || URIReference.isAbsolute(reference) {
            return URIReference.resolve(reference, against: base)
        }
        if reference.hasPrefix("/") { return reference }
        let directory = (base as NSString).deletingLastPathComponent
        return ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent(reference)
    }

    func load(_ location: String) async throws -> String {
        if Self.isURL(location) {
            var request = HTTPClientRequest(url: location)
            request.headers.add(name: "User-Agent", value: "seam-validate")
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: timeout)
            } catch {
                throw LoadError(location: location, reason: "request failed: \(error)")
            }
            guard (200..<300).contains(response.status.code) else {
                throw LoadError(
                    location: location, reason: "HTTP \(response.status.code) \(response.status.reasonPhrase)")
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: maximumBytes)
            } catch {
                throw LoadError(
                    location: location, reason: "body larger than \(maximumBytes) bytes or unreadable: \(error)")
            }
            return String(buffer: body)
        }
        guard let data = FileManager.default.contents(atPath: location) else {
            throw LoadError(location: location, reason: "no such file or not readable")
        }
        guard data.count <= maximumBytes else {
            throw LoadError(location: location, reason: "file larger than \(maximumBytes) bytes")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import SeamServer
import Hummingbird

/// Answers GET and HEAD for files of a ``DemoFileStore``: content type, `Content-Length`,
/// byte ranges (206/416), `ETag`/`If-None-Match`, and JSON errors for bad or missing paths.
///
/// Both demo servers mount one of these under `/media/`, and the web page routes reuse it, so the
/// traversal rules live in one place (``DemoFilePath`` and ``DemoFileStore``).
package struct DemoFileResponder: Sendable {
    package let store: DemoFileStore
    /// `Cache-Control` for playlists; VOD playlists never change, but the demo is restarted with
    /// new samples now and then, and a browser holding an old playlist is confusing.
    package var playlistCacheControl = "no-cache"
    /// `Cache-Control` for everything else (segments, keys, pages' assets).
    package var otherCacheControl = "public, max-age=300"

    private let fileIO = FileIO()

    package init(store: DemoFileStore) {
        self.store = store
    }

    /// Serves the file named by `encodedSubpath`, the percent-encoded request path after the mount
    /// prefix (for `/media/content/master.m3u8`, `content/master.m3u8`).
    package func respond(
        to request: Request, encodedSubpath: Substring, context: some RequestContext
    ) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = DemoResponses.jsonError(
                .methodNotAllowed, code: "METHOD_NOT_ALLOWED",
                message: "the demo origin is read-only: use GET or HEAD")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        guard let path = DemoFilePath(urlEncoded: encodedSubpath) else {
            return DemoResponses.jsonError(
                .badRequest, code: "INVALID_PATH",
                message: "the path must name a file inside the served folder (no '..', '.', empty or hidden segments)")
        }
        let file: DemoFileStore.File
        do {
            file = try await store.file(at: path)
        } catch {
            return DemoResponses.notFound(String(request.uri.path))
        }

        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = file.eTag
        headers[.lastModified] = file.modified.httpDate
        headers[.cacheControl] = path.fileExtension == "m3u8" ? playlistCacheControl : otherCacheControl

        if let ifNoneMatch = request.headers[.ifNoneMatch],
            ifNoneMatch.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == file.eTag || $0 == "*"
            })
        {
            return Response(status: .notModified, headers: headers)
        }

        var range = DemoByteRange(header: request.headers[.range], size: file.size)
        // If-Range: a range only applies to the version of the file the client already has.
        if let ifRange = request.headers[.ifRange], ifRange != file.eTag, ifRange != headers[.lastModified] {
            range = .whole
        }

        let bytes: ClosedRange<Int>?
        let status: HTTPResponse.Status
        switch range {
        case .whole:
            bytes = file.size > 0 ? 0...(file.size - 1) : nil
            status = .ok
        case .partial(let requested):
            bytes = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(requested.lowerBound)-\(requested.upperBound)/\(file.size)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(file.size)"
            var response = DemoResponses.jsonError(
                .rangeNotSatisfiable, code: "RANGE_NOT_SATISFIABLE",
                message: "the file has \(file.size) bytes")
            for field in headers where field.name != .contentType { response.headers.append(field) }
            return response
        }
        headers[.contentLength] = String(bytes.map(\.count) ?? 0)

        guard request.method == .get, let bytes else {
            return Response(status: status, headers: headers, body: .init())
        }
        if let contents = file.contents,
            let slice = contents.getSlice(at: contents.readerIndex + bytes.lowerBound, length: bytes.count)
        {
            return Response(status: status, headers: headers, body: .init(byteBuffer: slice))
        }
        let body = try await fileIO.loadFile(path: file.absolutePath, range: bytes, context: context)
        return Response(status: status, headers: headers, body: body)
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// Compresses text responses with gzip (zlib fitted to the body, `GzipEncoding`) when the client accepts it.
///
/// Playlists are highly repetitive text; gzip typically shrinks a media playlist to a fifth,
/// which matters for live players that refetch every few seconds. A response is compressed when:
/// the request's `Accept-Encoding` lists `gzip` (or `*`) with a non-zero q-value, the body's
/// length is known and at least `minimumBytes` (below ~1 KiB the gzip framing eats the gain), the
/// content type is text-like (HLS playlists, JSON, `text/*`), and it is not already encoded.
///
/// `Vary: Accept-Encoding` goes on every response that *could* be compressed, compressed or not,
/// so a cache in front of Seam does not serve gzip to a client that did not ask for it.
/// Streaming bodies of unknown length are passed through unchanged.
package struct GzipMiddleware<Context: RequestContext>: RouterMiddleware {
    package let minimumBytes: Int

    package init(minimumBytes: Int = Self.defaultMinimumBytes) { self.minimumBytes = minimumBytes }

    /// Below this a body is not compressed: the gzip framing eats the gain.
    package static var defaultMinimumBytes: Int { 1024 }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength, length >= minimumBytes,
            Self.isCompressible(contentType: response.headers[.contentType]),
            response.status != .noContent, response.status != .notModified
        else { return response }
        Self.addVary(to: &response.headers)
        guard request.method != .head, Self.acceptsGzip(request.headers[values: .acceptEncoding]) else {
            return response
        }

        let collector = BodyCollector()
        try await response.body.write(CollectingWriter(collector: collector))
        let compressed = try GzipEncoding.compress(collector.buffer)
        response.body = ResponseBody(byteBuffer: compressed)
        response.headers[.contentEncoding] = "gzip"
        // The compressed bytes are a different representation: a strong ETag must not claim otherwise.
        if let etag = response.headers[.eTag], !etag.hasPrefix("W/") { response.headers[.eTag] = "W/" + etag }
        return response
    }

    static func isCompressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = ConfigurationKey.trim(String(contentType.split(separator: ";", maxSplits: 1).first ?? ""))
            .lowercased()
        return mediaType.hasPrefix("text/") || GzipContentTypes.compressible.contains(mediaType)
            || mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml")
    }

    /// `acceptsGzip(_:)` for one `Accept-Encoding` field: one without parameters is read without
    /// allocating.
    static func acceptsGzip(_ value: String) -> Bool {
        listsGzipWithoutParameters(value) ?? acceptsGzip([value])
    }

    /// Whether `Accept-Encoding` values allow gzip: `gzip` or `*` listed, without `q=0`. Read as
    /// bytes: every playlist request of every player asks it.
    static func acceptsGzip(_ values: [String]) -> Bool {
        if values.count == 1, let listed = listsGzipWithoutParameters(values[0]) { return listed }
        var gzip: Double?
        var any: Double?
        for value in values {
            for item in value.utf8.split(separator: UInt8(ascii: ",")) {
                var parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[...]
                guard let first = parts.popFirst() else { continue }
                let coding = trimmed(first)
                var quality = 1.0
                for parameter in parts {
                    let text = trimmed(parameter)
                    guard text.count >= 2, text.first.map({ $0 | 0x20 }) == UInt8(ascii: "q"),
                        text[text.index(after: text.startIndex)] == UInt8(ascii: "=")
                    else { continue }
                    quality = Double(String(decoding: text.dropFirst(2), as: UTF8.self)) ?? 0
                }
                if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") { gzip = quality }
                if coding.elementsEqual("*".utf8) { any = quality }
            }
        }
        if let gzip { return gzip > 0 }
        if let any { return any > 0 }
        return false
    }

    /// The common case, read without allocating: one value without parameters (`gzip, deflate,
    /// br`) accepts gzip when it lists `gzip`, `x-gzip` or `*`; nil when it has parameters.
    private static func listsGzipWithoutParameters(_ value: String) -> Bool? {
        let bytes = value.utf8
        if bytes.contains(UInt8(ascii: ";")) { return nil }
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ",") {
                if namesGzipOrAny(trimmed(bytes[start..<index])) { return true }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        return namesGzipOrAny(trimmed(bytes[start..<index]))
    }

    private static func namesGzipOrAny(_ coding: Substring.UTF8View) -> Bool {
        equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") || coding.elementsEqual("*".utf8)
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            bytes = bytes.dropFirst()
        }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes = bytes.dropLast()
        }
        return bytes
    }

    /// `bytes` spell `lowercase` (ASCII letters in any case).
    private static func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, letter in
                byte == letter || (byte | 0x20 == letter && letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
            }
        }
    }

    static func addVary(to headers: inout HTTPFields) {
        let existing = headers[values: .vary]
        let listed = existing.flatMap { $0.split(separator: ",") }.map {
            ConfigurationKey.trim(String($0)).lowercased()
        }
        if !listed.contains("accept-encoding") && !listed.contains("*") {
            headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
    }
}

enum GzipContentTypes {
    static let compressible: Set<String> = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
        "application/json", "application/xml",
    ]
}

/// Receives a response body in memory, for compressing it as a whole.
final class BodyCollector: @unchecked Sendable {
    // Used by one task at a time: the middleware writes the body, then reads the result.
    var buffer = ByteBuffer()
}

struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws {
        var part = buffer
        collector.buffer.writeBuffer(&part)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

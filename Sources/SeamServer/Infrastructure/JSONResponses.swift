import Foundation
import Hummingbird

/// Builds the JSON responses the infrastructure answers with. Seam's error shape is
/// `{"error": {"code": "...", "message": "..."}}` (see `SeamError`); health answers are
/// `{"status": "..."}`.
package enum JSONResponses {
    package static func json(_ bytes: [UInt8], status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The response for a `SeamError`: its status and JSON body.
    package static func error(_ error: SeamError) -> Response {
        var headers: HTTPFields = [:]
        if error.code == .rateLimited { headers[.retryAfter] = "1" }
        return json(error.jsonBody, status: error.code.status, headers: headers)
    }

    /// The same JSON shape with a code that `SeamError.Code` does not have (`NOT_FOUND`, ...).
    package static func error(code: String, message: String, status: HTTPResponse.Status) -> Response {
        json(errorBody(code: code, message: message), status: status)
    }

    /// The body as SeamWire's `APIErrorBody`, the type SeamKit decodes.
    static func errorBody(code: String, message: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(APIErrorBody(code: code, message: message))) ?? Data())
    }
}

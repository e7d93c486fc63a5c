import SeamServer
import Foundation
import Hummingbird

/// Small response builders shared by the demo servers, so every error looks like Seam's own
/// (`{"error": {"code": ..., "message": ...}}`) and every JSON body is encoded the same way.
enum DemoResponses {
    static func jsonError(_ status: HTTPResponse.Status, code: String, message: String) -> Response {
        struct Body: Encodable {
            struct Inner: Encodable {
                let code: String
                let message: String
            }
            let error: Inner
        }
        return json(Body(error: .init(code: code, message: message)), status: status)
    }

    static func notFound(_ what: String) -> Response {
        jsonError(.notFound, code: "NOT_FOUND", message: "\(what) does not exist on this demo server")
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return bytes(ByteBuffer(bytes: data), contentType: "application/json; charset=utf-8", status: status)
    }

    static func bytes(
        _ buffer: ByteBuffer, contentType: String, status: HTTPResponse.Status = .ok,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.contentLength] = String(buffer.readableBytes)
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    static func text(_ string: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        bytes(ByteBuffer(string: string), contentType: contentType, status: status)
    }
}

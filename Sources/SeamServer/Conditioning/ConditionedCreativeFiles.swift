import Foundation
import Hummingbird

/// Serves conditioned creatives from the conditioning directory: `GET /v1/conditioned/<name>/
/// master.m3u8` and `/v1/conditioned/<name>/<v|a><n>/<file>`. Only the names conditioning writes
/// are answered (a creative's name, a rendition directory, `index.m3u8`, `init.mp4`,
/// `segment<n>.ts|m4s`), so no request reaches another file or a job still being written.
/// Cacheable for a day: a conditioned creative never changes under its name.
struct ConditionedCreativeFiles: Sendable {
    let directory: String

    func addRoutes(to router: some RouterMethods<SeamRequestContext>) {
        router.get("/v1/conditioned/:name/master.m3u8") { _, context in
            try await serve(
                name: context.parameters.get("name") ?? "", rendition: nil, file: "master.m3u8", context: context)
        }
        router.get("/v1/conditioned/:name/:rendition/:file") { _, context in
            try await serve(
                name: context.parameters.get("name") ?? "", rendition: context.parameters.get("rendition"),
                file: context.parameters.get("file") ?? "", context: context)
        }
    }

    private func serve(
        name: String, rendition: String?, file: String, context: SeamRequestContext
    ) async throws -> Response {
        guard Self.isName(name), rendition.map(Self.isRendition) ?? true, let type = Self.contentType(file) else {
            throw HTTPError(.notFound, message: "no such conditioned creative file")
        }
        let path = directory + "/" + name + (rendition.map { "/" + $0 } ?? "") + "/" + file
        guard FileManager.default.fileExists(atPath: path) else {
            throw HTTPError(.notFound, message: "no such conditioned creative file")
        }
        let body = try await FileIO().loadFile(path: path, context: context)
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=86400"], body: body)
    }

    /// `c` + 16 hex digits + `-` + 16 hex digits (`CreativeConditioner.name`).
    static func isName(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 34, scalars[0] == "c", scalars[17] == "-" else { return false }
        return scalars.enumerated().allSatisfy { index, scalar in
            index == 0 || index == 17 || ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
        }
    }

    /// `v<n>` or `a<n>`.
    static func isRendition(_ text: String) -> Bool {
        guard let first = text.first, first == "v" || first == "a", text.count >= 2, text.count <= 4 else {
            return false
        }
        return text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The content type of a file conditioning writes; nil for any other name.
    static func contentType(_ file: String) -> String? {
        if file == "master.m3u8" || file == "index.m3u8" { return "application/vnd.apple.mpegurl" }
        if file == "init.mp4" { return "video/mp4" }
        guard file.hasPrefix("segment") else { return nil }
        let rest = file.dropFirst("segment".count)
        let (digits, ext) = (rest.prefix { $0.isASCII && $0.isNumber }, rest.drop { $0.isASCII && $0.isNumber })
        guard (3...6).contains(digits.count) else { return nil }
        switch ext {
        case ".ts": return "video/mp2t"
        case ".m4s": return "video/iso.segment"
        default: return nil
        }
    }
}

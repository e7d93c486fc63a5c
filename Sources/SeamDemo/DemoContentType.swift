/// The `Content-Type` the demo servers send for a file, by extension.
///
/// Players are strict about playlist and segment types (Safari refuses an `.m3u8` served as
/// `text/plain`), so the HLS, fMP4 and WebVTT types are spelled out instead of relying on a
/// general-purpose table.
package enum DemoContentType {
    /// The media type for a lowercased file extension without the dot.
    package static func forExtension(_ fileExtension: String) -> String {
        switch fileExtension {
        case "m3u8", "m3u": return "application/vnd.apple.mpegurl"
        case "ts": return "video/mp2t"
        case "mp4", "m4s", "m4v", "cmfv": return "video/mp4"
        case "m4a", "cmfa": return "audio/mp4"
        case "aac": return "audio/aac"
        case "vtt", "webvtt": return "text/vtt; charset=utf-8"
        case "mpd": return "application/dash+xml"
        case "xml": return "application/xml; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "ico": return "image/x-icon"
        default: return "application/octet-stream"
        }
    }
}

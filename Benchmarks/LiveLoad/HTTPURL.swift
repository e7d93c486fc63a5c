import Foundation

/// A plain-HTTP URL split into what the client needs: host, port and the request target.
struct HTTPURL: Hashable, CustomStringConvertible {
    var host: String
    var port: Int
    /// Path and query, starting with "/".
    var target: String

    var authority: String { port == 80 ? host : "\(host):\(port)" }
    var description: String { "http://\(authority)\(target)" }

    init(host: String, port: Int, target: String) {
        self.host = host
        self.port = port
        self.target = target
    }

    /// Parses `http://host[:port][/path][?query]` (IPv6 literals in brackets). No https: the
    /// benchmark runs on loopback.
    init?(_ string: String) {
        guard string.lowercased().hasPrefix("http://") else { return nil }
        let rest = string.dropFirst("http://".count)
        let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<slash]
        var target = String(rest[slash...])
        if target.isEmpty { target = "/" } else if target.first == "?" { target = "/" + target }
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        var host = Substring(authority)
        var port = 80
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if after.first == ":" { guard let p = Int(after.dropFirst()) else { return nil }; port = p }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]) else { return nil }
            port = p
            host = host[..<colon]
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port, target: target)
    }

    /// Resolves a URI reference found in a playlist fetched from `self` (RFC 3986, the cases
    /// playlists use: absolute, scheme-relative, absolute path, relative path with dot segments).
    func resolve(_ reference: String) -> HTTPURL? {
        if reference.lowercased().hasPrefix("http://") { return HTTPURL(reference) }
        if reference.hasPrefix("//") { return HTTPURL("http:" + reference) }
        var ref = reference
        if let hash = ref.firstIndex(of: "#") { ref = String(ref[..<hash]) }
        if ref.hasPrefix("/") { return HTTPURL(host: host, port: port, target: Self.removeDots(ref)) }
        let basePath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if ref.isEmpty { return self }
        if ref.hasPrefix("?") { return HTTPURL(host: host, port: port, target: String(basePath) + ref) }
        let directory = basePath[...(basePath.lastIndex(of: "/") ?? basePath.startIndex)]
        return HTTPURL(host: host, port: port, target: Self.removeDots(String(directory) + ref))
    }

    private static func removeDots(_ target: String) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var output: [Substring] = []
        let segments = parts[0].split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            if segment == "." { if i == segments.count - 1 { output.append("") }; continue }
            if segment == ".." {
                if output.count > 1 { output.removeLast() }
                if i == segments.count - 1 { output.append("") }
                continue
            }
            output.append(segment)
        }
        var path = output.joined(separator: "/")
        if !path.hasPrefix("/") { path = "/" + path }
        return parts.count > 1 ? path + "?" + parts[1] : path
    }
}

/// The first media playlist a multivariant playlist names: the URI after the first
/// `EXT-X-STREAM-INF`, else the first `EXT-X-MEDIA` URI. A media playlist (it has `EXTINF`) names
/// itself (returns "").
func firstMediaPlaylistURI(in playlist: String) -> String? {
    // A DASH session's MPD is what its player reloads.
    if playlist.contains("<MPD") { return "" }
    var expectURI = false
    var mediaURI: String?
    for rawLine in playlist.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
        let line = rawLine.trimmingSpaces()
        if line.isEmpty { continue }
        if line.hasPrefix("#EXTINF") { return "" }
        if line.hasPrefix("#EXT-X-STREAM-INF") { expectURI = true; continue }
        if line.hasPrefix("#EXT-X-MEDIA:"), mediaURI == nil, let range = line.range(of: "URI=\"") {
            let rest = line[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { mediaURI = String(rest[..<end]) }
            continue
        }
        if line.hasPrefix("#") { continue }
        if expectURI { return String(line) }
    }
    return mediaURI
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

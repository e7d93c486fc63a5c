/// RFC 3986 reference resolution (section 5.2), so every URI in a playlist can be made
/// absolute against the playlist's own URL before Seam rewrites it.
public enum URIReference {
    /// The components of a URI reference; absent components are nil (an empty query
    /// `?` is "" and differs from no query).
    struct Components {
        var scheme: Substring?
        var authority: Substring?
        var path: Substring
        var query: Substring?
        var fragment: Substring?

        // Every delimiter is ASCII, so the scans run over UTF-8 bytes (a `Character` walk costs
        // grapheme breaking on every reload's every address) and the indices they give are
        // valid boundaries of the text.
        init(_ text: Substring) {
            var rest = text
            if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
                fragment = rest[rest.utf8.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
                query = rest[rest.utf8.index(after: question)...]
                rest = rest[..<question]
            }
            // A scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) before the first ":" that precedes any "/".
            if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")), let first = rest.utf8.first,
                Self.isLetter(first),
                rest.utf8[..<colon].allSatisfy({
                    Self.isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+")
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                })
            {
                scheme = rest[..<colon]
                rest = rest[rest.utf8.index(after: colon)...]
            }
            if rest.utf8.starts(with: "//".utf8) {
                let afterSlashes = rest.utf8.index(rest.startIndex, offsetBy: 2)
                let end = rest.utf8[afterSlashes...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
                authority = rest[afterSlashes..<end]
                rest = rest[end...]
            }
            path = rest
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }

        var text: String {
            var result = ""
            result.reserveCapacity(
                (scheme?.utf8.count ?? 0) + (authority?.utf8.count ?? 0) + path.utf8.count + (query?.utf8.count ?? 0)
                    + (fragment?.utf8.count ?? 0) + 5)
            if let scheme {
                result += scheme
                result += ":"
            }
            if let authority {
                result += "//"
                result += authority
            }
            result += path
            if let query {
                result += "?"
                result += query
            }
            if let fragment {
                result += "#"
                result += fragment
            }
            return result
        }
    }

    /// True when the reference has a scheme (`http:`, `data:`, `skd:`...).
    public static func isAbsolute(_ reference: String) -> Bool {
        Components(Substring(reference)).scheme != nil
    }

    /// Resolves `reference` against `base` (an absolute URI). References that are
    /// already absolute come back unchanged except for dot-segment removal.
    public static func resolve(_ reference: String, against base: String) -> String {
        let r = Components(Substring(reference))
        if r.scheme != nil && r.authority == nil && r.path.isEmpty == false
            && r.path.utf8.first != UInt8(ascii: "/")
        {
            // Opaque URIs (data:, skd:, urn:) are left exactly as written.
            return reference
        }
        let b = Components(Substring(base))
        var target = Components(Substring(""))
        if r.scheme != nil {
            target.scheme = r.scheme
            target.authority = r.authority
            target.path = Substring(removeDotSegments(r.path))
            target.query = r.query
        } else {
            if r.authority != nil {
                target.authority = r.authority
                target.path = Substring(removeDotSegments(r.path))
                target.query = r.query
            } else {
                if r.path.isEmpty {
                    target.path = b.path
                    target.query = r.query ?? b.query
                } else {
                    if r.path.utf8.first == UInt8(ascii: "/") {
                        target.path = Substring(removeDotSegments(r.path))
                    } else {
                        target.path = Substring(removeDotSegments(Substring(merge(base: b, path: r.path))))
                    }
                    target.query = r.query
                }
                target.authority = b.authority
            }
            target.scheme = b.scheme
        }
        target.fragment = r.fragment
        return target.text
    }

    private static func merge(base: Components, path: Substring) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        if let slash = base.path.utf8.lastIndex(of: UInt8(ascii: "/")) {
            var merged = String(base.path[...slash])
            merged += path
            return merged
        }
        return String(path)
    }

    /// RFC 3986 section 5.2.4.
    static func removeDotSegments(_ path: Substring) -> String {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return String(path) }
        func starts(_ text: Substring, _ prefix: String) -> Bool { text.utf8.starts(with: prefix.utf8) }
        func equals(_ text: Substring, _ other: String) -> Bool { text.utf8.elementsEqual(other.utf8) }
        func dropping(_ text: Substring, _ count: Int) -> Substring {
            text[text.utf8.index(text.startIndex, offsetBy: count)...]
        }
        var input = path
        var output: [Substring] = []
        while !input.isEmpty {
            if starts(input, "../") {
                input = dropping(input, 3)
            } else if starts(input, "./") {
                input = dropping(input, 2)
            } else if starts(input, "/./") {
                input = dropping(input, 2)
            } else if equals(input, "/.") {
                input = "/"
            } else if starts(input, "/../") {
                input = dropping(input, 3)
                if !output.isEmpty { output.removeLast() }
            } else if equals(input, "/..") {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if equals(input, ".") || equals(input, "..") {
                input = ""
            } else {
                // The segment: a leading "/" and what follows up to the next one.
                let from =
                    input.utf8.first == UInt8(ascii: "/") ? input.utf8.index(after: input.startIndex) : input.startIndex
                let end = input.utf8[from...].firstIndex(of: UInt8(ascii: "/")) ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}

extension MediaPlaylist {
    /// Makes every URI-bearing tag absolute against `base` (the playlist's URL):
    /// segments, parts, keys, maps, preload hints, rendition reports.
    public mutating func resolveURIs(against base: String) {
        rewriteURIs { URIReference.resolve($0, against: base) }
    }

    /// Applies `transform` to every URI in the playlist, in order of appearance.
    public mutating func rewriteURIs(_ transform: (String) -> String) {
        func rewrite(_ segment: inout MediaSegment, hasURI: Bool) {
            for i in segment.keys.indices {
                if let uri = segment.keys[i].uri { segment.keys[i].uri = transform(uri) }
            }
            if segment.map != nil, let uri = segment.map?.uri { segment.map?.uri = transform(uri) }
            for i in segment.parts.indices { segment.parts[i].uri = transform(segment.parts[i].uri) }
            if hasURI { segment.uri = transform(segment.uri) }
        }
        for i in segments.indices { rewrite(&segments[i], hasURI: true) }
        if var tail = trailer {
            rewrite(&tail, hasURI: false)
            trailer = tail
        }
        for i in preloadHints.indices { preloadHints[i].uri = transform(preloadHints[i].uri) }
        for i in renditionReports.indices { renditionReports[i].uri = transform(renditionReports[i].uri) }
    }
}

extension MultivariantPlaylist {
    /// Makes every URI absolute against `base`: variants, renditions, I-frame variants,
    /// session data, session keys and the steering server.
    public mutating func resolveURIs(against base: String) {
        rewriteURIs { URIReference.resolve($0, against: base) }
    }

    public mutating func rewriteURIs(_ transform: (String) -> String) {
        for i in variants.indices { variants[i].uri = transform(variants[i].uri) }
        for i in renditions.indices {
            if let uri = renditions[i].uri { renditions[i].uri = transform(uri) }
        }
        for i in iFrameVariants.indices { iFrameVariants[i].uri = transform(iFrameVariants[i].uri) }
        for i in sessionData.indices {
            if let uri = sessionData[i].uri { sessionData[i].uri = transform(uri) }
        }
        for i in sessionKeys.indices {
            if let uri = sessionKeys[i].uri { sessionKeys[i].uri = transform(uri) }
        }
        if let steering = contentSteering { contentSteering?.serverURI = transform(steering.serverURI) }
    }
}

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

        init(_ text: Substring) {
            var rest = text
            if let hash = rest.firstIndex(of: "#") {
                fragment = rest[rest.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: question)...]
                rest = rest[..<question]
            }
            // A scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) before the first ":" that precedes any "/".
            if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isASCII, first.isLetter,
                rest[..<colon].allSatisfy({
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")
                })
            {
                scheme = rest[..<colon]
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
                let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
                authority = rest[afterSlashes..<end]
                rest = rest[end...]
            }
            path = rest
        }

        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
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
        if r.scheme != nil && r.authority == nil && r.path.isEmpty == false && !r.path.hasPrefix("/") {
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
                    if r.path.hasPrefix("/") {
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
        if let slash = base.path.lastIndex(of: "/") {
            return String(base.path[...slash]) + path
        }
        return String(path)
    }

    /// RFC 3986 section 5.2.4.
    static func removeDotSegments(_ path: Substring) -> String {
        guard path.contains(".") else { return String(path) }
        var input = path
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                var end = input.index(after: input.startIndex)
                if input.first != "/" { end = input.startIndex }
                end = input[end...].firstIndex(of: "/") ?? input.endIndex
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

extension Parsed {
    /// The playlist, unless the numbers policy refused one of its values (`PlaylistLimits`).
    public func usable() throws(PlaylistParseError) -> Value {
        if let refused = outOfRangeValue { throw .valueOutOfRange(line: refused.line ?? 1, message: refused.message) }
        return playlist
    }
}

extension MediaPlaylist {
    /// Parses leniently, discarding diagnostics: what the proxy uses on every reload. Throws for
    /// what is not a playlist, and for a number outside what a stream can carry
    /// (`PlaylistParseError.valueOutOfRange`): such a playlist is not served.
    public init(parsing text: String) throws(PlaylistParseError) {
        self = try Self.parse(text).usable()
    }

    /// Parses leniently and reports what was accepted against the specification.
    public static func parse(
        _ text: String, recordingLines: Bool = false
    ) throws(PlaylistParseError) -> Parsed<MediaPlaylist> {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PlaylistParseError) in try MediaPlaylistParser.parse(bytes, recordLines: recordingLines)
            }
        }.get()
    }

    public static func parse(
        bytes: [UInt8], recordingLines: Bool = false
    ) throws(PlaylistParseError) -> Parsed<MediaPlaylist> {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(PlaylistParseError) in try MediaPlaylistParser.parse(buffer, recordLines: recordingLines)
            }
        }.get()
    }
}

extension MultivariantPlaylist {
    /// Like `MediaPlaylist.init(parsing:)`: lenient, but refuses numbers outside `PlaylistLimits`.
    public init(parsing text: String) throws(PlaylistParseError) {
        self = try Self.parse(text).usable()
    }

    public static func parse(_ text: String) throws(PlaylistParseError) -> Parsed<MultivariantPlaylist> {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PlaylistParseError) in try MultivariantPlaylistParser.parse(bytes) }
        }.get()
    }
}

extension Playlist {
    /// Like `MediaPlaylist.init(parsing:)`: lenient, but refuses numbers outside `PlaylistLimits`.
    public init(parsing text: String) throws(PlaylistParseError) {
        self = try Self.parse(text).usable()
    }

    /// Parses either kind, deciding by the first tag that only one kind has.
    public static func parse(
        _ text: String, recordingLines: Bool = false
    ) throws(PlaylistParseError) -> Parsed<Playlist> {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PlaylistParseError) -> Parsed<Playlist> in
                if isMultivariant(bytes) {
                    let parsed = try MultivariantPlaylistParser.parse(bytes)
                    return Parsed(
                        playlist: .multivariant(parsed.playlist), diagnostics: parsed.diagnostics, lines: parsed.lines)
                }
                let parsed = try MediaPlaylistParser.parse(bytes, recordLines: recordingLines)
                return Parsed(playlist: .media(parsed.playlist), diagnostics: parsed.diagnostics, lines: parsed.lines)
            }
        }.get()
    }

    public static func parse(
        bytes: [UInt8], recordingLines: Bool = false
    ) throws(PlaylistParseError) -> Parsed<Playlist> {
        try parse(String(decoding: bytes, as: UTF8.self), recordingLines: recordingLines)
    }

    static func isMultivariant(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = LineScanner(bytes)
        while let line = scanner.next() {
            guard line.count > 4, line[0] == .hash, line.hasPrefix("#EXT") else {
                // A URI line before any decisive tag: a media playlist if an EXTINF came first,
                // which the loop would have seen; otherwise keep looking.
                continue
            }
            guard let tag = TagName.identify(TagLine(line).name) else { continue }
            if tag.isMultivariantOnly { return true }
            if tag.isMediaOnly { return false }
        }
        return false
    }
}

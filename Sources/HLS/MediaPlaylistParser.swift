/// Reads a media playlist in one pass over its bytes.
///
/// Lenient like players are: problems become diagnostics, the playlist is still built.
/// Only data that is not a playlist at all (empty, binary, no `#EXTM3U`) is thrown.
struct MediaPlaylistParser: PlaylistLineParsing {
    var playlist = MediaPlaylist()
    var diagnostics: [PlaylistDiagnostic] = []
    var lines = SourceLines()
    let recordLines: Bool

    /// True while the last element of `playlist.segments` is still being built (its URI
    /// has not been seen). Building in place avoids copying every segment once more.
    private var segmentHasTags = false
    private var finishedSegments: Int { playlist.segments.count - (segmentHasTags ? 1 : 0) }

    /// Index of the segment being built; only valid while `segmentHasTags`.
    private var last: Int { playlist.segments.count - 1 }
    private var segmentStartLine = 0
    private var extinfLine = 0
    private var seen: UInt64 = 0
    /// Lines with spaces or tabs around them, and tags with some after the colon: counted, and
    /// reported once each at the end, so a playlist padded on every line costs one finding.
    var whitespace = StrayWhitespace()

    init(recordLines: Bool) {
        self.recordLines = recordLines
        playlist.segments.reserveCapacity(16)
    }

    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, recordLines: Bool
    ) throws(PlaylistParseError) -> Parsed<MediaPlaylist> {
        var parser = MediaPlaylistParser(recordLines: recordLines)
        let lastLine = try parser.parseLines(bytes)
        parser.finish(lastLine: lastLine)
        return Parsed(playlist: parser.playlist, diagnostics: parser.diagnostics, lines: parser.lines)
    }

    private mutating func markSegmentTag(_ tag: TagName, _ number: Int) {
        if !segmentHasTags {
            segmentStartLine = number
            playlist.segments.append(MediaSegment(uri: ""))
            segmentHasTags = true
        }
        if recordLines {
            lines.segmentTags.append(.init(segment: playlist.segments.count - 1, tag: tag, line: number))
        }
    }

    private mutating func markHeaderTag(_ tag: TagName, _ number: Int) {
        if seen & tag.bit != 0 {
            warn(.duplicateTag, number, PlaylistHeader.repeated(tag, first: lines.header[tag]))
        }
        seen |= tag.bit
        if recordLines, lines.header[tag] == nil { lines.header[tag] = number }
    }

    mutating func comment(_ text: String, number: Int) {
        if playlist.segments.isEmpty && !segmentHasTags {
            playlist.headerLines.append(text)
        } else {
            if !segmentHasTags {
                segmentStartLine = number
                playlist.segments.append(MediaSegment(uri: ""))
                segmentHasTags = true
            }
            playlist.segments[last].unknownLines.append(text)
        }
    }

    private mutating func integer(_ value: UnsafeBufferPointer<UInt8>?, _ tag: TagName, _ number: Int) -> Int? {
        if let value, let v = DecimalNumber.parseInteger(value) { return v }
        // Only a well-formed integer too large for 64 bits is out of range; other text is malformed.
        if let value, let first = value.first, (first == .minus ? value.dropFirst() : value[...]).allSatisfy(\.isDigit),
            value.contains(where: \.isDigit)
        {
            outOfRange(tag, number, value.text, range: "an integer that fits in 64 bits")
            return nil
        }
        warn(.malformedTag, number, "#\(tag.rawValue) needs a decimal integer, found \"\(value?.text ?? "")\"")
        return nil
    }

    /// An integer tag value held to `accepts` (the numbers policy); nil, with the finding, outside it.
    private mutating func integer(
        _ value: UnsafeBufferPointer<UInt8>?, _ tag: TagName, _ number: Int,
        range: String, accepts: (Int) -> Bool
    ) -> Int? {
        guard let parsed = integer(value, tag, number) else { return nil }
        guard accepts(parsed) else {
            outOfRange(tag, number, value?.text ?? "", range: range)
            return nil
        }
        return parsed
    }

    private mutating func outOfRange(_ tag: TagName, _ number: Int, _ text: String, range: String) {
        let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text
        warn(
            .valueOutOfRange, number,
            "#\(tag.rawValue):\(shown) is outside what a stream can carry (\(range)); the value is ignored")
    }

    private mutating func require(_ list: AttributeList, _ names: StaticString..., tag: TagName, line: Int) {
        for name in names {
            let key = name.description
            if !list.contains(key) {
                warn(.missingAttribute, line, "#\(tag.rawValue) lacks the required attribute \(key)")
            }
        }
    }

    mutating func tag(_ tagLine: TagLine, line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard let tag = TagName.identify(tagLine.name) else {
            comment(line.text, number: number)
            return
        }
        let value = tagLine.value
        if tagLine.spaceAfterColon { whitespace.note(tag, line: number) }
        switch tag {
        case .extinf:
            markSegmentTag(.extinf, number)
            if extinfLine != 0 {
                warn(
                    .malformedTag, number,
                    "a second #EXTINF before the segment URI of the #EXTINF on line \(extinfLine)")
            }
            extinfLine = number
            guard let value else {
                warn(.malformedTag, number, "#EXTINF needs a duration")
                return
            }
            var comma = 0
            while comma < value.count, value[comma] != .comma { comma += 1 }
            var durationEnd = comma
            while durationEnd > 0, value[durationEnd - 1] == .space { durationEnd -= 1 }
            if let duration = DecimalNumber.parseDouble(value.slice(0, durationEnd)) {
                if PlaylistLimits.isDuration(duration) {
                    playlist.segments[last].duration = duration
                    if duration < 0 {
                        warn(
                            .negativeDuration, number,
                            "#EXTINF duration \(value.slice(0, durationEnd).text) is negative")
                    }
                } else {
                    outOfRange(.extinf, number, value.slice(0, durationEnd).text, range: "at most 86400 seconds")
                }
            } else {
                warn(.malformedTag, number, "#EXTINF duration \"\(value.slice(0, durationEnd).text)\" is not a number")
            }
            if comma < value.count {
                if comma + 1 < value.count { playlist.segments[last].title = value.slice(comma + 1, value.count).text }
            } else {
                warn(.malformedTag, number, "#EXTINF needs a comma after the duration")
            }
        case .byteRange:
            markSegmentTag(tag, number)
            if let text = value?.text, let range = ByteRange(text) {
                playlist.segments[last].byteRange = range
            } else if let text = value?.text, PlaylistLimits.AttributeKind.byteRange.isOutOfRange(text) {
                outOfRange(tag, number, text, range: "0 to 2^48 bytes")
            } else {
                warn(
                    .malformedTag, number, "#EXT-X-BYTERANGE needs <length>[@<offset>], found \"\(value?.text ?? "")\"")
            }
        case .discontinuity:
            markSegmentTag(tag, number)
            playlist.segments[last].discontinuity = true
        case .key:
            markSegmentTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "METHOD", tag: tag, line: number)
            let key = EncryptionKey(attributes: list)
            if key.method != .none, key.uri == nil {
                warn(.missingAttribute, number, "#EXT-X-KEY with METHOD=\(key.method) needs a URI")
            }
            playlist.segments[last].keys.append(key)
        case .map:
            markSegmentTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "URI", tag: tag, line: number)
            playlist.segments[last].map = MediaInitializationSection(attributes: list)
        case .programDateTime:
            markSegmentTag(tag, number)
            if let value, !value.isEmpty {
                playlist.segments[last].programDateTime = DateTime(text: value.text)
            } else {
                warn(.malformedTag, number, "#EXT-X-PROGRAM-DATE-TIME needs a date-time")
            }
        case .dateRange:
            markSegmentTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "ID", tag: tag, line: number)
            playlist.segments[last].dateRanges.append(DateRange(attributes: list))
        case .gap:
            markSegmentTag(tag, number)
            playlist.segments[last].gap = true
        case .bitrate:
            markSegmentTag(tag, number)
            playlist.segments[last].bitrate = integer(value, tag, number, range: "0 to 10^9 kbit/s") {
                $0 >= 0 && $0 <= PlaylistLimits.maxBandwidth / 1000
            }
        case .part:
            markSegmentTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "URI", "DURATION", tag: tag, line: number)
            playlist.segments[last].parts.append(PartialSegment(attributes: list))
        case .cueOut, .cueOutCont, .cueIn, .oatclsSCTE35, .asset, .scte35, .splicepointSCTE35, .adobeCue:
            markSegmentTag(tag, number)
            // Safe: every case of this branch has a cue kind.
            let text = value?.text
            if let text, let refused = PlaylistLimits.outOfRangeCueNumber(text) {
                warn(
                    .valueOutOfRange, number,
                    "#\(tag.rawValue): \(refused) is outside what a stream can carry (at most 86400 seconds); the value is ignored"
                )
            }
            playlist.segments[last].cues.append(CueTag(tag.cueKind ?? .cueOut, value: text))
        case .extm3u:
            warn(.headerNotFirst, number, PlaylistHeader.repeatedHeader)
        case .version:
            markHeaderTag(tag, number)
            playlist.version = integer(value, tag, number)
        case .targetDuration:
            markHeaderTag(tag, number)
            // A negative target (`-1` in radio playlists) is refused like any out-of-range value but
            // kept in the model, as players keep it, so a lenient round trip does not change it.
            let limit = Int(PlaylistLimits.maxDurationSeconds)
            let target = integer(value, tag, number, range: "0 to 86400 seconds") { $0 >= -limit && $0 <= limit }
            if let target, target < 0 { outOfRange(tag, number, value?.text ?? "", range: "0 to 86400 seconds") }
            if target == 0 {
                // 4.4.3.1: "Its value MUST be at least 1." Kept as read, like a negative one.
                warn(
                    .invalidAttributeValue, number,
                    "#EXT-X-TARGETDURATION:0: the target duration must be at least 1; set it to the longest #EXTINF rounded to the nearest second"
                )
            }
            playlist.targetDuration = target ?? 0
            playlist.hasTargetDurationTag = true
        case .mediaSequence:
            markHeaderTag(tag, number)
            if finishedSegments > 0 {
                warn(.mediaSequenceAfterSegments, number, "#EXT-X-MEDIA-SEQUENCE must appear before the first segment")
            }
            playlist.mediaSequence =
                integer(value, tag, number, range: "0 to 2^53-1", accepts: PlaylistLimits.isSequenceNumber) ?? 0
            playlist.hasMediaSequenceTag = true
        case .discontinuitySequence:
            markHeaderTag(tag, number)
            if finishedSegments > 0 {
                warn(
                    .discontinuitySequenceAfterSegments, number,
                    "#EXT-X-DISCONTINUITY-SEQUENCE must appear before the first segment")
            }
            playlist.discontinuitySequence =
                integer(value, tag, number, range: "0 to 2^53-1", accepts: PlaylistLimits.isSequenceNumber) ?? 0
            playlist.hasDiscontinuitySequenceTag = true
        case .endList:
            markHeaderTag(tag, number)
            playlist.endList = true
        case .playlistType:
            markHeaderTag(tag, number)
            switch value?.text {
            case "VOD": playlist.playlistType = .vod
            case "EVENT": playlist.playlistType = .event
            default:
                warn(
                    .invalidAttributeValue, number,
                    "#EXT-X-PLAYLIST-TYPE must be VOD or EVENT, found \"\(value?.text ?? "")\"")
            }
        case .iFramesOnly:
            markHeaderTag(tag, number)
            playlist.iFramesOnly = true
        case .independentSegments:
            markHeaderTag(tag, number)
            playlist.independentSegments = true
        case .start:
            markHeaderTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "TIME-OFFSET", tag: tag, line: number)
            playlist.start = StartPoint(attributes: list)
        case .define:
            if recordLines {
                if lines.header[tag] == nil { lines.header[tag] = number }
                lines.defines.append(number)
            }
            playlist.defines.append(VariableDefinition(attributes: attributes(value, tag, number)))
        case .partInf:
            markHeaderTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "PART-TARGET", tag: tag, line: number)
            playlist.partInformation = PartInformation(attributes: list)
        case .serverControl:
            markHeaderTag(tag, number)
            playlist.serverControl = ServerControl(attributes: attributes(value, tag, number))
        case .skip:
            markHeaderTag(tag, number)
            let list = attributes(value, tag, number)
            require(list, "SKIPPED-SEGMENTS", tag: tag, line: number)
            playlist.skip = SkipInformation(attributes: list)
        case .preloadHint:
            if recordLines {
                lines.header[tag] = lines.header[tag] ?? number
                lines.preloadHints.append(number)
            }
            let list = attributes(value, tag, number)
            require(list, "TYPE", "URI", tag: tag, line: number)
            playlist.preloadHints.append(PreloadHint(attributes: list))
        case .renditionReport:
            if recordLines {
                lines.header[tag] = lines.header[tag] ?? number
                lines.renditionReports.append(number)
            }
            let list = attributes(value, tag, number)
            require(list, "URI", tag: tag, line: number)
            playlist.renditionReports.append(RenditionReport(attributes: list))
        case .streamInf, .media, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering:
            warn(
                .mixedPlaylistKinds, number,
                "#\(tag.rawValue) belongs in a multivariant playlist, not a media playlist; kept as an unknown tag")
            comment(line.text, number: number)
        }
    }

    mutating func uri(_ text: String, number: Int) {
        if extinfLine == 0 {
            warn(.uriWithoutExtinf, number, "segment URI \(text) has no #EXTINF before it")
        }
        if segmentHasTags {
            playlist.segments[playlist.segments.count - 1].uri = text
        } else {
            segmentStartLine = number
            playlist.segments.append(MediaSegment(uri: text))
        }
        if recordLines {
            lines.segmentStart.append(segmentStartLine)
            lines.segmentURI.append(number)
        }
        segmentHasTags = false
        extinfLine = 0
    }

    mutating func finish(lastLine: Int) {
        diagnostics += whitespace.findings()
        if extinfLine != 0 {
            warn(.truncated, extinfLine, "the playlist ends after #EXTINF without a segment URI (truncated?)")
        }
        if segmentHasTags {
            playlist.trailer = playlist.segments.removeLast()
            segmentHasTags = false
        }
        if seen & TagName.targetDuration.bit == 0 {
            warn(.missingTargetDuration, 1, "a media playlist needs #EXT-X-TARGETDURATION")
        }
    }
}

/// The first-line check shared by both playlist parsers.
enum PlaylistHeader {
    /// Reads up to and including `#EXTM3U`. Blank lines and comments before it are skipped, as
    /// players skip them, and reported (`header-not-first`): the header must be the first line.
    /// A tag or any other text first means the data is no playlist.
    static func check(_ scanner: inout LineScanner) throws(PlaylistParseError) -> [PlaylistDiagnostic] {
        guard scanner.bytes.count > 0 else { throw .empty }
        var first = scanner.next()
        var strayLine = 0
        var comments = 0
        while let line = first, line.isEmpty || isComment(line) {
            if strayLine == 0 { strayLine = scanner.lineNumber }
            if !line.isEmpty { comments += 1 }
            first = scanner.next()
        }
        guard let line = first else { throw .empty }
        if scanner.sawBinary || !isText(line) { throw .binaryData(line: scanner.lineNumber) }
        guard line.hasPrefix("#EXTM3U") else { throw .missingHeader(firstLine: line.text) }
        var found: [PlaylistDiagnostic] = []
        if scanner.hasByteOrderMark {
            found.append(
                PlaylistDiagnostic(
                    .warning, .headerNotFirst, line: 1,
                    "the file starts with a byte order mark, which a playlist must not have (draft-pantos-hls-rfc8216bis 4.1); players skip it, Seam ignores it"
                ))
        }
        if strayLine != 0 {
            let what =
                comments == 0 ? "blank lines come" : comments == 1 ? "a comment comes" : "\(comments) comments come"
            found.append(
                PlaylistDiagnostic(
                    .warning, .headerNotFirst, line: strayLine,
                    "\(what) before #EXTM3U (line \(scanner.lineNumber)), which must be the first line; players skip them, Seam ignores them"
                ))
        }
        if scanner.trimmedWhitespace {
            found.append(
                PlaylistDiagnostic(
                    .warning, .strayWhitespace, line: scanner.lineNumber,
                    "spaces or tabs around #EXTM3U; it must be the line alone"))
        }
        return found
    }

    /// The finding for a tag the draft allows once per playlist, seen again.
    static func repeated(_ tag: TagName, first: Int?) -> String {
        let at = first.map { " (first on line \($0))" } ?? ""
        return
            "#\(tag.rawValue) appears more than once\(at); a playlist may carry it only once and clients must refuse it otherwise: keep one (players that read on use the last)"
    }

    /// A second `#EXTM3U`: the draft only says where the first one goes, and players skip a repeat.
    static let repeatedHeader =
        "#EXTM3U appears again; it belongs on the first line only: remove this one (players skip it)"

    /// A `#` line that is no tag.
    static func isComment(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line[0] == .hash && !line.hasPrefix("#EXT")
    }

    /// True unless the bytes hold control characters or invalid UTF-8.
    static func isText(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b < 0x20 && b != .tab { return false }
        var iterator = line.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

/// Whitespace the syntax does not have but players accept: counted while parsing (no work on a
/// clean line), reported as one warning per kind naming the first line.
struct StrayWhitespace {
    private var aroundLine = 0
    private var aroundCount = 0
    private var afterColon = 0
    private var afterColonCount = 0
    private var afterColonTag: TagName?

    mutating func note(line: Int) {
        if aroundLine == 0 { aroundLine = line }
        aroundCount += 1
    }

    mutating func note(_ tag: TagName, line: Int) {
        if afterColon == 0 {
            afterColon = line
            afterColonTag = tag
        }
        afterColonCount += 1
    }

    func findings() -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        if afterColon != 0, let tag = afterColonTag {
            out.append(
                PlaylistDiagnostic(
                    .warning, .strayWhitespace, line: afterColon,
                    "whitespace after the colon of #\(tag.rawValue); the value is read without it\(Self.more(afterColonCount))"
                ))
        }
        if aroundLine != 0 {
            out.append(
                PlaylistDiagnostic(
                    .warning, .strayWhitespace, line: aroundLine,
                    "spaces or tabs before or after the line; they are ignored\(Self.more(aroundCount))"))
        }
        return out
    }

    private static func more(_ count: Int) -> String {
        count > 1 ? " (\(count - 1) more line\(count == 2 ? "" : "s") like it)" : ""
    }
}

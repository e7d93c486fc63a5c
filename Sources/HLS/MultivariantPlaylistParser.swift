/// Reads a multivariant playlist. Unknown tags and comments travel with the element
/// that follows them.
struct MultivariantPlaylistParser: PlaylistLineParsing {
    var playlist = MultivariantPlaylist()
    var diagnostics: [PlaylistDiagnostic] = []
    var lines = SourceLines()

    private var pendingLines: [String] = []
    private var pendingVariant: VariantStream?
    private var pendingVariantLine = 0
    private var seen: UInt64 = 0
    var whitespace = StrayWhitespace()

    mutating func comment(_ text: String, number: Int) {
        pendingLines.append(text)
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> Parsed<MultivariantPlaylist> {
        var parser = MultivariantPlaylistParser()
        _ = try parser.parseLines(bytes)
        parser.finish()
        return Parsed(playlist: parser.playlist, diagnostics: parser.diagnostics, lines: parser.lines)
    }

    private mutating func header(_ tag: TagName, _ number: Int) {
        if seen & tag.bit != 0 {
            warn(.duplicateTag, number, PlaylistHeader.repeated(tag, first: lines.header[tag]))
        }
        seen |= tag.bit
        if lines.header[tag] == nil { lines.header[tag] = number }
    }

    private mutating func takePendingLines() -> [String] {
        defer { pendingLines = [] }
        return pendingLines
    }

    private mutating func closeVariantWithoutURI() {
        if pendingVariant != nil {
            warn(.variantWithoutURI, pendingVariantLine, "#EXT-X-STREAM-INF is not followed by a URI line")
            pendingVariant = nil
        }
    }

    mutating func tag(_ tagLine: TagLine, line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard let tag = TagName.identify(tagLine.name) else {
            pendingLines.append(line.text)
            return
        }
        let value = tagLine.value
        if tagLine.spaceAfterColon { whitespace.note(tag, line: number) }
        if tag != .streamInf { closeVariantWithoutURI() }
        switch tag {
        case .streamInf:
            closeVariantWithoutURI()
            var variant = VariantStream(attributes: attributes(value, tag, number, required: ["BANDWIDTH"]))
            variant.unknownLines = takePendingLines()
            pendingVariant = variant
            pendingVariantLine = number
        case .media:
            var rendition = Rendition(
                attributes: attributes(value, tag, number, required: ["TYPE", "GROUP-ID", "NAME"]))
            rendition.unknownLines = takePendingLines()
            if rendition.type == nil, let type = rendition.attributes.enumerated("TYPE") {
                warn(
                    .invalidAttributeValue, number,
                    "#EXT-X-MEDIA TYPE=\(type) is not AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS")
            }
            if rendition.type == .closedCaptions, rendition.uri != nil {
                warn(.invalidAttributeValue, number, "#EXT-X-MEDIA with TYPE=CLOSED-CAPTIONS must not have a URI")
            }
            if rendition.type == .subtitles, rendition.uri == nil {
                warn(.missingAttribute, number, "#EXT-X-MEDIA with TYPE=SUBTITLES needs a URI")
            }
            playlist.renditions.append(rendition)
            lines.renditions.append(number)
        case .iFrameStreamInf:
            var variant = IFrameVariant(attributes: attributes(value, tag, number, required: ["BANDWIDTH", "URI"]))
            variant.unknownLines = takePendingLines()
            playlist.iFrameVariants.append(variant)
        case .sessionData:
            var data = SessionData(attributes: attributes(value, tag, number, required: ["DATA-ID"]))
            data.unknownLines = takePendingLines()
            playlist.sessionData.append(data)
            lines.sessionData.append(number)
        case .sessionKey:
            playlist.sessionKeys.append(EncryptionKey(attributes: attributes(value, tag, number, required: ["METHOD"])))
            lines.sessionKeys.append(number)
        case .contentSteering:
            header(tag, number)
            playlist.contentSteering = ContentSteering(
                attributes: attributes(value, tag, number, required: ["SERVER-URI"]))
        case .version:
            header(tag, number)
            if let value, let v = DecimalNumber.parseInteger(value) {
                playlist.version = v
            } else {
                warn(.malformedTag, number, "#EXT-X-VERSION needs a decimal integer")
            }
        case .independentSegments:
            header(tag, number)
            playlist.independentSegments = true
        case .start:
            header(tag, number)
            playlist.start = StartPoint(attributes: attributes(value, tag, number, required: ["TIME-OFFSET"]))
        case .define:
            if lines.header[tag] == nil { lines.header[tag] = number }
            lines.defines.append(number)
            playlist.defines.append(VariableDefinition(attributes: attributes(value, tag, number, required: [])))
        case .extm3u:
            warn(.headerNotFirst, number, PlaylistHeader.repeatedHeader)
        default:
            warn(
                .mixedPlaylistKinds, number,
                "#\(tag.rawValue) belongs in a media playlist, not a multivariant playlist; kept as an unknown tag")
            pendingLines.append(line.text)
        }
    }

    mutating func uri(_ text: String, number: Int) {
        guard var variant = pendingVariant else {
            warn(.malformedTag, number, "URI line \(text) does not follow #EXT-X-STREAM-INF; kept as an unknown line")
            pendingLines.append(text)
            return
        }
        variant.uri = text
        playlist.variants.append(variant)
        lines.variants.append(pendingVariantLine)
        pendingVariant = nil
    }

    mutating func finish() {
        closeVariantWithoutURI()
        diagnostics += whitespace.findings()
        playlist.trailingLines = pendingLines
    }
}

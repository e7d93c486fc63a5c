/// The strict checks behind `seam validate`: every rule of the HLS specification that
/// Seam depends on, reported with line numbers. Parsing stays lenient; this is where
/// what the parser accepted gets judged.
public enum PlaylistValidator {
    /// Parses `text` and checks it. A file that is not a playlist at all gives one error.
    public static func validate(_ text: String, source: String? = nil) -> ValidationReport {
        let parsed: Parsed<Playlist>
        do {
            parsed = try Playlist.parse(text, recordingLines: true)
        } catch {
            var error = error
            // Invalid UTF-8 reaches us as U+FFFD (the text was decoded before), so a PNG or an
            // MP4 can pass the parser's first-line binary test and look like a missing header.
            if case .missingHeader = error, let line = firstBinaryLine(text) { error = .binaryData(line: line) }
            return ValidationReport(
                playlist: nil,
                diagnostics: [
                    PlaylistDiagnostic(.error, .malformedTag, line: error.line, error.description, source: source)
                ])
        }
        // What the lenient parser let through is a broken rule here. Mixing the two kinds of
        // tags is one too: clients MUST fail to parse such a playlist (RFC 8216 4.3.4,
        // draft-pantos-hls-rfc8216bis 4.4.6).
        var diagnostics = parsed.diagnostics.map { d -> PlaylistDiagnostic in
            var d = d
            d.severity = lenientRules.contains(d.rule) ? .warning : .error
            return d
        }
        switch parsed.playlist {
        case .media(let media): diagnostics += check(media, lines: parsed.lines)
        case .multivariant(let multivariant): diagnostics += check(multivariant, lines: parsed.lines)
        }
        for i in diagnostics.indices { diagnostics[i].source = source }
        diagnostics.sort {
            ($0.line ?? 0, $0.severity == .error ? 0 : 1) < ($1.line ?? 0, $1.severity == .error ? 0 : 1)
        }
        return ValidationReport(playlist: parsed.playlist, diagnostics: diagnostics)
    }

    /// What the parser reports that stays a warning here: players accept it and nothing is lost
    /// (whitespace and comments around the syntax, a repeated `#EXTM3U`). A repeated header tag is
    /// not among them: the draft makes clients fail to parse it (4.4.1.2, 4.4.2, 4.4.3).
    static let lenientRules: Set<PlaylistRule> = [.headerNotFirst, .strayWhitespace]

    // MARK: Media playlists

    public static func check(_ playlist: MediaPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        func error(_ rule: PlaylistRule, _ line: Int?, _ message: String) {
            out.append(PlaylistDiagnostic(.error, rule, line: line, message))
        }
        func warning(_ rule: PlaylistRule, _ line: Int?, _ message: String) {
            out.append(PlaylistDiagnostic(.warning, rule, line: line, message))
        }
        func segmentLine(_ tag: TagName, _ index: Int) -> Int? {
            lines.line(of: tag, inSegment: index) ?? lines.segmentStart[safe: index]
        }

        if playlist.mediaSequence < 0 {
            error(.negativeSequence, lines.header[.mediaSequence], "#EXT-X-MEDIA-SEQUENCE must not be negative")
        }
        if playlist.discontinuitySequence < 0 {
            error(
                .negativeSequence, lines.header[.discontinuitySequence],
                "#EXT-X-DISCONTINUITY-SEQUENCE must not be negative")
        }
        if playlist.hasDiscontinuitySequenceTag && playlist.playlistType == .vod && playlist.discontinuitySequence != 0
        {
            warning(
                .discontinuitySequenceWithoutMediaSequence, lines.header[.discontinuitySequence],
                "a VOD playlist never removes segments, so #EXT-X-DISCONTINUITY-SEQUENCE should be 0")
        }
        if playlist.playlistType == .vod && !playlist.endList {
            error(
                .playlistTypeMismatch, lines.header[.playlistType],
                "#EXT-X-PLAYLIST-TYPE:VOD needs #EXT-X-ENDLIST: a VOD playlist cannot change")
        }

        // Version requirements: (version, feature, line) of the first use of each feature.
        var required: (version: Int, reason: String, line: Int?) = (1, "", nil)
        func need(_ version: Int, _ reason: String, _ line: Int?) {
            if version > required.version { required = (version, reason, line) }
        }
        if playlist.iFramesOnly { need(4, "#EXT-X-I-FRAMES-ONLY", lines.header[.iFramesOnly]) }
        if !playlist.defines.isEmpty { need(8, "#EXT-X-DEFINE", lines.header[.define]) }
        if playlist.skip != nil { need(9, "#EXT-X-SKIP", lines.header[.skip]) }
        if playlist.skip?.attributes.contains("RECENTLY-REMOVED-DATERANGES") == true {
            need(10, "an #EXT-X-SKIP that skips date ranges (RECENTLY-REMOVED-DATERANGES)", lines.header[.skip])
        }
        if let k = playlist.defines.firstIndex(where: { $0.queryParameter != nil }) {
            need(11, "QUERYPARAM in #EXT-X-DEFINE", lines.defines[safe: k] ?? lines.header[.define])
        }

        let target = playlist.targetDuration
        let fmp4 = playlist.segments.contains { $0.map != nil }
        var previousRangeURI: String?
        let partTarget = playlist.partInformation?.partTarget

        var dateRanges: [DateRangeValidator.Located] = []
        var hasProgramDateTime = playlist.trailer?.programDateTime != nil
        func collectDateRanges(_ ranges: [DateRange], segment index: Int) {
            guard !ranges.isEmpty else { return }
            let rangeLines = lines.segmentTags.filter { $0.segment == index && $0.tag == .dateRange }.map(\.line)
            for (k, range) in ranges.enumerated() {
                dateRanges.append(DateRangeValidator.Located(range, line: rangeLines[safe: k]))
            }
        }

        for (index, segment) in playlist.segments.enumerated() {
            let extinfLine = segmentLine(.extinf, index)
            if lines.header[.targetDuration] != nil, segment.duration.rounded() > Double(target) {
                error(
                    .targetDurationExceeded, extinfLine,
                    "segment duration \(DecimalNumber.format(segment.duration)) rounds above #EXT-X-TARGETDURATION:\(target); raise the target duration to \(PlaylistLimits.wholeSeconds(segment.duration))"
                )
            }
            if segment.duration != segment.duration.rounded() {
                need(3, "a decimal #EXTINF duration", extinfLine)
            }
            if let range = segment.byteRange {
                let line = segmentLine(.byteRange, index)
                need(4, "#EXT-X-BYTERANGE", line)
                if range.offset == nil {
                    if segment.discontinuity {
                        error(
                            .byteRangeWithoutOffset, line,
                            "#EXT-X-BYTERANGE after #EXT-X-DISCONTINUITY needs an explicit offset (<length>@<offset>)")
                    } else if previousRangeURI != segment.uri {
                        error(
                            .byteRangeWithoutOffset, line,
                            "#EXT-X-BYTERANGE without offset must follow a sub-range of the same resource \(segment.uri)"
                        )
                    }
                }
                previousRangeURI = segment.uri
            } else {
                previousRangeURI = nil
            }
            for key in segment.keys {
                let line = segmentLine(.key, index)
                if key.iv != nil { need(2, "the IV attribute of #EXT-X-KEY", line) }
                if key.keyFormat != nil || key.keyFormatVersions != nil { need(5, "KEYFORMAT in #EXT-X-KEY", line) }
                if key.method == .sampleAES || key.method == .sampleAESCTR { need(5, "METHOD=\(key.method)", line) }
                if case .other(let method) = key.method, method != aes256GCM {
                    error(
                        .invalidAttributeValue, line,
                        "#EXT-X-KEY METHOD=\(method) is not NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR or AES-256-GCM")
                }
                // 4.4.4.4: "If the encryption method is NONE, other attributes MUST NOT be present."
                let others = key.attributes.items.map(\.name).filter { $0 != "METHOD" }
                if key.method == .none && !others.isEmpty {
                    error(
                        .invalidAttributeValue, line,
                        "#EXT-X-KEY METHOD=NONE must not have URI, IV or any other attribute: remove \(others.joined(separator: ", "))"
                    )
                }
            }
            if segment.map != nil {
                let line = segmentLine(.map, index)
                if playlist.iFramesOnly { need(5, "#EXT-X-MAP", line) } else { need(6, "#EXT-X-MAP", line) }
            }
            if fmp4 && index > 0 && segment.discontinuity && segment.map == nil {
                error(
                    .mapMissingAfterDiscontinuity, segmentLine(.discontinuity, index),
                    "fMP4 content needs #EXT-X-MAP after #EXT-X-DISCONTINUITY: the next segment may come from another encoder"
                )
            }
            if fmp4 && index == 0 && segment.map == nil {
                error(
                    .mapMissingAfterDiscontinuity, lines.segmentStart[safe: 0],
                    "the first fMP4 segment has no #EXT-X-MAP before it")
            }
            if let pdt = segment.programDateTime, pdt.secondsSince1970 == nil {
                error(
                    .programDateTimeInvalid, segmentLine(.programDateTime, index),
                    "#EXT-X-PROGRAM-DATE-TIME \"\(pdt.text)\" is not an ISO 8601 date-time")
            }
            if segment.programDateTime != nil { hasProgramDateTime = true }
            collectDateRanges(segment.dateRanges, segment: index)
            checkParts(segment.parts, segment: index)
            if segment.cues.contains(where: { $0.kind == .cueOut }) && segment.dateRanges.isEmpty {
                // Legacy cue tags are fine; nothing to check beyond syntax.
            }
        }
        if let trailer = playlist.trailer {
            if let pdt = trailer.programDateTime, pdt.secondsSince1970 == nil {
                error(
                    .programDateTimeInvalid, lines.line(of: .programDateTime, inSegment: playlist.segments.count),
                    "#EXT-X-PROGRAM-DATE-TIME \"\(pdt.text)\" is not an ISO 8601 date-time")
            }
            collectDateRanges(trailer.dateRanges, segment: playlist.segments.count)
            checkParts(trailer.parts, segment: playlist.segments.count)
        }

        func checkParts(_ parts: [PartialSegment], segment index: Int) {
            guard !parts.isEmpty else { return }
            let partLines = lines.segmentTags.filter { $0.segment == index && $0.tag == .part }.map(\.line)
            guard let partTarget else {
                error(.llhlsIncomplete, partLines.first, "#EXT-X-PART needs #EXT-X-PART-INF in the playlist header")
                return
            }
            for (k, part) in parts.enumerated() where part.duration > partTarget {
                error(
                    .partTargetExceeded, partLines[safe: k],
                    "#EXT-X-PART DURATION=\(DecimalNumber.format(part.duration)) exceeds PART-TARGET=\(DecimalNumber.format(partTarget))"
                )
            }
        }

        if let partTarget {
            let holdBack = playlist.serverControl?.partHoldBack
            if holdBack == nil {
                error(
                    .llhlsIncomplete, lines.header[.partInf],
                    "#EXT-X-PART-INF needs #EXT-X-SERVER-CONTROL with PART-HOLD-BACK")
            } else if let holdBack, holdBack < 2 * partTarget {
                error(
                    .llhlsIncomplete, lines.header[.serverControl],
                    "PART-HOLD-BACK must be at least twice PART-TARGET (\(DecimalNumber.format(2 * partTarget)))")
            }
        }
        if let holdBack = playlist.serverControl?.holdBack, holdBack < Double(3 * target) {
            error(
                .invalidAttributeValue, lines.header[.serverControl],
                "HOLD-BACK must be at least three times the target duration (\(3 * target))")
        }
        if let skipUntil = playlist.serverControl?.attributes.double("CAN-SKIP-UNTIL"), skipUntil < Double(6 * target) {
            error(
                .invalidAttributeValue, lines.header[.serverControl],
                "CAN-SKIP-UNTIL=\(DecimalNumber.format(skipUntil)) must be at least six times the target duration (\(6 * target))"
            )
        }
        if playlist.endList, !playlist.preloadHints.isEmpty {
            error(
                .invalidAttributeValue, lines.header[.preloadHint],
                "a playlist with #EXT-X-ENDLIST must not have #EXT-X-PRELOAD-HINT (4.4.5.3): nothing more will be published"
            )
        }
        for (k, hint) in playlist.preloadHints.enumerated() {
            if let type = hint.attributes["TYPE"]?.text, type != "PART", type != "MAP" {
                error(
                    .invalidAttributeValue, k == 0 ? lines.header[.preloadHint] : nil,
                    "#EXT-X-PRELOAD-HINT TYPE=\(type) is not PART or MAP")
            }
        }

        out += DateRangeValidator.check(dateRanges, hasProgramDateTime: hasProgramDateTime)
        out += checkDuplicateAttributes(playlist, lines: lines)
        out += checkDefines(playlist.defines, line: lines.header[.define], lines: lines.defines)
        out += checkDiscontinuitySequenceOrder(lines: lines)
        out += checkLowLatency(playlist, lines: lines)
        out += checkKeyIVs(playlist, lines: lines)
        // An EXT-X-MAP encrypted with AES-128 needs the IV of the key that applies to it (4.4.4.5).
        let keys = playlist.effectiveKeys()
        for (index, segment) in playlist.segments.enumerated() where segment.map != nil {
            if let key = keys[safe: index]?.first(where: { $0.method == .aes128 }), key.iv == nil {
                error(
                    .missingAttribute, segmentLine(.map, index),
                    "#EXT-X-MAP is encrypted with METHOD=AES-128, so the #EXT-X-KEY that applies to it needs an IV")
            }
        }

        out += checkVariables(
            defined: playlist.defines,
            uris: playlist.segments.enumerated().map { ($0.element.uri, lines.segmentURI[safe: $0.offset]) })

        let declared = playlist.version ?? 1
        if declared < required.version {
            let at = required.line.map { " (line \($0))" } ?? ""
            error(
                .versionTooLow, lines.header[.version] ?? 1,
                "\(required.reason)\(at) needs #EXT-X-VERSION:\(required.version) or higher, the playlist declares \(declared)"
            )
        }
        return out
    }

    /// No attribute name twice in one attribute list (4.2), and names of `A-Z`, `0-9` and `-` only.
    static func checkDuplicateAttributes(
        _ playlist: MediaPlaylist, lines sourceLines: SourceLines
    ) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        func check(_ list: AttributeList, _ tag: TagName, _ line: Int?) {
            var names: Set<String> = []
            for attribute in list.items {
                if !names.insert(attribute.name).inserted {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .duplicateAttribute, line: line,
                            "#\(tag.rawValue) has \(attribute.name) more than once; an attribute list names each attribute once"
                        ))
                } else if attribute.name.isEmpty
                    || !attribute.name.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || $0.isDigit || $0 == .minus })
                {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .malformedAttribute, line: line,
                            "#\(tag.rawValue): attribute name \"\(attribute.name)\" may only hold A-Z, 0-9 and '-'"))
                }
            }
        }
        func lines(_ tag: TagName, _ index: Int) -> [Int] {
            sourceLines.segmentTags.filter { $0.segment == index && $0.tag == tag }.map(\.line)
        }
        var segments = playlist.segments
        if let trailer = playlist.trailer { segments.append(trailer) }
        for (index, segment) in segments.enumerated() {
            guard segment.map != nil || !segment.keys.isEmpty || !segment.dateRanges.isEmpty || !segment.parts.isEmpty
            else { continue }
            if let map = segment.map { check(map.attributes, .map, lines(.map, index).first) }
            let keyLines = lines(.key, index)
            for (k, key) in segment.keys.enumerated() { check(key.attributes, .key, keyLines[safe: k]) }
            let rangeLines = lines(.dateRange, index)
            for (k, range) in segment.dateRanges.enumerated() {
                check(range.attributes, .dateRange, rangeLines[safe: k])
            }
            let partLines = lines(.part, index)
            for (k, part) in segment.parts.enumerated() { check(part.attributes, .part, partLines[safe: k]) }
        }
        return out
    }

    /// `EXT-X-DEFINE` (4.4.2.3): one of `NAME`, `IMPORT`, `QUERYPARAM`, whose value is a variable
    /// name; `VALUE` with `NAME`; a name defined once; no `IMPORT` in a multivariant playlist.
    /// `lines` holds each tag's line; `line` (the first) stands in when they were not recorded.
    static func checkDefines(
        _ defines: [VariableDefinition], line firstLine: Int?, lines defineLines: [Int] = [],
        multivariant: Bool = false
    ) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        var names: Set<String> = []
        for (index, define) in defines.enumerated() {
            let line = defineLines[safe: index] ?? firstLine
            let kinds = ["NAME", "IMPORT", "QUERYPARAM"].filter { define.attributes.contains($0) }
            if kinds.count == 1, let kind = kinds.first {
                let name = define.attributes.string(kind) ?? ""
                if !isVariableName(name) {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .invalidAttributeValue, line: line,
                            "#EXT-X-DEFINE \(kind)=\"\(name)\": a variable name may only hold a-z, A-Z, 0-9, '-' and '_'"
                        ))
                }
                if kind == "NAME", !define.attributes.contains("VALUE") {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .missingAttribute, line: line,
                            "#EXT-X-DEFINE NAME=\"\(name)\" needs a VALUE (it may be empty: VALUE=\"\")"))
                }
                if kind == "IMPORT", multivariant {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .invalidAttributeValue, line: line,
                            "#EXT-X-DEFINE IMPORT=\"\(name)\" belongs in a media playlist (it imports from this one): define the variable here with NAME and VALUE"
                        ))
                }
            }
            if kinds.count != 1 {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "#EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM, found \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))"
                    ))
            }
            if let name = define.definedName, !names.insert(name).inserted {
                out.append(
                    PlaylistDiagnostic(
                        .error, .duplicateVariable, line: line,
                        "#EXT-X-DEFINE defines {$\(name)} more than once; a playlist defines each variable once"))
            }
        }
        return out
    }

    /// The line of the first control character (other than tab, CR, LF) or U+FFFD (what
    /// decoding leaves of invalid UTF-8) in the first 4 KiB, for data that is no playlist.
    static func firstBinaryLine(_ text: String) -> Int? {
        var line = 1
        var replacement = 0  // bytes of EF BF BD matched so far
        for byte in text.utf8.prefix(4096) {
            if byte == 0x0A {
                line += 1
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0D || byte == 0x7F {
                return line
            }
            switch (replacement, byte) {
            case (0, 0xEF), (1, 0xBF): replacement += 1
            case (2, 0xBD): return line
            default: replacement = byte == 0xEF ? 1 : 0
            }
        }
        return nil
    }

    static func checkVariables(defined: [VariableDefinition], uris: [(String, Int?)]) -> [PlaylistDiagnostic] {
        let names = Set(defined.compactMap(\.definedName))
        var out: [PlaylistDiagnostic] = []
        for (uri, line) in uris where uri.contains("{$") {
            for name in variableReferences(in: uri) where !names.contains(name) {
                out.append(
                    PlaylistDiagnostic(
                        .error, .undefinedVariable, line: line,
                        "variable {$\(name)} is used but not defined by #EXT-X-DEFINE"))
            }
        }
        return out
    }

    static func variableReferences(in text: String) -> [String] {
        var result: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x7B, bytes[i + 1] == 0x24 {  // "{$"
                var j = i + 2
                while j < bytes.count, bytes[j] != 0x7D { j += 1 }
                guard j < bytes.count else { break }
                result.append(String(decoding: bytes[(i + 2)..<j], as: UTF8.self))
                i = j + 1
            } else {
                i += 1
            }
        }
        return result
    }

    // MARK: Multivariant playlists

    public static func check(_ playlist: MultivariantPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        // Section 8: the first use of each feature that needs a version, the highest one kept.
        var required: (version: Int, reason: String) = (1, "")
        func need(_ version: Int, _ reason: String) {
            if version > required.version { required = (version, reason) }
        }
        if !playlist.defines.isEmpty { need(8, "#EXT-X-DEFINE") }
        if playlist.defines.contains(where: { $0.queryParameter != nil }) { need(11, "QUERYPARAM in #EXT-X-DEFINE") }
        for (index, rendition) in playlist.renditions.enumerated() {
            guard let instream = rendition.instreamID else { continue }
            let at = " (line \(lines.renditions[safe: index] ?? 0))"
            if rendition.type == .closedCaptions {
                if instream.hasPrefix("SERVICE") { need(7, "INSTREAM-ID=\"\(instream)\"\(at)") }
            } else if let type = rendition.type {
                need(13, "INSTREAM-ID on an #EXT-X-MEDIA of TYPE=\(type.rawValue)\(at)")
            }
        }
        for key in playlist.sessionKeys where key.iv != nil { need(2, "the IV attribute of #EXT-X-SESSION-KEY") }
        let requirements: [(tag: String, attributes: AttributeList, line: Int?)] =
            playlist.variants.enumerated().map {
                ("#EXT-X-STREAM-INF", $0.element.attributes, lines.variants[safe: $0.offset])
            }
            + playlist.iFrameVariants.map { ("#EXT-X-I-FRAME-STREAM-INF", $0.attributes, nil) }
            + playlist.renditions.enumerated().map {
                ("#EXT-X-MEDIA", $0.element.attributes, lines.renditions[safe: $0.offset])
            }
        for item in requirements {
            if let name = item.attributes.items.first(where: { $0.name.hasPrefix("REQ-") })?.name {
                need(12, "\(name) on \(item.tag)\(item.line.map { " (line \($0))" } ?? "")")
                break
            }
        }
        let declared = playlist.version ?? 1
        if declared < required.version {
            out.append(
                PlaylistDiagnostic(
                    .error, .versionTooLow, line: lines.header[.version] ?? 1,
                    "\(required.reason) needs #EXT-X-VERSION:\(required.version) or higher, the playlist declares \(declared)"
                ))
        }
        let groups = Set(playlist.renditions.compactMap { r in r.type.map { "\($0.rawValue)/\(r.groupID)" } })
        for (index, variant) in playlist.variants.enumerated() {
            let line = lines.variants[safe: index]
            let references: [(Rendition.MediaType, String?)] = [
                (.audio, variant.audioGroup), (.video, variant.videoGroup), (.subtitles, variant.subtitlesGroup),
                (.closedCaptions, variant.closedCaptions.flatMap { $0.isQuoted ? $0.text : nil }),
            ]
            for (type, group) in references {
                if let group, !groups.contains("\(type.rawValue)/\(group)") {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .missingGroup, line: line,
                            "#EXT-X-STREAM-INF refers to \(type.rawValue) group \"\(group)\" but no #EXT-X-MEDIA defines it"
                        ))
                }
            }
            if variant.bandwidth <= 0 && variant.attributes.contains("BANDWIDTH") {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line, "BANDWIDTH must be a positive integer"))
            }
            if let resolution = variant.attributes["RESOLUTION"], Resolution(resolution.text) == nil {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "RESOLUTION \"\(resolution.text)\" is not <width>x<height>"))
            }
        }
        // EXT-X-MEDIA (4.4.6.1): the attribute combinations the draft rules out, and groups.
        var defaults: [String: Int] = [:]
        var namesInGroup: Set<String> = []
        for (index, rendition) in playlist.renditions.enumerated() {
            let line = lines.renditions[safe: index]
            func error(_ rule: PlaylistRule, _ message: String) {
                out.append(PlaylistDiagnostic(.error, rule, line: line, message))
            }
            let group = "\(rendition.type?.rawValue ?? "")/\(rendition.groupID)"
            if rendition.isDefault, rendition.attributes.boolean("AUTOSELECT") == false {
                error(
                    .invalidAttributeValue,
                    "#EXT-X-MEDIA NAME=\"\(rendition.name)\": DEFAULT=YES needs AUTOSELECT=YES (or no AUTOSELECT)")
            }
            if rendition.attributes.contains("FORCED"), rendition.type != .subtitles {
                error(
                    .invalidAttributeValue, "#EXT-X-MEDIA NAME=\"\(rendition.name)\": FORCED is only for TYPE=SUBTITLES"
                )
            }
            // INSTREAM-ID on other types is allowed since protocol version 13 (the version check
            // above; its characters: checkRenditionAttributes).
            if rendition.type == .closedCaptions, rendition.instreamID == nil {
                error(.missingAttribute, "#EXT-X-MEDIA TYPE=CLOSED-CAPTIONS needs INSTREAM-ID")
            }
            if rendition.isDefault {
                defaults[group, default: 0] += 1
                if defaults[group] == 2 {
                    error(
                        .invalidAttributeValue,
                        "a second DEFAULT=YES in \(rendition.type?.rawValue ?? "") group \"\(rendition.groupID)\"; a group has at most one default"
                    )
                }
            }
            if !rendition.name.isEmpty, !namesInGroup.insert("\(group)/\(rendition.name)").inserted {
                error(
                    .invalidAttributeValue,
                    "NAME=\"\(rendition.name)\" appears twice in \(rendition.type?.rawValue ?? "") group \"\(rendition.groupID)\"; names in a group are unique"
                )
            }
        }
        out += checkSessionKeys(playlist, lines: lines)
        var sessionData: Set<String> = []
        for (index, data) in playlist.sessionData.enumerated() {
            let id = data.attributes.string("DATA-ID") ?? ""
            let line = lines.sessionData[safe: index]
            if data.attributes.contains("VALUE") == data.attributes.contains("URI") {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "#EXT-X-SESSION-DATA DATA-ID=\"\(id)\" needs exactly one of VALUE and URI"))
            }
            let language = data.attributes.string("LANGUAGE") ?? ""
            if !sessionData.insert("\(id)\u{0}\(language)").inserted {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "two #EXT-X-SESSION-DATA with DATA-ID=\"\(id)\"\(language.isEmpty ? "" : " and LANGUAGE=\"\(language)\""); keep one"
                    ))
            }
        }
        // CLOSED-CAPTIONS=NONE on one variant means none has captions: then every variant says so (4.4.6.2).
        let captionsNone = playlist.variants.map { $0.closedCaptions == .unquoted("NONE") }
        if captionsNone.contains(true), let index = captionsNone.firstIndex(of: false) {
            out.append(
                PlaylistDiagnostic(
                    .error, .invalidAttributeValue, line: lines.variants[safe: index],
                    "some #EXT-X-STREAM-INF have CLOSED-CAPTIONS=NONE, so every one must; this one does not"))
        }
        for (index, variant) in playlist.variants.enumerated() {
            if let id = variant.stableVariantID, !isStableID(id) {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: lines.variants[safe: index],
                        "STABLE-VARIANT-ID=\"\(id)\" may only hold a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'"))
            }
        }
        out += checkDefines(playlist.defines, line: lines.header[.define], lines: lines.defines, multivariant: true)
        out += checkRenditionAttributes(playlist, lines: lines)
        out += checkVariantAttributes(playlist, lines: lines)
        var uris = playlist.variants.enumerated().map { ($0.element.uri, lines.variants[safe: $0.offset]) }
        uris += playlist.renditions.enumerated().compactMap { item in
            item.element.uri.map { ($0, lines.renditions[safe: item.offset]) }
        }
        out += checkVariables(defined: playlist.defines, uris: uris)
        return out
    }
}

/// The outcome of a strict check.
public struct ValidationReport: Sendable {
    /// The playlist, when it could be read.
    public var playlist: Playlist?
    public var diagnostics: [PlaylistDiagnostic]

    public var errors: [PlaylistDiagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [PlaylistDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }
}

extension PlaylistParseError {
    public var line: Int? {
        switch self {
        case .empty: return nil
        case .binaryData(let line): return line
        case .missingHeader: return 1
        case .unexpectedKind(_, let line): return line
        case .valueOutOfRange(let line, _): return line
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}

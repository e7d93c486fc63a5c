/// Rules of draft-pantos-hls-rfc8216bis that `PlaylistValidator.check` holds a playlist to on top
/// of reading each tag: where tags stand relative to each other, partial segments, and the
/// attributes of `EXT-X-MEDIA`, `EXT-X-STREAM-INF` and the session tags. Each check names the
/// draft's section; the test of each quotes the sentence (`DraftRuleTests`).
extension PlaylistValidator {
    // MARK: Media playlists

    /// 4.4.3.3: "The EXT-X-DISCONTINUITY-SEQUENCE tag MUST appear before any EXT-X-DISCONTINUITY
    /// tag." The parser already reports one after the first segment's URI; this is the one that
    /// follows an `EXT-X-DISCONTINUITY` among the first segment's tags, which the parser cannot tell.
    static func checkDiscontinuitySequenceOrder(lines: SourceLines) -> [PlaylistDiagnostic] {
        guard let sequenceLine = lines.header[.discontinuitySequence],
            sequenceLine < (lines.segmentURI.first ?? .max),
            let discontinuity = lines.segmentTags.first(where: { $0.tag == .discontinuity }),
            discontinuity.line < sequenceLine
        else { return [] }
        return [
            PlaylistDiagnostic(
                .error, .discontinuitySequenceAfterSegments, line: sequenceLine,
                "#EXT-X-DISCONTINUITY-SEQUENCE must come before any #EXT-X-DISCONTINUITY (line \(discontinuity.line)): move it up into the playlist header"
            )
        ]
    }

    /// The tags that, applied to a parent segment, apply to its first partial segment too (4.4.4.9).
    static let tagsBeforeFirstPart: Set<TagName> = [.discontinuity, .key, .map, .programDateTime]

    /// Partial segments (4.4.4.9) and the low-latency attributes of `EXT-X-SERVER-CONTROL`
    /// (4.4.3.8), `EXT-X-PRELOAD-HINT` (6.2.6) and `EXT-X-RENDITION-REPORT` (4.4.5.4).
    static func checkLowLatency(_ playlist: MediaPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        let partTarget = playlist.partInformation?.partTarget
        var segments = playlist.segments
        if let trailer = playlist.trailer { segments.append(trailer) }
        // Grouped once, and only for a playlist with parts: a hostile one may have them everywhere.
        let hasParts = segments.contains { !$0.parts.isEmpty }
        let tagsBySegment = hasParts ? Dictionary(grouping: lines.segmentTags, by: \.segment) : [:]
        for (index, segment) in segments.enumerated() where !segment.parts.isEmpty {
            let tags = tagsBySegment[index] ?? []
            let partLines = tags.filter { $0.tag == .part }.map(\.line)
            if let firstPart = partLines.first {
                for tag in tags where tag.line > firstPart && tagsBeforeFirstPart.contains(tag.tag) {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .tagAfterPart, line: tag.line,
                            "#\(tag.tag.rawValue) applies to the segment whose first #EXT-X-PART is on line \(firstPart), so it applies to that part too and must come before it: move it above line \(firstPart)"
                        ))
                }
            }
            guard let partTarget else { continue }
            // Exempt: INDEPENDENT=YES and GAP=YES parts, a part right before a GAP=YES part, and the
            // final part of a parent segment. The trailer's last part may be its parent's final one.
            let parts = segment.parts
            for k in parts.indices.dropLast() {
                let part = parts[k]
                guard part.attributes.duration("DURATION") != nil, !part.independent, !part.gap, !parts[k + 1].gap
                else { continue }
                let least = 0.85 * partTarget
                if part.duration < least - 1e-6 {
                    out.append(
                        PlaylistDiagnostic(
                            .error, .partTooShort, line: partLines[safe: k],
                            "#EXT-X-PART DURATION=\(DecimalNumber.format(part.duration)) is under 85% of PART-TARGET=\(DecimalNumber.format(partTarget)) (\(DecimalNumber.format(least))); only a segment's last part, an INDEPENDENT=YES or GAP=YES part, or the part before a GAP=YES one may be shorter: merge it with the next part or mark it"
                        ))
                }
            }
        }

        let controlLine = lines.header[.serverControl]
        if let control = playlist.serverControl {
            if let partTarget, let holdBack = control.partHoldBack, holdBack >= 2 * partTarget,
                holdBack < 3 * partTarget - 1e-9
            {
                out.append(
                    PlaylistDiagnostic(
                        .warning, .llhlsIncomplete, line: controlLine,
                        "PART-HOLD-BACK=\(DecimalNumber.format(holdBack)) should be at least three times PART-TARGET (\(DecimalNumber.format(3 * partTarget))): raise it, or players stall at the live edge"
                    ))
            }
            if control.attributes.contains("CAN-SKIP-DATERANGES"), !control.attributes.contains("CAN-SKIP-UNTIL") {
                out.append(
                    PlaylistDiagnostic(
                        .error, .missingAttribute, line: controlLine,
                        "#EXT-X-SERVER-CONTROL has CAN-SKIP-DATERANGES without CAN-SKIP-UNTIL: add CAN-SKIP-UNTIL (the skip boundary) or remove CAN-SKIP-DATERANGES"
                    ))
            }
        }

        var hintTypes: [String: Int] = [:]
        for (k, hint) in playlist.preloadHints.enumerated() {
            let line = lines.preloadHints[safe: k]
            if let first = hintTypes[hint.type] {
                out.append(
                    PlaylistDiagnostic(
                        .warning, .duplicateTag, line: line,
                        "a second #EXT-X-PRELOAD-HINT with TYPE=\(hint.type)\(first > 0 ? " (the first is on line \(first))" : ""); hint only the next resource of each type: remove one"
                    ))
            } else {
                hintTypes[hint.type] = line ?? 0
            }
        }

        for (k, report) in playlist.renditionReports.enumerated() where URIReference.isAbsolute(report.uri) {
            out.append(
                PlaylistDiagnostic(
                    .error, .invalidAttributeValue, line: lines.renditionReports[safe: k],
                    "#EXT-X-RENDITION-REPORT URI=\"\(report.uri)\" must be relative to this playlist's URI: write the path of the other rendition's playlist relative to this one"
                ))
        }
        return out
    }

    /// 4.4.4.4: SAMPLE-AES-CTR "The IV attribute MUST NOT be present."; AES-256-GCM "then it MUST
    /// NOT have an IV attribute" (the IV travels in each segment).
    static func checkKeyIVs(_ playlist: MediaPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        var segments = playlist.segments
        if let trailer = playlist.trailer { segments.append(trailer) }
        let keyLinesBySegment = Dictionary(grouping: lines.segmentTags.filter { $0.tag == .key }, by: \.segment)
        for (index, segment) in segments.enumerated() where segment.keys.contains(where: { $0.iv != nil }) {
            let keyLines = (keyLinesBySegment[index] ?? []).map(\.line)
            for (k, key) in segment.keys.enumerated() where key.iv != nil {
                let method = key.method.description
                guard key.method == .sampleAESCTR || method == aes256GCM else { continue }
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: keyLines[safe: k],
                        "#EXT-X-KEY METHOD=\(method) must not have an IV: remove the IV attribute")
                )
            }
        }
        return out
    }

    /// The encryption method the draft added as optional for clients (4.4.4.4); `EncryptionKey.Method`
    /// keeps it as `.other`.
    static let aes256GCM = "AES-256-GCM"

    // MARK: Multivariant playlists

    /// `EXT-X-MEDIA` (4.4.6.1): attributes only an audio rendition may carry (a warning),
    /// `INSTREAM-ID` values, `STABLE-RENDITION-ID` characters.
    static func checkRenditionAttributes(_ playlist: MultivariantPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        for (index, rendition) in playlist.renditions.enumerated() {
            let line = lines.renditions[safe: index]
            func error(_ message: String) {
                out.append(PlaylistDiagnostic(.error, .invalidAttributeValue, line: line, message))
            }
            // A warning although the draft says MUST NOT: players ignore these attributes on other
            // types, nothing is misread, and packagers write them (CHANNELS="2" on subtitles in the
            // hls-splice vectors of the corpus).
            if let type = rendition.type, type != .audio {
                for name in ["BIT-DEPTH", "SAMPLE-RATE", "CHANNELS"] where rendition.attributes.contains(name) {
                    out.append(
                        PlaylistDiagnostic(
                            .warning, .invalidAttributeValue, line: line,
                            "#EXT-X-MEDIA NAME=\"\(rendition.name)\": \(name) is only for TYPE=AUDIO, this is TYPE=\(type.rawValue): remove it (players ignore it)"
                        ))
                }
            }
            if let instream = rendition.instreamID {
                if rendition.type == .closedCaptions, !isCaptionChannel(instream) {
                    error(
                        "#EXT-X-MEDIA TYPE=CLOSED-CAPTIONS INSTREAM-ID=\"\(instream)\" is not CC1, CC2, CC3, CC4 or SERVICE1 to SERVICE63"
                    )
                } else if rendition.type != .closedCaptions,
                    instream.isEmpty || !instream.utf8.allSatisfy({ $0.isLetter || $0.isDigit || $0 == 0x2E })
                {
                    error(
                        "#EXT-X-MEDIA NAME=\"\(rendition.name)\": INSTREAM-ID=\"\(instream)\" may only hold A-Z, a-z, 0-9 and '.'"
                    )
                }
            }
            if let id = rendition.stableRenditionID, !isStableID(id) {
                error("STABLE-RENDITION-ID=\"\(id)\" may only hold a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'")
            }
        }
        return out
    }

    /// `CC1`...`CC4` (CEA-608 channels) or `SERVICE1`...`SERVICE63` (CEA-708 service blocks).
    static func isCaptionChannel(_ id: String) -> Bool {
        if ["CC1", "CC2", "CC3", "CC4"].contains(id) { return true }
        guard id.hasPrefix("SERVICE") else { return false }
        let digits = id.dropFirst("SERVICE".count)
        guard !digits.isEmpty, digits.count <= 2, !digits.hasPrefix("0"), let n = Int(digits) else { return false }
        return (1...63).contains(n)
    }

    /// The characters of `STABLE-VARIANT-ID` and `STABLE-RENDITION-ID` (4.4.6.1, 4.4.6.2).
    static func isStableID(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy { $0.isLetter || $0.isDigit || [0x2B, 0x2F, 0x3D, 0x2E, 0x2D, 0x5F].contains($0) }
    }

    /// `EXT-X-STREAM-INF` attributes beyond groups and resolution (4.4.6.2): `SCORE` and
    /// `REQ-VIDEO-LAYOUT`.
    static func checkVariantAttributes(_ playlist: MultivariantPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        for (index, variant) in playlist.variants.enumerated() {
            let line = lines.variants[safe: index]
            if let score = variant.attributes["SCORE"],
                score.isQuoted || !(DecimalNumber.parseDouble(score.text).map { $0 > 0 && $0.isFinite } ?? false)
            {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "SCORE=\(score.isQuoted ? "\"\(score.text)\"" : score.text) must be a positive decimal number, unquoted"
                    ))
            }
            if let layout = variant.attributes["REQ-VIDEO-LAYOUT"],
                layout.text.split(separator: ",", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "REQ-VIDEO-LAYOUT=\"\(layout.text)\" has an empty entry: list view presentation entries such as \"CH-STEREO,CH-MONO\", or leave the attribute out"
                    ))
            }
        }
        let scored = playlist.variants.map { $0.attributes.contains("SCORE") }
        if scored.contains(true), let index = scored.firstIndex(of: false) {
            out.append(
                PlaylistDiagnostic(
                    .warning, .missingAttribute, line: lines.variants[safe: index],
                    "some #EXT-X-STREAM-INF have SCORE and this one does not: give every variant a SCORE, or players cannot rank them"
                ))
        }
        return out
    }

    /// `EXT-X-SESSION-KEY` (4.4.6.5): never `METHOD=NONE`, and no two with the same `METHOD`,
    /// `URI`, `IV`, `KEYFORMAT` and `KEYFORMATVERSIONS`.
    static func checkSessionKeys(_ playlist: MultivariantPlaylist, lines: SourceLines) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        var seen: [String: Int] = [:]
        for (index, key) in playlist.sessionKeys.enumerated() {
            let line = lines.sessionKeys[safe: index]
            if key.method == .none {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "#EXT-X-SESSION-KEY must not have METHOD=NONE: remove the tag (a session key names a key to preload)"
                    ))
                continue
            }
            let identity = [
                key.method.description, key.uri ?? "", key.iv ?? "", key.keyFormat ?? "", key.keyFormatVersions ?? "",
            ].joined(separator: "\u{0}")
            if let first = seen[identity] {
                out.append(
                    PlaylistDiagnostic(
                        .error, .invalidAttributeValue, line: line,
                        "#EXT-X-SESSION-KEY repeats the one\(first > 0 ? " on line \(first)" : "") (same METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS): remove one"
                    ))
            } else {
                seen[identity] = line ?? 0
            }
        }
        return out
    }

    // MARK: Both kinds

    /// The characters of an `EXT-X-DEFINE` variable name (4.4.2.3).
    static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0.isLetter || $0.isDigit || $0 == .minus || $0 == 0x5F }
    }
}

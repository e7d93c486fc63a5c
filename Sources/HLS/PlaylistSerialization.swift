extension PlaylistWriter {
    @inline(__always)
    mutating func tag(_ name: StaticString) {
        append(byte: .hash)
        append(name)
        newline()
    }

    @inline(__always)
    mutating func tag(_ name: StaticString, integer: Int) {
        append(byte: .hash)
        append(name)
        append(byte: .colon)
        append(integer: integer)
        newline()
    }

    @inline(__always)
    mutating func tag(_ name: StaticString, _ attributes: AttributeList) {
        append(byte: .hash)
        append(name)
        append(byte: .colon)
        attributes.write(to: &self)
        newline()
    }

    @inline(__always)
    mutating func line(_ text: String) {
        append(text)
        newline()
    }
}

extension MediaSegment {
    /// Writes the segment's tags in Seam's canonical order, then `EXTINF` and the URI
    /// (both left out for a playlist's trailer, which has no URI).
    static func write(_ segment: borrowing MediaSegment, to w: inout PlaylistWriter, isTrailer: Bool = false) {
        segment.write(to: &w, isTrailer: isTrailer)
    }

    func write(to w: inout PlaylistWriter, isTrailer: Bool = false) {
        if discontinuity { w.tag("EXT-X-DISCONTINUITY") }
        for key in keys { w.tag("EXT-X-KEY", key.attributes) }
        if let map { w.tag("EXT-X-MAP", map.attributes) }
        if let programDateTime {
            w.append("#EXT-X-PROGRAM-DATE-TIME:")
            w.line(programDateTime.text)
        }
        for dateRange in dateRanges { w.tag("EXT-X-DATERANGE", dateRange.attributes) }
        for cue in cues {
            w.append(byte: .hash)
            w.append(cue.kind.rawValue)
            if let value = cue.value {
                w.append(byte: .colon)
                w.append(value)
            }
            w.newline()
        }
        if gap { w.tag("EXT-X-GAP") }
        if let bitrate { w.tag("EXT-X-BITRATE", integer: bitrate) }
        for line in unknownLines { w.line(line) }
        for part in parts { w.tag("EXT-X-PART", part.attributes) }
        if isTrailer { return }
        w.append("#EXTINF:")
        w.append(decimal: duration)
        w.append(byte: .comma)
        if !title.isEmpty { w.append(title) }
        w.newline()
        if let byteRange {
            w.append("#EXT-X-BYTERANGE:")
            w.append(integer: byteRange.length)
            if let offset = byteRange.offset {
                w.append(byte: .at)
                w.append(integer: offset)
            }
            w.newline()
        }
        w.line(uri)
    }
}

extension MediaPlaylist {
    /// The playlist as Seam writes it: LF line endings, canonical tag order.
    public func serialized() -> String {
        var writer = PlaylistWriter(capacity: 512 + segments.count * 128)
        write(to: &writer)
        return writer.string
    }

    public func serializedBytes() -> [UInt8] {
        var writer = PlaylistWriter(capacity: 512 + segments.count * 128)
        write(to: &writer)
        return writer.bytes
    }

    /// Serializes and lends the bytes to `body` without an intermediate copy.
    public func withSerializedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var writer = PlaylistWriter(capacity: 512 + segments.count * 128)
        write(to: &writer)
        return try writer.withBytes(body)
    }

    public func write(to w: inout PlaylistWriter) {
        w.tag("EXTM3U")
        if let version { w.tag("EXT-X-VERSION", integer: version) }
        if hasTargetDurationTag || targetDuration != 0 { w.tag("EXT-X-TARGETDURATION", integer: targetDuration) }
        if hasMediaSequenceTag || mediaSequence != 0 { w.tag("EXT-X-MEDIA-SEQUENCE", integer: mediaSequence) }
        if hasDiscontinuitySequenceTag || discontinuitySequence != 0 {
            w.tag("EXT-X-DISCONTINUITY-SEQUENCE", integer: discontinuitySequence)
        }
        if let playlistType {
            w.append("#EXT-X-PLAYLIST-TYPE:")
            w.line(playlistType.rawValue)
        }
        if iFramesOnly { w.tag("EXT-X-I-FRAMES-ONLY") }
        if independentSegments { w.tag("EXT-X-INDEPENDENT-SEGMENTS") }
        if let start { w.tag("EXT-X-START", start.attributes) }
        for define in defines { w.tag("EXT-X-DEFINE", define.attributes) }
        if let partInformation { w.tag("EXT-X-PART-INF", partInformation.attributes) }
        if let serverControl { w.tag("EXT-X-SERVER-CONTROL", serverControl.attributes) }
        // EXT-X-SKIP before the unknown header lines: they then sit right before the first
        // segment, where an unknown line before the first segment's tags also lands, so
        // writing what was read back gives the same bytes (fuzzing found the other order unstable).
        if let skip { w.tag("EXT-X-SKIP", skip.attributes) }
        for line in headerLines { w.line(line) }
        segments.withUnsafeBufferPointer { list in
            // `pointee` borrows; the buffer's subscript would copy each segment.
            guard let base = list.baseAddress else { return }
            for i in 0..<list.count { MediaSegment.write((base + i).pointee, to: &w) }
        }
        if let trailer { trailer.write(to: &w, isTrailer: true) }
        for hint in preloadHints { w.tag("EXT-X-PRELOAD-HINT", hint.attributes) }
        for report in renditionReports { w.tag("EXT-X-RENDITION-REPORT", report.attributes) }
        if endList { w.tag("EXT-X-ENDLIST") }
    }
}

extension MultivariantPlaylist {
    public func serialized() -> String {
        var writer = PlaylistWriter(capacity: 1024)
        write(to: &writer)
        return writer.string
    }

    public func write(to w: inout PlaylistWriter) {
        w.tag("EXTM3U")
        if let version { w.tag("EXT-X-VERSION", integer: version) }
        if independentSegments { w.tag("EXT-X-INDEPENDENT-SEGMENTS") }
        if let start { w.tag("EXT-X-START", start.attributes) }
        for define in defines { w.tag("EXT-X-DEFINE", define.attributes) }
        if let contentSteering { w.tag("EXT-X-CONTENT-STEERING", contentSteering.attributes) }
        for data in sessionData {
            for line in data.unknownLines { w.line(line) }
            w.tag("EXT-X-SESSION-DATA", data.attributes)
        }
        for key in sessionKeys { w.tag("EXT-X-SESSION-KEY", key.attributes) }
        for rendition in renditions {
            for line in rendition.unknownLines { w.line(line) }
            w.tag("EXT-X-MEDIA", rendition.attributes)
        }
        for variant in variants {
            for line in variant.unknownLines { w.line(line) }
            w.tag("EXT-X-STREAM-INF", variant.attributes)
            w.line(variant.uri)
        }
        for variant in iFrameVariants {
            for line in variant.unknownLines { w.line(line) }
            w.tag("EXT-X-I-FRAME-STREAM-INF", variant.attributes)
        }
        for line in trailingLines { w.line(line) }
    }
}

extension Playlist {
    public func serialized() -> String {
        switch self {
        case .media(let playlist): return playlist.serialized()
        case .multivariant(let playlist): return playlist.serialized()
        }
    }
}

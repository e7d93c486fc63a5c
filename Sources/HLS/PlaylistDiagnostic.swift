/// A rule a playlist breaks, with where and how to fix it.
public struct PlaylistDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning
        case error

        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    public var severity: Severity
    /// 1-based line number in the playlist, when the problem has one.
    public var line: Int?
    public var rule: PlaylistRule
    public var message: String
    /// Which playlist (URL or rendition) the finding belongs to, for multi-playlist checks.
    public var source: String?

    public init(_ severity: Severity, _ rule: PlaylistRule, line: Int?, _ message: String, source: String? = nil) {
        self.severity = severity
        self.rule = rule
        self.line = line
        self.message = message
        self.source = source
    }

    public var description: String {
        var text = ""
        if let source { text += "\(source):" }
        if let line { text += "\(line):" }
        if !text.isEmpty { text += " " }
        return text + "\(severity.rawValue): \(message) [\(rule.rawValue)]"
    }
}

/// The rules Seam checks. Raw values are stable identifiers for scripts (`--json`).
public enum PlaylistRule: String, Sendable, Hashable, CaseIterable {
    // Syntax
    case malformedTag = "malformed-tag"
    case malformedAttribute = "malformed-attribute"
    case missingAttribute = "missing-attribute"
    case invalidAttributeValue = "invalid-attribute-value"
    /// A tag the draft allows once per playlist appears again (`EXT-X-VERSION`, 4.4.1.2; the tags
    /// of 4.4.2 but `EXT-X-DEFINE`; every media playlist tag, 4.4.3; `EXT-X-SKIP`, 4.4.5.2;
    /// `EXT-X-CONTENT-STEERING`, 4.4.6.6): clients MUST fail to parse such a playlist.
    case duplicateTag = "duplicate-tag"
    case mixedPlaylistKinds = "mixed-playlist-kinds"
    case uriWithoutExtinf = "uri-without-extinf"
    case truncated = "truncated"
    /// `#EXTM3U` is not the first line: blank lines or comments come before it, or a second
    /// `#EXTM3U` further down. Players read on.
    case headerNotFirst = "header-not-first"
    /// Whitespace where the syntax has none: after a tag's colon (`#EXTINF: 10,`), or before or
    /// after a line. Players trim it; Seam does too and says where.
    case strayWhitespace = "stray-whitespace"
    /// An attribute name appears twice in one attribute list.
    case duplicateAttribute = "duplicate-attribute"
    /// A number outside what a real stream can carry (`PlaylistLimits`): the proxy refuses the playlist.
    case valueOutOfRange = "value-out-of-range"
    // Media playlist semantics
    case missingTargetDuration = "missing-target-duration"
    case targetDurationExceeded = "target-duration-exceeded"
    case versionTooLow = "version-too-low"
    case byteRangeWithoutOffset = "byterange-without-offset"
    case mapMissingAfterDiscontinuity = "map-missing-after-discontinuity"
    case mediaSequenceAfterSegments = "media-sequence-after-segments"
    case discontinuitySequenceAfterSegments = "discontinuity-sequence-after-segments"
    case discontinuitySequenceWithoutMediaSequence = "discontinuity-sequence-misuse"
    case negativeSequence = "negative-sequence"
    case duplicateDateRangeID = "duplicate-daterange-id"
    case dateRangeInvalid = "daterange-invalid"
    case playlistTypeMismatch = "playlist-type-mismatch"
    case undefinedVariable = "undefined-variable"
    case partTargetExceeded = "part-target-exceeded"
    /// An `EXT-X-PART` shorter than 85% of `PART-TARGET` that the draft does not exempt (4.4.4.9).
    case partTooShort = "part-too-short"
    /// `EXT-X-DISCONTINUITY`, `EXT-X-KEY`, `EXT-X-MAP` or `EXT-X-PROGRAM-DATE-TIME` after the first
    /// `EXT-X-PART` of the segment it applies to (4.4.4.9): it applies to that first part too.
    case tagAfterPart = "tag-after-part"
    case llhlsIncomplete = "llhls-incomplete"
    case negativeDuration = "negative-duration"
    case programDateTimeInvalid = "program-date-time-invalid"
    /// A playlist with `EXT-X-DATERANGE` and no `EXT-X-PROGRAM-DATE-TIME` to place it.
    case dateRangeWithoutProgramDateTime = "daterange-without-program-date-time"
    /// `END-DATE` is not `START-DATE` plus `DURATION`.
    case dateRangeEndMismatch = "daterange-end-mismatch"
    /// A `CUE` value other than `PRE`, `POST`, `ONCE`, or `PRE` with `POST`.
    case dateRangeCue = "daterange-cue"
    /// An `X-` attribute whose value is not a quoted-string, hexadecimal-sequence or number.
    case clientAttributeInvalid = "client-attribute-invalid"
    /// An interstitial with neither or both of `X-ASSET-URI` and `X-ASSET-LIST`.
    case interstitialAsset = "interstitial-asset"
    /// An interstitial attribute with a value outside its type or enumeration.
    case interstitialAttribute = "interstitial-attribute"
    /// An interstitial asset URI that is relative: players resolve it differently.
    case interstitialRelativeURI = "interstitial-relative-uri"
    /// An SVTA2053 creative signaling date range (ad-ID decoration) whose signaling is missing,
    /// unreadable or disagrees with the range (checked by `Stitching.AdIDDecoration.check`).
    case adCreativeSignaling = "ad-creative-signaling"
    /// Two `EXT-X-DEFINE` tags with the same `NAME`.
    case duplicateVariable = "duplicate-variable"
    // Multivariant semantics
    case missingGroup = "missing-group"
    case variantWithoutURI = "variant-without-uri"
    // Across renditions
    case renditionTargetDurationMismatch = "rendition-target-duration-mismatch"
    case renditionDiscontinuityMismatch = "rendition-discontinuity-mismatch"
    case renditionFetchFailed = "rendition-fetch-failed"
    /// A date range with one `ID` carries different attributes in different renditions.
    case renditionDateRangeMismatch = "rendition-daterange-mismatch"
    /// An interstitial that one rendition lists and another, covering the same time, does not.
    case renditionInterstitialMissing = "rendition-interstitial-missing"
    // Over time (live)
    case mediaSequenceWentBackwards = "media-sequence-backwards"
    case segmentChangedUnderSequenceNumber = "segment-changed"
    case discontinuitySequenceWrong = "discontinuity-sequence-wrong"
    case playlistTypeChanged = "playlist-type-changed"
    case playlistStale = "playlist-stale"
    case segmentsRemovedFromEvent = "event-segments-removed"
    /// A date range `ID` whose attributes change meaning on a later reload.
    case dateRangeChanged = "daterange-changed"
    /// `EXT-X-TARGETDURATION` changed between reloads.
    case targetDurationChanged = "target-duration-changed"
    /// Segments left a live playlist and what remains is shorter than three target durations.
    case liveWindowTooShort = "live-window-too-short"
}

/// Why a playlist could not be read at all.
public enum PlaylistParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// The data has NUL bytes or is not UTF-8 text: an image, a segment, a gzip body.
    case binaryData(line: Int)
    /// The first line is not `#EXTM3U`.
    case missingHeader(firstLine: String)
    /// A media playlist was expected and a multivariant playlist found, or the reverse.
    case unexpectedKind(expected: String, line: Int)
    /// A number outside what a real stream can carry (`PlaylistLimits`). Thrown only by the
    /// `init(parsing:)` initializers the proxy uses; `parse` reports it as a diagnostic.
    case valueOutOfRange(line: Int, message: String)

    public var description: String {
        switch self {
        case .empty:
            return "the playlist is empty"
        case .binaryData(let line):
            return "line \(line): binary data, not an HLS playlist (is the URL a media segment or a compressed body?)"
        case .missingHeader(let first):
            let shown = first.count > 60 ? String(first.prefix(60)) + "…" : first
            return "line 1: an HLS playlist must start with #EXTM3U, found \"\(shown)\""
        case .unexpectedKind(let expected, let line):
            return "line \(line): expected a \(expected) playlist"
        case .valueOutOfRange(let line, let message):
            return "line \(line): \(message)"
        }
    }
}

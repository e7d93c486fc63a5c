import Foundation

/// Parses VMAP 1.0 playlists into ``VMAPDocument`` values. Pure: no I/O.
///
/// Elements are matched by local name with any prefix and no namespace processing, because VMAP
/// in the wild uses `vmap:` prefixes with and without declaring them. Embedded `VASTAdData` is
/// read with the VAST rules of ``VASTParser``; a bad embedded VAST spoils only its own break.
public struct VMAPParser: Sendable, Equatable {
    public var options: VASTParsingOptions

    public init(options: VASTParsingOptions = VASTParsingOptions()) {
        self.options = options
    }

    /// Parses a response body as received (any ASCII-compatible encoding; see ``VASTParseError``).
    public func parse(_ bytes: [UInt8]) throws(VASTParseError) -> VMAPDocument {
        let root = try SafeXMLReader(options: options).read(bytes)
        guard root.isNamed("VMAP") else {
            throw .unexpectedRootElement(found: root.qualifiedName, expected: "VMAP", line: root.line)
        }
        var diagnostics: [VASTDiagnostic] = []
        var breaks: [VMAPAdBreak] = []
        for node in root.children(named: "AdBreak") {
            if let adBreak = adBreak(from: node, diagnostics: &diagnostics) { breaks.append(adBreak) }
        }
        return VMAPDocument(
            version: root.trimmedAttribute("version"), adBreaks: breaks,
            extensions: VASTDocumentBuilder.extensions(root.child(named: "Extensions")), diagnostics: diagnostics)
    }

    /// Parses XML text (sent to the XML parser as UTF-8).
    public func parse(_ string: String) throws(VASTParseError) -> VMAPDocument {
        try parse(Array(string.utf8))
    }

    /// Parses a response body held in `Data`.
    public func parse(_ data: Data) throws(VASTParseError) -> VMAPDocument {
        try parse([UInt8](data))
    }

    private func adBreak(from node: ElementNode, diagnostics: inout [VASTDiagnostic]) -> VMAPAdBreak? {
        func note(_ element: ElementNode, _ message: String) {
            diagnostics.append(
                VASTDiagnostic(
                    line: element.line > 0 ? element.line : nil, element: element.localName, message: message))
        }
        guard let offsetText = node.trimmedAttribute("timeOffset") else {
            note(node, "AdBreak without timeOffset; break skipped")
            return nil
        }
        guard let timeOffset = VMAPTimeOffset(offsetText) else {
            note(
                node,
                "unreadable timeOffset \"\(offsetText)\"; expected start, end, HH:MM:SS(.mmm), n% or #n; break skipped")
            return nil
        }
        var breakTypes = [VMAPBreakType.linear]
        if let text = node.trimmedAttribute("breakType") {
            breakTypes = VMAPBreakType.list(text)
        } else {
            note(node, "AdBreak without breakType; read as linear")
        }
        var repeatAfter: Double?
        if let text = node.trimmedAttribute("repeatAfter") {
            repeatAfter = VASTTime.seconds(from: text)
            if repeatAfter == nil { note(node, "unreadable repeatAfter \"\(text)\"; ignored") }
        }
        let tracking = (node.child(named: "TrackingEvents")?.children(named: "Tracking") ?? []).compactMap {
            element -> VMAPTrackingEvent? in
            guard let url = element.trimmedText, let event = element.trimmedAttribute("event") else { return nil }
            return VMAPTrackingEvent(event: VMAPTrackingEvent.Event(event), url: url)
        }
        return VMAPAdBreak(
            breakId: node.trimmedAttribute("breakId"), breakTypes: breakTypes, timeOffset: timeOffset,
            repeatAfter: repeatAfter, adSource: node.child(named: "AdSource").map { adSource(from: $0) },
            trackingEvents: tracking, extensions: VASTDocumentBuilder.extensions(node.child(named: "Extensions")))
    }

    private func adSource(from node: ElementNode) -> VMAPAdSource {
        let content: VMAPAdSource.Content
        if let tag = node.child(named: "AdTagURI"), let uri = tag.trimmedText {
            content = .adTagURI(uri, templateType: tag.trimmedAttribute("templateType"))
        } else if let data = node.child(named: "VASTAdData") ?? node.child(named: "VASTData") {
            if let vast = data.children.first {
                var builder = VASTDocumentBuilder()
                do {
                    content = .vastAdData(try builder.document(from: vast))
                } catch {
                    content = .invalidVASTAdData(error)
                }
            } else {
                content = .invalidVASTAdData(
                    .malformedXML(
                        reason: "VASTAdData holds no VAST element", line: data.line > 0 ? data.line : nil, column: nil))
            }
        } else if let custom = node.child(named: "CustomAdData") {
            content = .customAdData(templateType: custom.trimmedAttribute("templateType"), innerXML: custom.innerXML)
        } else {
            content = .none
        }
        return VMAPAdSource(
            id: node.trimmedAttribute("id"),
            allowMultipleAds: LenientValues.bool(node.attribute("allowMultipleAds")),
            followRedirects: LenientValues.bool(node.attribute("followRedirects")),
            content: content)
    }
}

import VAST

/// Builds the ad tag URL of one break from the configured template. Pure and deterministic: the
/// cache buster and the time come from the caller.
///
/// Three passes, in this order:
/// 1. IAB macros (`[CACHEBUSTING]`, `[TIMESTAMP]`, `[BREAKPOSITION]`, `[SERVERSIDE]`, `[DEVICEIP]`,
///    `[DEVICEUA]`, `[GDPR]`, `[GDPRCONSENT]`, `[LIMITADTRACKING]`, ...; see
///    `AdRequestContext.vastMacros`) through ``VASTMacros``; one without a value for this viewer
///    becomes VAST's unknown value, `-1`. Other bracketed text is left, and goes out encoded once
///    (`UpstreamURL`).
/// 2. Seam placeholders: `{session.id}`, `{session.contentUrl}`, `{session.contentId}`,
///    `{session.durationMs}`, `{avail.index}` and `{player.params.NAME}` (from `customParameters`).
///    Values are percent-encoded; a missing value becomes empty (as MediaTailor does), so the ADS
///    never sees a literal `{...}`. Other `{...}` text is left alone. Macros run first so that a
///    session value such as `[DEVICEIP]` (encoded `%5BDEVICEIP%5D`) cannot be expanded as a macro.
/// 3. Query parameters: each `adParameters` entry, sorted by name, percent-encoded. A parameter
///    the template already has is replaced (the session's value wins over the template's default);
///    others are appended. Then `gdpr`, `gdpr_consent` and `paln` (the PAL nonce, as Google DAI
///    names it) when the session has them and the query does not already carry that name. The
///    template's own query and fragment are kept.
struct AdTagURLBuilder: Sendable {
    var template: String
    var context: AdRequestContext
    var cacheBuster: String
    var timestamp: String

    func build() -> String {
        let macros = context.vastMacros(cacheBuster: cacheBuster, timestamp: timestamp)
        // An IAB macro with no value for this viewer (no User-Agent, say) is VAST's "unknown", -1:
        // the ad request goes once, and a literal macro helps no ad server.
        let expanded = AdTagURLBuilder.fillPlaceholders(
            in: macros.expand(template, unset: VASTMacros.unknown), context: context)
        var url = QueryEditor(expanded)
        for (name, value) in context.adParameters.sorted(by: { $0.key < $1.key }) {
            url.set(name, value)
        }
        if let gdpr = context.gdpr { url.add(ifMissing: "gdpr", gdpr ? "1" : "0") }
        if let consent = context.gdprConsent, !consent.isEmpty { url.add(ifMissing: "gdpr_consent", consent) }
        if let nonce = context.palNonce, !nonce.isEmpty { url.add(ifMissing: "paln", nonce) }
        return url.string
    }

    /// The value of one `{...}` placeholder, percent-encoded; nil when the name is not a Seam
    /// placeholder (the text is then left as written).
    static func placeholderValue(_ name: Substring, context: AdRequestContext) -> String? {
        let raw: String?
        switch name {
        case "session.id": raw = context.sessionID
        case "session.contentUrl": raw = context.contentURL
        case "session.contentId": raw = context.contentID ?? ""
        case "session.durationMs":
            raw =
                context.contentDurationSeconds.flatMap { seconds in
                    seconds.isFinite && seconds >= 0 && seconds < 1.0e12
                        ? String(Int64((seconds * 1000).rounded())) : nil
                } ?? ""
        case "avail.index": raw = String(context.breakIndex)
        default:
            let prefix = "player.params."
            guard name.hasPrefix(prefix) else { return nil }
            raw = context.customParameters[String(name.dropFirst(prefix.count))] ?? ""
        }
        return raw.map(VASTMacros.percentEncode)
    }

    /// `text` with every known `{name}` placeholder replaced.
    static func fillPlaceholders(in text: String, context: AdRequestContext) -> String {
        guard text.contains("{") else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = placeholderValue(rest[afterOpen..<close], context: context)
            {
                output += value
                rest = rest[rest.index(after: close)...]
            } else {
                output.append("{")
                rest = rest[afterOpen...]
            }
        }
        output += rest
        return output
    }
}

/// Edits the query of a URL kept as text (it may still hold characters a URL parser rejects,
/// such as unexpanded macros), leaving everything else byte for byte.
struct QueryEditor: Sendable {
    private var base: Substring
    private var items: [Substring]
    private var fragment: Substring?
    private var hadQuestionMark = false

    init(_ url: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            base = rest[..<question]
            hadQuestionMark = true
            items = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
            if items == [""] { items = [] }
        } else {
            base = rest
            items = []
        }
    }

    private static func name(of item: Substring) -> Substring {
        item.firstIndex(of: "=").map { item[..<$0] } ?? item
    }

    func contains(_ name: String) -> Bool {
        let encoded = VASTMacros.percentEncode(name)
        return items.contains { QueryEditor.name(of: $0) == encoded[...] }
    }

    /// Replaces the first parameter called `name` (dropping any repeats), or appends it.
    mutating func set(_ name: String, _ value: String) {
        let encodedName = VASTMacros.percentEncode(name)
        let item = Substring(encodedName + "=" + VASTMacros.percentEncode(value))
        if let first = items.firstIndex(where: { QueryEditor.name(of: $0) == encodedName[...] }) {
            items[first] = item
            var index = items.index(after: first)
            while index < items.endIndex {
                if QueryEditor.name(of: items[index]) == encodedName[...] {
                    items.remove(at: index)
                } else {
                    index += 1
                }
            }
        } else {
            items.append(item)
        }
    }

    /// Appends `name=value` unless the query already has a parameter called `name`.
    mutating func add(ifMissing name: String, _ value: String) {
        guard !contains(name) else { return }
        items.append(Substring(VASTMacros.percentEncode(name) + "=" + VASTMacros.percentEncode(value)))
    }

    var string: String {
        var result = String(base)
        if !items.isEmpty || hadQuestionMark { result += "?" + items.joined(separator: "&") }
        if let fragment { result += "#" + fragment }
        return result
    }
}

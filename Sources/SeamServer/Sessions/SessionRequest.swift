import SeamWire
import Stitching

/// The JSON body of `POST /v1/sessions` as the server reads it: SeamWire's `SessionCreateBody`
/// (the type SeamKit sends, so client and server cannot drift), decoded strictly.
///
/// The options Seam acts on are typed (`mode`, `trackingMode`, `policy`, `pipOf`), so a value
/// Seam does not know is refused with `400 INVALID_REQUEST` naming the field and what it takes,
/// instead of being read as the default; a field Seam does not know is refused naming it; what a
/// picture-in-picture session (`pipOf`) cannot ask for differently from its main is refused when
/// its main is found (`PipSessionFactory.checked`). Nothing a player asks for is silently
/// ignored. Encoded as the body itself (session records keep it).
@dynamicMemberLookup
package struct SessionRequest: Sendable, Codable, Equatable {
    package var body: SessionCreateBody

    package typealias Consent = SessionCreateBody.Consent

    package init(url: String) {
        body = SessionCreateBody(url: url)
    }

    package subscript<Value>(dynamicMember path: WritableKeyPath<SessionCreateBody, Value>) -> Value {
        get { body[keyPath: path] }
        set { body[keyPath: path] = newValue }
    }

    /// The main session of a picture-in-picture session (`PipSessionFactory`). Once the pip is
    /// built (and in its record), the root main: a pip of a pip names the pip's main. Only a
    /// well-formed id is ever held (`init(from:)` refuses others).
    package var pipOf: SessionID? {
        get { body.pipOf.flatMap { SessionID($0[...]) } }
        set { body.pipOf = newValue?.value }
    }

    /// `server`, `client` or `hybrid`; the configured default (`ads.trackingMode`) when absent
    /// (`trackingMode(default:)`). Spelled out: the method of that name hides the body's member.
    package var trackingMode: TrackingMode? {
        get { body.trackingMode }
        set { body.trackingMode = newValue }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url, fallbackUrl, adParams, customParams, adTagHeaders, contentId, durationMs, palNonce, consent
        case mode, trackingMode, pipOf, policy, adIdDecoration, renditions
    }

    static let fieldNames = CodingKeys.allCases.map { "\"\($0.stringValue)\"" }.joined(separator: ", ")

    package init(from decoder: any Decoder) throws {
        // A field Seam does not know is refused, naming it: a misspelt option ("trackingmode")
        // read as absent would quietly give the player the default.
        if let fields = try? decoder.container(keyedBy: AdPolicy.AnyKey.self),
            let unknown = fields.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil })
        {
            let suggestion = Suggestion.closest(
                to: unknown.stringValue, in: CodingKeys.allCases.map(\.stringValue)
            ).map { " (did you mean \(Self.quoted($0))?)" }
            throw SeamError(
                .invalidRequest,
                "the session request has no field \(Self.quoted(unknown.stringValue))\(suggestion ?? ""); its fields are \(Self.fieldNames)"
            )
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        body = SessionCreateBody(
            url: try container.decode(String.self, forKey: .url),
            fallbackUrl: try container.decodeIfPresent(String.self, forKey: .fallbackUrl),
            adParams: try container.decodeIfPresent([String: String].self, forKey: .adParams),
            customParams: try container.decodeIfPresent([String: String].self, forKey: .customParams),
            adTagHeaders: try container.decodeIfPresent([String: String].self, forKey: .adTagHeaders),
            contentId: try container.decodeIfPresent(String.self, forKey: .contentId),
            durationMs: try container.decodeIfPresent(Int.self, forKey: .durationMs),
            palNonce: try container.decodeIfPresent(String.self, forKey: .palNonce),
            consent: try container.decodeIfPresent(Consent.self, forKey: .consent),
            mode: try Self.choice(SessionMode.self, "mode", container.sessionField(.mode)),
            trackingMode: try Self.choice(TrackingMode.self, "trackingMode", container.sessionField(.trackingMode)),
            pipOf: try Self.sessionID("pipOf", container.sessionField(.pipOf))?.value,
            policy: container.contains(.policy) && (try? container.decodeNil(forKey: .policy)) != true
                ? try AdPolicy(strictFrom: container.superDecoder(forKey: .policy)) : nil,
            adIdDecoration: try Self.flag(container, .adIdDecoration),
            renditions: container.contains(.renditions) && (try? container.decodeNil(forKey: .renditions)) != true
                ? try RenditionFilter(strictFrom: container.superDecoder(forKey: .renditions)) : nil)
    }

    package func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
    }

    // MARK: Options

    /// The tracking mode of the session: the one asked for, else the configured default
    /// (`ads.trackingMode`, checked when the configuration loads), else `server`.
    package func trackingMode(default configured: String) -> TrackingMode {
        trackingMode ?? TrackingMode(rawValue: configured) ?? .server
    }

    // MARK: Options

    /// `text` as one of `Choice`'s values; a value it does not know is `400 INVALID_REQUEST`
    /// naming `field` and every value it takes.
    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ type: Choice.Type, _ field: String, _ text: Field
    ) throws(SeamError) -> Choice?
    where Choice.RawValue == String {
        switch text {
        case .absent:
            return nil
        case .text(let value):
            if let choice = Choice(rawValue: value) { return choice }
            throw unknownValue(field, got: quoted(value), allowed: Choice.allCases.map(\.rawValue))
        case .notText:
            throw unknownValue(field, got: "a value that is not a string", allowed: Choice.allCases.map(\.rawValue))
        }
    }

    /// A `true`/`false` field of the JSON body; another value is `400 INVALID_REQUEST` naming it.
    static func flag(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws(SeamError) -> Bool? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
        guard let value = try? container.decode(Bool.self, forKey: key) else {
            throw SeamError(.invalidRequest, "\(key.stringValue) must be true or false (a JSON boolean)")
        }
        return value
    }

    /// A `true`/`false` query parameter (`seam.adIdDecoration=true`); another value is `400` naming it.
    static func flag(_ field: String, _ text: Field) throws(SeamError) -> Bool? {
        switch text {
        case .absent: return nil
        case .text("true"): return true
        case .text("false"): return false
        case .text(let value): throw unknownValue(field, got: quoted(value), allowed: ["true", "false"])
        case .notText: throw unknownValue(field, got: "a value that is not a string", allowed: ["true", "false"])
        }
    }

    static func unknownValue(_ field: String, got: String, allowed: [String]) -> SeamError {
        SeamError(
            .invalidRequest,
            "\(field) must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")); got \(got)")
    }

    static func sessionID(_ field: String, _ text: Field) throws(SeamError) -> SessionID? {
        switch text {
        case .absent:
            return nil
        case .text(let value):
            if let id = SessionID(value[...]) { return id }
            throw SeamError(
                .invalidRequest,
                "\(field) must be the sessionId of another session (\(SessionID.length) characters a-z, 2-7); got \(quoted(value))"
            )
        case .notText:
            throw SeamError(.invalidRequest, "\(field) must be the sessionId of another session, as a string")
        }
    }

    /// A client's value for an error message: cut short, control characters escaped.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\""
            + shown.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined() + "\""
    }

    /// A JSON field as read: missing (or null), a string, or something else.
    enum Field: Sendable {
        case absent
        case text(String)
        case notText
    }
}

extension KeyedDecodingContainer {
    /// The field at `key` as text, telling a missing field from one of another type.
    func sessionField(_ key: Key) -> SessionRequest.Field {
        guard contains(key), (try? decodeNil(forKey: key)) != true else { return .absent }
        guard let value = try? decode(String.self, forKey: key) else { return .notText }
        return .text(value)
    }
}

extension SessionID: Codable {
    /// Only well-formed ids decode (see `init?(_:)`); a stored record never holds anything else.
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = SessionID(text[...]) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a session id"))
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

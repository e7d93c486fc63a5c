import SeamWire
import Stitching

/// The server's strict reading of `AdPolicy` (SeamWire): an unknown field or value is `400`
/// naming it, so a typo cannot quietly drop a restriction the publisher relies on.
extension AdPolicy {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case restrict, snap, resumeOffset, playoutLimit, `repeat`
    }

    /// Longest span accepted, as for every programme span Seam reads (docs/reliability.md).
    static let maxSeconds = 1_000_000_000.0

    init(strictFrom decoder: any Decoder) throws {
        let fields: KeyedDecodingContainer<AnyKey>
        do {
            fields = try decoder.container(keyedBy: AnyKey.self)
        } catch {
            throw SeamError(
                .invalidRequest,
                "policy must be an object with any of \(CodingKeys.allCases.map { "\"\($0.stringValue)\"" }.joined(separator: ", "))"
            )
        }
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = fields.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw SessionRequest.unknownValue(
                "policy", got: "a field \(SessionRequest.quoted(unknown.stringValue))",
                allowed: CodingKeys.allCases.map(\.stringValue))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            restrict: try Self.list(Restriction.self, "policy.restrict", container, .restrict),
            snap: try Self.list(Snap.self, "policy.snap", container, .snap),
            resumeOffset: try Self.seconds("policy.resumeOffset", container, .resumeOffset, allowsZero: true),
            playoutLimit: try Self.seconds("policy.playoutLimit", container, .playoutLimit, allowsZero: false),
            repeat: try SessionRequest.choice(Repeat.self, "policy.repeat", container.policyField(.repeat)))
    }

    /// The policy from `seam.policy.*` query parameters (`seam.policy.restrict=skip,jump`, ...).
    init(query fields: [String: String]) throws(SeamError) {
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw SessionRequest.unknownValue(
                "seam.policy", got: "a field \(SessionRequest.quoted(unknown))",
                allowed: CodingKeys.allCases.map { "seam.policy." + $0.stringValue })
        }
        func list<Choice: RawRepresentable & CaseIterable>(
            _ type: Choice.Type, _ key: CodingKeys
        ) throws(SeamError) -> [Choice]?
        where Choice.RawValue == String {
            guard let text = fields[key.stringValue] else { return nil }
            var choices: [Choice] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                if let choice = try SessionRequest.choice(
                    Choice.self, "seam.policy.\(key.stringValue)", .text(String(item)))
                {
                    choices.append(choice)
                }
            }
            return choices
        }
        func seconds(_ key: CodingKeys, allowsZero: Bool) throws(SeamError) -> Double? {
            guard let text = fields[key.stringValue] else { return nil }
            return try Self.checkedSeconds("seam.policy.\(key.stringValue)", Double(text), allowsZero: allowsZero)
        }
        self.init(
            restrict: try list(Restriction.self, .restrict), snap: try list(Snap.self, .snap),
            resumeOffset: try seconds(.resumeOffset, allowsZero: true),
            playoutLimit: try seconds(.playoutLimit, allowsZero: false),
            repeat: try fields["repeat"].flatMap { text throws(SeamError) in
                try SessionRequest.choice(Repeat.self, "seam.policy.repeat", .text(text))
            })
    }

    static func list<Choice: RawRepresentable & CaseIterable>(
        _ type: Choice.Type, _ field: String,
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ key: CodingKeys
    ) throws(SeamError) -> [Choice]?
    where Choice.RawValue == String {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
        guard let texts = try? container.decode([String].self, forKey: key) else {
            throw SessionRequest.unknownValue(
                field, got: "something that is not a list of strings",
                allowed: Choice.allCases.map(\.rawValue))
        }
        var choices: [Choice] = []
        for text in texts {
            if let choice = try SessionRequest.choice(Choice.self, field, .text(text)) { choices.append(choice) }
        }
        return choices
    }

    static func seconds(
        _ field: String, _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys,
        allowsZero: Bool
    ) throws(SeamError) -> Double? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
        return try checkedSeconds(field, try? container.decode(Double.self, forKey: key), allowsZero: allowsZero)
    }

    static func checkedSeconds(_ field: String, _ value: Double?, allowsZero: Bool) throws(SeamError) -> Double {
        guard let value, value.isFinite, allowsZero ? value >= 0 : value > 0, value <= maxSeconds else {
            throw SeamError(
                .invalidRequest,
                "\(field) must be a number of seconds, \(allowsZero ? "0" : "more than 0") to \(Int(maxSeconds))")
        }
        return value
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension KeyedDecodingContainer where K == AdPolicy.CodingKeys {
    func policyField(_ key: K) -> SessionRequest.Field {
        guard contains(key), (try? decodeNil(forKey: key)) != true else { return .absent }
        guard let value = try? decode(String.self, forKey: key) else { return .notText }
        return .text(value)
    }
}

extension InterstitialPolicy {
    /// The interstitial policy of a session asking `policy` (nil: Seam's defaults). Defaults:
    /// `X-RESTRICT="SKIP,JUMP"` (ads cannot be skipped or seeked past, as in a stitched stream),
    /// no `X-SNAP`, `CUE="ONCE"`, VOD `X-RESUME-OFFSET=0`, no extra playout limit.
    init(_ policy: AdPolicy?) {
        self.init()
        guard let policy else { return }
        if let restrict = policy.restrict {
            restrictSkip = restrict.contains(.skip)
            restrictJump = restrict.contains(.jump)
        }
        if let snap = policy.snap {
            snapIn = snap.contains(.in)
            snapOut = snap.contains(.out)
        }
        if let value = policy.repeat { playOnce = value == .once }
        if let offset = policy.resumeOffset { resumeOffset = offset }
        playoutLimit = policy.playoutLimit
    }
}

import HLS
import SeamWire
import Stitching

/// `renditions` read strictly, from the create body or from `seam.renditions.*` query
/// parameters: an unknown field, a value of the wrong type or out of range, or an unknown codec
/// family is `400 INVALID_REQUEST` naming it, never read as no limit.
extension RenditionFilter {
    static let fields = ["maxBandwidth", "maxHeight", "maxFrameRate", "codecs"]

    init(strictFrom decoder: any Decoder) throws(SeamError) {
        guard let container = try? decoder.container(keyedBy: AdPolicy.AnyKey.self) else {
            throw SeamError(
                .invalidRequest,
                "renditions must be an object with any of \(Self.fields.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        if let unknown = container.allKeys.first(where: { !Self.fields.contains($0.stringValue) }) {
            throw SessionRequest.unknownValue(
                "renditions", got: "a field \(SessionRequest.quoted(unknown.stringValue))", allowed: Self.fields)
        }
        func value<T: Decodable>(_ type: T.Type, _ name: String, _ form: String) throws(SeamError) -> T? {
            let key = AdPolicy.AnyKey(stringValue: name)
            guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
            guard let value = try? container.decode(T.self, forKey: key) else {
                throw SeamError(.invalidRequest, "renditions.\(name) must be \(form)")
            }
            return value
        }
        try self.init(
            checking: value(Int.self, "maxBandwidth", Self.forms["maxBandwidth"] ?? ""),
            maxHeight: value(Int.self, "maxHeight", Self.forms["maxHeight"] ?? ""),
            maxFrameRate: value(Double.self, "maxFrameRate", Self.forms["maxFrameRate"] ?? ""),
            codecs: value([String].self, "codecs", Self.forms["codecs"] ?? ""), prefix: "renditions.")
    }

    /// From `seam.renditions.*` query parameters (`seam.renditions.maxHeight=720`,
    /// `seam.renditions.codecs=avc,aac`), keyed by the field name.
    init(query: [String: String]) throws(SeamError) {
        let prefix = "seam.renditions."
        if let unknown = query.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw SessionRequest.unknownValue(
                "seam.renditions", got: "a field \(SessionRequest.quoted(unknown))",
                allowed: Self.fields.map { prefix + $0 })
        }
        func number<T: LosslessStringConvertible>(_ name: String) throws(SeamError) -> T? {
            guard let text = query[name] else { return nil }
            guard let value = T(text) else {
                throw SeamError(
                    .invalidRequest,
                    "\(prefix)\(name) must be \(Self.forms[name] ?? ""); got \(SessionRequest.quoted(text))")
            }
            return value
        }
        try self.init(
            checking: number("maxBandwidth"), maxHeight: number("maxHeight"), maxFrameRate: number("maxFrameRate"),
            codecs: query["codecs"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) },
            prefix: prefix)
    }

    static let forms = [
        "maxBandwidth": "a whole number of bits per second, 1 or more (e.g. 3000000)",
        "maxHeight": "a whole number of pixels, 1 or more (e.g. 720)",
        "maxFrameRate": "a number of frames per second above 0 (e.g. 30)",
        "codecs":
            "a list of codec families from \((videoFamilies + audioFamilies).joined(separator: ", ")) (e.g. [\"avc\", \"aac\"])",
    ]

    private init(
        checking maxBandwidth: Int?, maxHeight: Int?, maxFrameRate: Double?, codecs: [String]?, prefix: String
    ) throws(SeamError) {
        func refuse(_ name: String) -> SeamError {
            SeamError(.invalidRequest, "\(prefix)\(name) must be \(Self.forms[name] ?? "")")
        }
        if let maxBandwidth, maxBandwidth < 1 { throw refuse("maxBandwidth") }
        if let maxHeight, maxHeight < 1 { throw refuse("maxHeight") }
        if let maxFrameRate, !(maxFrameRate > 0 && maxFrameRate.isFinite) { throw refuse("maxFrameRate") }
        if let codecs {
            let known = Self.videoFamilies + Self.audioFamilies
            guard !codecs.isEmpty else { throw refuse("codecs") }
            if let unknown = codecs.first(where: { !known.contains($0) }) {
                throw SessionRequest.unknownValue(
                    "\(prefix)codecs", got: SessionRequest.quoted(unknown), allowed: known)
            }
        }
        self.init(maxBandwidth: maxBandwidth, maxHeight: maxHeight, maxFrameRate: maxFrameRate, codecs: codecs)
    }

    /// The variants this filter passes, by index; `400` naming the filter when none does.
    func admittedVariants(of variants: [VariantStream]) throws(SeamError) -> Set<Int> {
        var admitted: Set<Int> = []
        for (index, variant) in variants.enumerated() where admits(variant) { admitted.insert(index) }
        guard !admitted.isEmpty else {
            let ladder = variants.map { variant in
                [
                    variant.resolution.map { "\($0.height)p" }, "\(variant.bandwidth) b/s",
                    variant.codecs.isEmpty ? nil : variant.codecs.joined(separator: ","),
                ].compactMap { $0 }.joined(separator: " ")
            }
            throw SeamError(
                .invalidRequest,
                "renditions (\(summary)) lets no variant of the content through, and a player needs one: its variants are \(ladder.joined(separator: "; ")); loosen the filter"
            )
        }
        return admitted
    }
}

import DASH
import HLS

/// An ad's period for a stitched MPD, from the ad's own (static) MPD: its first period, named
/// `id`, lasting the creative's length, with one absolute `BaseURL` — the creative's MPD-level and
/// period-level bases resolved against where the creative is — so its segments load from the ad's
/// CDN wherever the stitched MPD is served from.
public enum DASHAdPeriod {
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case dynamic(url: String)
        case unknownLength(url: String)

        public var description: String {
            switch self {
            case .dynamic(let url): return "the ad's MPD \(url) is dynamic; an ad is a static (VOD) MPD"
            case .unknownLength(let url):
                return
                    "the ad's MPD \(url) gives its period no duration and no mediaPresentationDuration; Seam needs the ad's length"
            }
        }
    }

    public static func make(_ creative: MPD, url: String, id: String) -> Result<XMLElement, Refusal> {
        guard !creative.isDynamic else { return .failure(.dynamic(url: url)) }
        guard let period = creative.periods.first,
            let duration = period.duration ?? creative.mediaPresentationDuration.map({ $0 - (period.start ?? 0) }),
            duration > 0
        else { return .failure(.unknownLength(url: url)) }
        var base = url
        if let documentBase = creative.baseURLs.first { base = URIReference.resolve(documentBase, against: base) }
        if let periodBase = period.baseURLs.first { base = URIReference.resolve(periodBase, against: base) }
        var element = period.element
        element[attribute: "id"] = id
        element[attribute: "start"] = nil
        element[attribute: "duration"] = DASHDuration.text(duration)
        element.children.removeAll { $0.isElement(named: "BaseURL") }
        var baseURL = XMLElement(name: DASHVODSplicer.prefix(of: period.element) + "BaseURL")
        baseURL.children = [.text(base)]
        element.children.insert(.element(baseURL), at: 0)
        return .success(element)
    }
}

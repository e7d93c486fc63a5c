import DASH
import HLS

/// Stitches ad periods into a static (VOD) MPD: each mid-roll cuts its content period at a
/// common segment boundary (`DASHPeriodSplit`) and goes between the halves, a pre-roll goes
/// before the first period, a post-roll after the last. Every period then gets an explicit
/// `start` and `duration` on the stitched timeline and the MPD's `mediaPresentationDuration` is
/// the sum, so players place each period without inferring anything. The content's segments keep
/// the origin's addresses: the MPD gets the origin's location as its `BaseURL` when it names no
/// absolute one (Seam serves it from another place), and each ad period brings its own absolute
/// `BaseURL`.
public enum DASHVODSplicer {
    /// One break's ad periods, placed at `contentTime` (seconds of content; 0 a pre-roll, a
    /// negative time a post-roll). Each period element carries its `duration`.
    public struct Pod: Sendable {
        public var contentTime: Double
        public var periods: [XMLElement]

        public init(contentTime: Double, periods: [XMLElement]) {
            self.contentTime = contentTime
            self.periods = periods
        }
    }

    /// Where a pod landed on the stitched timeline.
    public struct Placed: Sendable, Equatable {
        public var pod: Int
        public var start: Double
        public var duration: Double
    }

    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case dynamic
        case unknownLength(path: String)
        case split(DASHPeriodSplit.Refusal)
        /// The stitched MPD breaks a rule (an ad period without its duration, say).
        case invalid(String)

        public var description: String {
            switch self {
            case .dynamic: return "the MPD is dynamic (live); Seam stitches live MPDs on the session's timeline"
            case .unknownLength(let path):
                return
                    "\(path) has no duration and the MPD no mediaPresentationDuration; Seam needs each period's length"
            case .split(let refusal): return refusal.description
            case .invalid(let why): return "the stitched MPD is not valid: \(why)"
            }
        }
    }

    /// - Parameters:
    ///   - contentURL: where the origin's MPD is, for its relative segment addresses.
    ///   - pods: in any order.
    public static func splice(
        _ mpd: MPD, contentURL: String, pods: [Pod]
    ) -> Result<(mpd: MPD, placed: [Placed]), Refusal> {
        guard !mpd.isDynamic else { return .failure(.dynamic) }
        // The content periods with their place on the content timeline.
        var periods: [(element: XMLElement, start: Double, duration: Double, isAd: Bool, pod: Int?)] = []
        let content = mpd.periods
        var running = 0.0
        for (index, period) in content.enumerated() {
            let start = period.start ?? running
            let next = content[safe: index + 1]?.start
            guard
                let duration = period.duration ?? next.map({ $0 - start })
                    ?? mpd.mediaPresentationDuration.map({ $0 - start })
            else { return .failure(.unknownLength(path: period.path)) }
            periods.append((period.element, start, max(0, duration), false, nil))
            running = start + max(0, duration)
        }
        let contentEnd = running
        let ordered = pods.enumerated().sorted {
            ($0.element.contentTime < 0 ? Double.infinity : $0.element.contentTime)
                < ($1.element.contentTime < 0 ? Double.infinity : $1.element.contentTime)
        }
        for (number, pod) in ordered.reversed() {
            let ads = pod.periods.map { ad in
                (
                    element: ad, start: 0.0, duration: ad[attribute: "duration"].flatMap(DASHDuration.seconds) ?? 0,
                    isAd: true,
                    pod: Optional(number)
                )
            }
            if pod.contentTime == 0 {
                periods.insert(contentsOf: ads, at: periods.firstIndex { !$0.isAd } ?? 0)
                continue
            }
            if pod.contentTime < 0 || pod.contentTime >= contentEnd {
                let last = (periods.lastIndex { !$0.isAd } ?? periods.count - 1) + 1
                var at = last
                while at < periods.count, periods[at].isAd { at += 1 }
                periods.insert(contentsOf: ads, at: at)
                continue
            }
            guard
                let index = periods.firstIndex(where: {
                    !$0.isAd && $0.start <= pod.contentTime && pod.contentTime < $0.start + $0.duration
                })
            else { continue }
            let item = periods[index]
            if abs(pod.contentTime - item.start) < 0.05 {
                periods.insert(contentsOf: ads, at: index)
                continue
            }
            let period = Period(element: item.element, path: "MPD/Period[\(index + 1)]")
            switch DASHPeriodSplit.split(period, at: pod.contentTime - item.start, periodDuration: item.duration) {
            case .failure(let refusal): return .failure(.split(refusal))
            case .success(let halves):
                periods.replaceSubrange(
                    index...index,
                    with: [(halves.before, item.start, halves.boundary, false, nil)] + ads + [
                        (halves.after, item.start + halves.boundary, item.duration - halves.boundary, false, nil)
                    ])
            }
        }
        // The stitched timeline: every period's start and duration written out.
        var document = mpd.document
        var placed: [Int: Placed] = [:]
        var elements: [XMLElement] = []
        var time = 0.0
        for item in periods {
            var element = item.element
            element[attribute: "start"] = DASHDuration.text(time)
            element[attribute: "duration"] = DASHDuration.text(item.duration)
            if let pod = item.pod {
                let start = placed[pod]?.start ?? time
                placed[pod] = Placed(pod: pod, start: start, duration: time + item.duration - start)
            }
            elements.append(element)
            time += item.duration
        }
        document.root[attribute: "mediaPresentationDuration"] = DASHDuration.text(time)
        replacePeriods(in: &document.root, with: elements)
        if !document.root.elements(named: "BaseURL").contains(where: { isAbsolute($0.text) }) {
            let base = URIReference.resolve(".", against: contentURL)
            var baseURL = XMLElement(name: prefix(of: document.root) + "BaseURL")
            baseURL.children = [.text(base)]
            let relative = document.root.elements(named: "BaseURL").first?.text
            if let relative { baseURL.children = [.text(URIReference.resolve(relative, against: contentURL))] }
            document.root.children.removeAll { $0.isElement(named: "BaseURL") }
            let first =
                document.root.children.firstIndex { node in
                    if case .element = node { return true }
                    return false
                } ?? 0
            document.root.children.insert(.element(baseURL), at: first)
        }
        do {
            let stitched = try MPD(document: document)
            return .success((stitched, placed.values.sorted { $0.pod < $1.pod }))
        } catch {
            return .failure(.invalid(error.description))
        }
    }

    /// `root`'s periods replaced by `periods`, where the first one was; what is not a period stays,
    /// one child per line.
    static func replacePeriods(in root: inout XMLElement, with periods: [XMLElement]) {
        let first = root.children.firstIndex { $0.isElement(named: "Period") } ?? root.children.count
        func kept(_ nodes: ArraySlice<XMLNode>) -> [XMLNode] {
            nodes.filter { node in
                if node.isElement(named: "Period") { return false }
                if case .text(let text) = node, text.allSatisfy(\.isWhitespace) { return false }
                return true
            }
        }
        let children = kept(root.children[..<first]) + periods.map(XMLNode.element) + kept(root.children[first...])
        root.children = children.flatMap { [XMLNode.text("\n  "), $0] } + [.text("\n")]
    }

    static func isAbsolute(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The namespace prefix `root` is written with (`mpd:`), empty for the default namespace.
    static func prefix(of root: XMLElement) -> String {
        guard let colon = root.name.lastIndex(of: ":") else { return "" }
        return String(root.name[...colon])
    }
}

import DASH

/// A session's rendition filter on an MPD (the content's, and each ad's before it is fitted, so
/// the ads play within the same limits): what an HLS variant is judged by, a DASH video
/// representation is judged by — its `bandwidth` plus its audio's (an HLS variant's `BANDWIDTH`
/// counts both), its `height`, its `frameRate` and its codec family — and an audio
/// representation by its codec family alone. A set left with no representation goes.
extension RenditionFilter {
    public func filtered(_ mpd: MPD) -> MPD {
        var document = mpd.document
        let periods = mpd.periods
        var periodNumber = 0
        for index in document.root.children.indices {
            guard case .element(var element) = document.root.children[index], element.localName == "Period" else {
                continue
            }
            if let period = periods[safe: periodNumber] {
                element = filtered(period)
            }
            periodNumber += 1
            document.root.children[index] = .element(element)
        }
        return (try? MPD(document: document)) ?? mpd
    }

    /// The video representations of `mpd`'s first period that pass; `ladder` describes them all
    /// (for the error that names the filter and the ladder when none passes).
    public func admittedVideo(in mpd: MPD) -> (admitted: Int, ladder: [String]) {
        guard let period = mpd.periods.first else { return (0, []) }
        let audio = Self.audioBandwidth(period)
        var admitted = 0
        var ladder: [String] = []
        for set in period.adaptationSets where set.contentType == "video" {
            for representation in set.representations {
                if admitsVideo(representation, of: set, audioBandwidth: audio) { admitted += 1 }
                ladder.append(
                    [
                        representation.height.map { "\($0)p" }, "\(Self.total(representation.bandwidth, audio)) b/s",
                        representation.codecs,
                    ].compactMap { $0 }.joined(separator: " "))
            }
        }
        return (admitted, ladder)
    }

    func filtered(_ period: Period) -> XMLElement {
        var element = period.element
        let audio = Self.audioBandwidth(period)
        let sets = period.adaptationSets
        var setNumber = 0
        element.children = element.children.compactMap { node in
            guard case .element(var child) = node, child.localName == "AdaptationSet" else { return node }
            defer { setNumber += 1 }
            guard let set = sets[safe: setNumber], set.contentType == "video" || set.contentType == "audio" else {
                return node
            }
            let representations = set.representations
            var number = 0
            child.children = child.children.filter { node in
                guard node.isElement(named: "Representation") else { return true }
                defer { number += 1 }
                guard let representation = representations[safe: number] else { return true }
                return set.contentType == "video"
                    ? admitsVideo(representation, of: set, audioBandwidth: audio)
                    : admits(bandwidth: 0, height: nil, frameRate: nil, codecs: Self.codecs(of: representation))
            }
            return child.children.contains { $0.isElement(named: "Representation") } ? .element(child) : nil
        }
        return element
    }

    func admitsVideo(_ representation: Representation, of set: AdaptationSet, audioBandwidth: Int) -> Bool {
        let rate = DASHConditioning.frameRate(
            representation.element[attribute: "frameRate"] ?? set.element[attribute: "frameRate"])
        return admits(
            bandwidth: Self.total(representation.bandwidth, audioBandwidth),
            height: representation.height ?? set.element[attribute: "height"].flatMap { Int($0) },
            frameRate: rate, codecs: Self.codecs(of: representation))
    }

    /// The largest bandwidth of the period's audio, which a player adds to any video's.
    static func audioBandwidth(_ period: Period) -> Int {
        period.adaptationSets.filter { $0.contentType == "audio" }.flatMap(\.representations).compactMap(\.bandwidth)
            .max() ?? 0
    }

    /// A video's bandwidth with its audio's, as an HLS variant counts it: the origin's numbers,
    /// so negative ones count as 0 and a sum past `Int.max` stops there rather than trap.
    static func total(_ video: Int?, _ audio: Int) -> Int {
        let (sum, overflow) = max(0, video ?? 0).addingReportingOverflow(max(0, audio))
        return overflow ? .max : sum
    }

    static func codecs(of representation: Representation) -> [String] {
        (representation.codecs ?? "").split(separator: ",").map { String($0.drop { $0 == " " }) }
    }
}

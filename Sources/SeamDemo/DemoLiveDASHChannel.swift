import DASH
import HLS
import SCTE35

/// The demo live channel as MPEG-DASH: the sample title's DASH form (`media/content/dash/`)
/// looped on the same clock as the HLS channel (`DemoLiveChannel`: 6 s segments, the newest six
/// complete ones listed, a 24 s break every 42 s), in a dynamic MPD at `/live-dash/manifest.mpd`.
///
/// Each pass over the sample is its own period (`loop-<n>`, starting at 60·n s), so the
/// segments' own timestamps, which start at 0 in every pass, need no rewriting. `$Number$` goes
/// on across passes (segment k of the channel is number k+1) and the segment route maps it back
/// to the sample's file (`v0-013.m4s` is `v0-003.m4s`). Every break is a SCTE-35 splice out
/// (`urn:scte:scte35:2014:xml+bin`) in the period where it starts, published a segment ahead.
package struct DemoLiveDASHChannel: Sendable {
    let channel: DemoLiveChannel
    /// The sample period's adaptation sets, as the sample MPD writes them.
    let sets: [AdaptationSet]
    /// The sample MPD's root, for its namespaces and profiles.
    let root: XMLElement

    /// Nil when `sample` has no period.
    package init?(channel: DemoLiveChannel, sample: MPD) {
        guard let period = sample.periods.first else { return nil }
        self.channel = channel
        sets = period.adaptationSets
        root = sample.root
    }

    /// Seconds per pass over the sample.
    static var loopSeconds: Int { DemoLiveChannel.loopSegments * DemoLiveChannel.segmentDuration }

    /// The MPD at `now` (seconds since 1970).
    /// - Parameter endingAfter: the channel ends this many seconds after its segment 0: from
    ///   then on the MPD is its last, the DASH-IF way (still dynamic, its
    ///   `mediaPresentationDuration` set and no `minimumUpdatePeriod`), listing the window at
    ///   the end.
    package func manifest(now: Double, endingAfter end: Double? = nil) -> String {
        let ended = end.map { now >= channel.epoch + $0 } ?? false
        // What is out: at the end, once the channel has ended.
        let at = ended ? channel.epoch + (end ?? 0) : now
        var mpd = XMLElement(name: root.name, attributes: root.attributes.filter { $0.name.hasPrefix("xmlns") })
        let attributes: [(String, String)] = [
            ("profiles", "urn:mpeg:dash:profile:isoff-live:2011"), ("type", "dynamic"),
            ("availabilityStartTime", Self.wholeSeconds(channel.epoch)),
            ("publishTime", Self.wholeSeconds(at)),
            ended
                ? ("mediaPresentationDuration", DASHDuration.text(end ?? 0))
                : ("minimumUpdatePeriod", "PT\(DemoLiveChannel.segmentDuration)S"),
            ("timeShiftBufferDepth", "PT\(DemoLiveChannel.segmentDuration * DemoLiveChannel.windowSegments)S"),
            ("suggestedPresentationDelay", "PT\(DemoLiveChannel.segmentDuration * 2)S"),
            ("maxSegmentDuration", "PT\(DemoLiveChannel.segmentDuration)S"),
            ("minBufferTime", "PT\(DemoLiveChannel.segmentDuration)S"),
        ]
        for (name, value) in attributes { mpd.attributes.append(XMLAttribute(name: name, value: value)) }
        let prefix = root.name.firstIndex(of: ":").map { String(root.name[...$0]) } ?? ""
        if let window = channel.window(at: at) {
            let loops =
                window.lowerBound / DemoLiveChannel.loopSegments...window.upperBound / DemoLiveChannel.loopSegments
            for loop in loops {
                let first = max(window.lowerBound, loop * DemoLiveChannel.loopSegments)
                let last = min(window.upperBound, (loop + 1) * DemoLiveChannel.loopSegments - 1)
                var element = period(loop: loop, segments: first...last, prefix: prefix)
                if loop < loops.upperBound {
                    element.attributes.append(XMLAttribute(name: "duration", value: "PT\(Self.loopSeconds)S"))
                }
                mpd.children.append(.element(element))
            }
        }
        mpd.children.append(
            .element(
                XMLElement(
                    name: prefix + "UTCTiming",
                    attributes: [
                        XMLAttribute(name: "schemeIdUri", value: "urn:mpeg:dash:utc:direct:2014"),
                        XMLAttribute(name: "value", value: DateTime(secondsSince1970: now).text),
                    ])))
        return XMLWriter.write(XMLDocument(root: mpd))
    }

    /// `2026-01-01T00:00:00Z`: xs:dateTime without a fraction, which every player reads.
    static func wholeSeconds(_ seconds: Double) -> String {
        DateTime(secondsSince1970: seconds.rounded(.down)).text.replacingOccurrences(of: ".000Z", with: "Z")
    }

    /// Pass `loop`'s period listing channel segments `segments` (all in that pass).
    func period(loop: Int, segments: ClosedRange<Int>, prefix: String) -> XMLElement {
        let loopStart = loop * DemoLiveChannel.loopSegments
        var period = XMLElement(
            name: prefix + "Period",
            attributes: [
                XMLAttribute(name: "id", value: "loop-\(loop)"),
                XMLAttribute(name: "start", value: "PT\(loop * Self.loopSeconds)S"),
            ])
        // The breaks starting in this pass, while any of them is still in the window, each
        // published a segment ahead of its start as packagers pass a splice on with its
        // pre-roll (DASH-IF asks for events ahead of their time).
        var events = XMLElement(
            name: prefix + "EventStream",
            attributes: [
                XMLAttribute(name: "schemeIdUri", value: "urn:scte:scte35:2014:xml+bin"),
                XMLAttribute(name: "timescale", value: "1"),
            ])
        for k in loopStart..<(loopStart + DemoLiveChannel.loopSegments) {
            guard case .start(let id) = DemoLiveChannel.breakPosition(of: k),
                k + DemoLiveChannel.breakSegments > segments.lowerBound, k <= segments.upperBound + 1
            else { continue }
            let payload = (try? SpliceInfoSectionEncoder().base64(DemoLiveChannelCues.spliceOut(id))) ?? ""
            var signal = XMLElement(
                name: "Signal", attributes: [XMLAttribute(name: "xmlns", value: "http://www.scte.org/schemas/35/2016")])
            signal.children = [.element(XMLElement(name: "Binary", children: [.text(payload)]))]
            events.children.append(
                .element(
                    XMLElement(
                        name: prefix + "Event",
                        attributes: [
                            XMLAttribute(
                                name: "presentationTime",
                                value: String((k - loopStart) * DemoLiveChannel.segmentDuration)),
                            XMLAttribute(name: "duration", value: String(DemoLiveChannel.breakDuration)),
                            XMLAttribute(name: "id", value: String(id)),
                        ],
                        children: [.element(signal)])))
        }
        if !events.children.isEmpty { period.children.append(.element(events)) }
        for set in sets {
            var element = set.element
            let representations = set.representations
            var number = 0
            element.children = element.children.compactMap { node -> XMLNode? in
                guard case .element(var child) = node else { return nil }
                if child.localName == "SegmentTemplate" { return nil }
                guard child.localName == "Representation" else { return node }
                defer { number += 1 }
                guard number < representations.count, let template = representations[number].segmentTemplate else {
                    return node
                }
                child.children = child.children.filter { !$0.isElement(named: "SegmentTemplate") }
                child.children.append(
                    .element(liveTemplate(template, segments: segments, loopStart: loopStart, prefix: prefix)))
                return .element(child)
            }
            period.children.append(.element(element))
        }
        return period
    }

    /// `template` with channel segments `segments` in a `SegmentTimeline`, numbered as the
    /// channel numbers them.
    func liveTemplate(
        _ template: SegmentTemplate, segments: ClosedRange<Int>, loopStart: Int, prefix: String
    )
        -> XMLElement
    {
        let timescale = max(1, template.timescale ?? 1)
        let length = DemoLiveChannel.segmentDuration * timescale
        var written = XMLElement(
            name: prefix + "SegmentTemplate",
            attributes: [
                XMLAttribute(name: "timescale", value: String(timescale)),
                XMLAttribute(name: "initialization", value: template.initialization ?? ""),
                XMLAttribute(name: "media", value: template.media ?? ""),
                XMLAttribute(name: "startNumber", value: String(segments.lowerBound + 1)),
            ])
        var timeline = XMLElement(name: prefix + "SegmentTimeline")
        timeline.children = [
            .element(
                XMLElement(
                    name: prefix + "S",
                    attributes: [
                        XMLAttribute(name: "t", value: String((segments.lowerBound - loopStart) * length)),
                        XMLAttribute(name: "d", value: String(length)),
                        XMLAttribute(name: "r", value: String(segments.count - 1)),
                    ]))
        ]
        written.children = [.element(timeline)]
        return written
    }

    /// The sample file a segment name of the channel plays: `v0-013.m4s` → `v0-003.m4s`
    /// (`$Number%03d$`), initialization segments as they are; nil for any other name.
    package static func sampleFile(_ name: Substring) -> String? {
        guard name.hasSuffix(".m4s"), !name.contains("/"), !name.contains("..") else { return nil }
        if name.hasPrefix("init-") { return String(name) }
        let stem = name.dropLast(4)
        guard let dash = stem.lastIndex(of: "-"), let number = Int(stem[stem.index(after: dash)...]), number >= 1
        else { return nil }
        let inLoop = (number - 1) % DemoLiveChannel.loopSegments + 1
        let digits = String(inLoop)
        return stem[..<dash] + "-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits + ".m4s"
    }
}

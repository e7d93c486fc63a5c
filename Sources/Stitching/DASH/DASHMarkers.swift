import DASH
import SCTE35

/// The breaks a VOD MPD marks itself, as `VODMarkers` reads an HLS title's cues: SCTE-35 events in
/// its `EventStream`s, binary (`urn:scte:scte35:2014:xml+bin`, `urn:scte:scte35:2013:bin`: a
/// base64 splice_info_section) or XML (`urn:scte:scte35:2013:xml`: a `SpliceInfoSection` element).
/// An event that starts a break (a splice out, or an advertisement or placement opportunity
/// start) marks one at its presentation time, lasting the event's `duration` or the section's
/// break duration; cancellations and returns mark none.
public enum DASHMarkers {
    static let schemes: Set<String> = [
        "urn:scte:scte35:2014:xml+bin", "urn:scte:scte35:2013:bin", "urn:scte:scte35:2013:xml",
    ]

    /// The marked breaks of `mpd` in content order (at most `VODMarkers.maxBreaks`).
    public static func breaks(in mpd: MPD) -> [VODMarkers.Marker] {
        var found: [(time: Double, seconds: Double?)] = []
        var elapsed = 0.0
        let periods = mpd.periods
        for (index, period) in periods.enumerated() {
            let start = period.start ?? elapsed
            for stream in period.eventStreams {
                guard let scheme = stream.schemeIdUri?.lowercased(), schemes.contains(scheme) else { continue }
                let timescale = Double(max(1, stream.timescale))
                let offset = stream.element[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0
                for event in stream.events {
                    guard let planned = breakStart(event.element, xml: scheme.hasSuffix(":xml")) else { continue }
                    let time = start + Double(event.presentationTime &- min(offset, event.presentationTime)) / timescale
                    let seconds = event.duration.map { Double($0) / timescale } ?? planned.seconds
                    found.append((time, seconds))
                }
            }
            let next = periods[safe: index + 1]?.start
            elapsed = start + (period.duration ?? next.map { $0 - start } ?? 0)
        }
        var markers: [VODMarkers.Marker] = []
        for (time, seconds) in found.sorted(by: { $0.time < $1.time }) {
            let position: BreakPosition = time < 0.05 ? .preroll : .midroll(seconds: time)
            // Sorted: a repeat of the same time can only follow the marker before it.
            if let last = markers.last, abs(last.position.cuePoint - position.cuePoint) < 0.05 { continue }
            markers.append(VODMarkers.Marker(position: position, seconds: seconds))
            if markers.count == VODMarkers.maxBreaks { break }
        }
        return Array(markers.prefix(VODMarkers.maxBreaks))
    }

    /// A break an event starts: its length, when the payload says.
    struct Start {
        var seconds: Double?
    }

    /// The break an event's payload starts; nil when it starts none.
    static func breakStart(_ event: XMLElement, xml: Bool) -> Start? {
        if !xml {
            let binary = event.elements(named: "Signal").first?.elements(named: "Binary").first?.text ?? event.text
            let payload = binary.filter { !$0.isWhitespace }
            guard !payload.isEmpty, let section = try? SpliceInfoSection(base64: payload, options: .lenient),
                CueDialect.kind(of: section) == .out
            else { return nil }
            return Start(seconds: section.breakDurationSeconds)
        }
        guard let section = event.elements(named: "SpliceInfoSection").first else { return nil }
        if let insert = section.elements(named: "SpliceInsert").first {
            guard flag(insert[attribute: "outOfNetworkIndicator"]),
                !flag(insert[attribute: "spliceEventCancelIndicator"])
            else { return nil }
            let ticks = insert.elements(named: "BreakDuration").first?[attribute: "duration"].flatMap { Double($0) }
            return Start(seconds: ticks.map { $0 / 90_000 })
        }
        for descriptor in section.elements(named: "TimeSignal").isEmpty
            ? [] : section.elements(named: "SegmentationDescriptor")
        {
            guard let type = descriptor[attribute: "segmentationTypeId"].flatMap({ UInt8($0) }),
                SegmentationType(rawValue: type).isAdStart,
                !flag(descriptor[attribute: "segmentationEventCancelIndicator"])
            else { continue }
            let ticks = descriptor[attribute: "segmentationDuration"].flatMap { Double($0) }
            return Start(seconds: ticks.map { $0 / 90_000 })
        }
        return nil
    }

    static func flag(_ value: String?) -> Bool { value == "true" || value == "1" }

    /// `mpd` without the SCTE-35 events that mark the breaks at `times` (content seconds), for
    /// `sessions.removeOriginCues`: a player's own ad logic does not react to a break that
    /// already holds its ads. Events of other schemes, and of breaks that play content, stay.
    public static func removing(breaksAt times: [Double], from mpd: MPD) -> MPD {
        guard !times.isEmpty else { return mpd }
        var document = mpd.document
        let periods = mpd.periods
        var elapsed = 0.0
        var periodNumber = 0
        for index in document.root.children.indices {
            guard case .element(var element) = document.root.children[index], element.localName == "Period",
                let period = periods[safe: periodNumber]
            else { continue }
            let start = period.start ?? elapsed
            let next = periods[safe: periodNumber + 1]?.start
            elapsed = start + (period.duration ?? next.map { $0 - start } ?? 0)
            periodNumber += 1
            for child in element.children.indices {
                guard case .element(var stream) = element.children[child], stream.localName == "EventStream",
                    let scheme = stream[attribute: "schemeIdUri"]?.lowercased(), schemes.contains(scheme)
                else { continue }
                let timescale = Double(max(1, stream[attribute: "timescale"].flatMap { UInt64($0) } ?? 1))
                let offset = stream[attribute: "presentationTimeOffset"].flatMap { UInt64($0) } ?? 0
                stream.children = stream.children.filter { node in
                    guard case .element(let event) = node, event.localName == "Event" else { return true }
                    let at = event[attribute: "presentationTime"].flatMap { UInt64($0) } ?? 0
                    let time = start + Double(at &- min(offset, at)) / timescale
                    return !times.contains { abs($0 - time) < 0.05 }
                }
                element.children[child] = .element(stream)
            }
            document.root.children[index] = .element(element)
        }
        return (try? MPD(document: document)) ?? mpd
    }
}

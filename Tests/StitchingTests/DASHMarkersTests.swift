import DASH
import SCTE35
import Testing

@testable import Stitching

/// A VOD MPD's own break marks: SCTE-35 events in its event streams, as `VODMarkers` reads an HLS
/// title's cue tags.
@Suite struct DASHMarkersTests {
    static func mpd(events: String) throws -> MPD {
        try MPD(
            parsing: """
                <?xml version="1.0"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="urn:scte:scte35:2013:xml" type="static" mediaPresentationDuration="PT120S">
                  <Period id="p0" start="PT0S" duration="PT60S">
                    \(events)
                    <AdaptationSet contentType="video"><SegmentTemplate timescale="1" duration="6" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet>
                  </Period>
                  <Period id="p1" duration="PT60S">
                    <EventStream schemeIdUri="urn:scte:scte35:2013:xml" timescale="90000" presentationTimeOffset="900000">
                      <Event presentationTime="1800000"><scte35:SpliceInfoSection><scte35:SpliceInsert outOfNetworkIndicator="true"><scte35:BreakDuration duration="1350000"/></scte35:SpliceInsert></scte35:SpliceInfoSection></Event>
                    </EventStream>
                    <AdaptationSet contentType="video"><SegmentTemplate timescale="1" duration="6" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet>
                  </Period>
                </MPD>
                """)
    }

    @Test func spliceOutsAndOpportunityStartsMarkBreaksAtTheirTimes() throws {
        let binary = try SpliceInfoSectionEncoder().base64(
            .spliceInsert(.programOut(eventID: 7, breakDuration: 20 * 90_000)))
        let back = try SpliceInfoSectionEncoder().base64(.spliceInsert(.programIn(eventID: 7)))
        let markers = DASHMarkers.breaks(
            in: try Self.mpd(
                events: """
                    <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1000">
                      <Event presentationTime="0"><Signal xmlns="http://www.scte.org/schemas/35/2016"><Binary>\(binary)</Binary></Signal></Event>
                      <Event presentationTime="30000" duration="15000"><Signal xmlns="http://www.scte.org/schemas/35/2016"><Binary>\(binary)</Binary></Signal></Event>
                      <Event presentationTime="50000"><Signal xmlns="http://www.scte.org/schemas/35/2016"><Binary>\(back)</Binary></Signal></Event>
                    </EventStream>
                    <EventStream schemeIdUri="urn:example:other" timescale="1"><Event presentationTime="40"/></EventStream>
                    """))
        // A pre-roll (its section's 20 s), a mid-roll lasting the event's 15 s, the return and
        // the other scheme nothing, and the second period's XML splice at 60 + (1,800,000 -
        // 900,000) / 90,000 = 70 s, lasting its break duration (15 s).
        #expect(markers.map(\.position) == [.preroll, .midroll(seconds: 30), .midroll(seconds: 70)])
        #expect(markers.map(\.seconds) == [20, 15, 15])
    }

    @Test func aMPDWithoutEventsMarksNothing() throws {
        #expect(DASHMarkers.breaks(in: try Self.mpd(events: "")).map(\.position) == [.midroll(seconds: 70)])
        let cancelled = """
            <EventStream schemeIdUri="urn:scte:scte35:2013:xml" timescale="1"><Event presentationTime="10"><scte35:SpliceInfoSection><scte35:SpliceInsert outOfNetworkIndicator="true" spliceEventCancelIndicator="true"/></scte35:SpliceInfoSection></Event></EventStream>
            """
        #expect(DASHMarkers.breaks(in: try Self.mpd(events: cancelled)).count == 1)
    }

    /// `sessions.removeOriginCues`: the events of filled breaks leave the MPD, the others stay.
    @Test func theEventsOfFilledBreaksCanBeRemoved() throws {
        let binary = try SpliceInfoSectionEncoder().base64(.spliceInsert(.programOut(eventID: 7)))
        let mpd = try Self.mpd(
            events: """
                <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1"><Event presentationTime="10" id="a"><Signal><Binary>\(binary)</Binary></Signal></Event><Event presentationTime="40" id="b"><Signal><Binary>\(binary)</Binary></Signal></Event></EventStream>
                <EventStream schemeIdUri="urn:example:other" timescale="1"><Event presentationTime="10" id="c"/></EventStream>
                """)
        let kept = DASHMarkers.removing(breaksAt: [10, 70], from: mpd)
        #expect(kept.periods[0].eventStreams.map { $0.events.map(\.id) } == [["b"], ["c"]])
        #expect(kept.periods[1].eventStreams.map { $0.events.count } == [0])
        #expect(DASHMarkers.breaks(in: kept).map(\.position) == [.midroll(seconds: 40)])
    }
}

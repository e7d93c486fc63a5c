import Foundation
import VAST

/// The demo VAST/VMAP files in `Samples/vast`, with their placeholders filled.
package enum SampleVAST {
    package static let adsBase = "http://ads.test"
    package static let trackBase = "http://track.test"

    package static var directory: URL {
        // Sources/SeamTesting/VASTFixtures.swift → the package root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/vast")
    }

    package static func text(_ name: String, adsBase: String = adsBase, trackBase: String = trackBase) throws -> String
    {
        let raw = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return raw.replacingOccurrences(of: "{{ADS_BASE}}", with: adsBase).replacingOccurrences(
            of: "{{TRACK_BASE}}", with: trackBase)
    }

    package static func document(_ name: String) throws -> VASTDocument {
        try VASTParser().parse(text(name))
    }
}

/// Inline VAST fixtures.
package enum InlineVAST {
    /// An InLine ad with one HLS creative (or only an MP4 when `hls` is false).
    package static func ad(
        id: String, sequence: Int? = nil, duration: String = "00:00:10", hls: Bool = true,
        track: String = SampleVAST.trackBase
    ) -> String {
        let sequenceAttribute = sequence.map { " sequence=\"\($0)\"" } ?? ""
        let media =
            hls
            ? "<MediaFile delivery=\"streaming\" type=\"application/x-mpegURL\" width=\"1280\" height=\"720\"><![CDATA[http://ads.test/media/\(id)/master.m3u8]]></MediaFile>"
            : "<MediaFile delivery=\"progressive\" type=\"video/mp4\" width=\"1280\" height=\"720\"><![CDATA[http://ads.test/media/\(id).mp4]]></MediaFile>"
        return """
            <Ad id="\(id)"\(sequenceAttribute)><InLine>
              <AdSystem>Fixture</AdSystem><AdTitle>\(id)</AdTitle>
              <Error><![CDATA[\(track)/track/\(id)/error?code=[ERRORCODE]]]></Error>
              <Impression><![CDATA[\(track)/track/\(id)/impression]]></Impression>
              <Creatives><Creative id="\(id)-creative"><Linear>
                <Duration>\(duration)</Duration>
                <TrackingEvents>
                  <Tracking event="start"><![CDATA[\(track)/track/\(id)/start]]></Tracking>
                  <Tracking event="progress" offset="00:00:05"><![CDATA[\(track)/track/\(id)/progress5]]></Tracking>
                </TrackingEvents>
                <MediaFiles>\(media)</MediaFiles>
              </Linear></Creative></Creatives>
            </InLine></Ad>
            """
    }

    package static func vast(_ ads: String...) -> String {
        "<VAST version=\"4.2\">" + ads.joined() + "</VAST>"
    }

    /// A wrapper ad pointing at `target`, with its own error and impression beacons.
    package static func wrapper(id: String, target: String, track: String = SampleVAST.trackBase) -> String {
        """
        <VAST version="4.2"><Ad id="\(id)"><Wrapper>
          <AdSystem>Fixture Wrapper</AdSystem>
          <Error><![CDATA[\(track)/track/\(id)/error?code=[ERRORCODE]]]></Error>
          <Impression><![CDATA[\(track)/track/\(id)/impression]]></Impression>
          <VASTAdTagURI><![CDATA[\(target)]]></VASTAdTagURI>
        </Wrapper></Ad></VAST>
        """
    }
}

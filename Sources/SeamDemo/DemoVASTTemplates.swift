/// The VAST documents the demo ad server makes up, and the placeholder substitution for the files
/// in `Samples/vast`.
///
/// The generated ones exist for Seam's fallback tests: a wrapper that points at itself, a chain
/// deeper than the 5 wrappers Seam follows, and XML that does not parse. Each carries its own
/// `Impression`/`Error` beacons so a test can see which of them Seam called.
package enum DemoVASTTemplates {
    /// Replaces `{{ADS_BASE}}` and `{{TRACK_BASE}}` (see `Samples/vast/README.md`).
    package static func substitute(_ template: String, adsBase: String, trackBase: String) -> String {
        template
            .replacingAll("{{ADS_BASE}}", with: adsBase)
            .replacingAll("{{TRACK_BASE}}", with: trackBase)
    }

    /// A one-level VAST 4.2 `Wrapper` whose `VASTAdTagURI` is `next`, with beacons under
    /// `/track/<id>/...`.
    package static func wrapper(id: String, next: String, trackBase: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="4.2" xmlns="http://www.iab.com/VAST">
          <Ad id="\(id)">
            <Wrapper followAdditionalWrappers="true" allowMultipleAds="false" fallbackOnNoAd="false">
              <AdSystem version="1.0">Seam Demo Wrapper</AdSystem>
              <Error><![CDATA[\(trackBase)/track/\(id)/error?code=[ERRORCODE]]]></Error>
              <Impression id="\(id)-impression"><![CDATA[\(trackBase)/track/\(id)/impression?cb=[CACHEBUSTING]]]></Impression>
              <VASTAdTagURI><![CDATA[\(next)]]></VASTAdTagURI>
              <Creatives>
                <Creative id="\(id)-creative">
                  <Linear>
                    <TrackingEvents>
                      <Tracking event="start"><![CDATA[\(trackBase)/track/\(id)/start]]></Tracking>
                      <Tracking event="complete"><![CDATA[\(trackBase)/track/\(id)/complete]]></Tracking>
                    </TrackingEvents>
                  </Linear>
                </Creative>
              </Creatives>
            </Wrapper>
          </Ad>
        </VAST>

        """
    }

    /// A wrapper whose ad tag is its own URL: Seam must detect the loop (`WRAPPER_LOOP`) or stop at
    /// the depth limit, not spin.
    package static func wrapperLoop(adsBase: String, trackBase: String) -> String {
        wrapper(id: "wrapper-loop", next: "\(adsBase)/vast/wrapper-loop", trackBase: trackBase)
    }

    /// Wrapper number `depth` of a chain: it points at `depth - 1`, and wrapper 1 points at the
    /// inline `vast-midroll.xml`. So `depth` is the number of wrappers before the ad; above 5 Seam
    /// must give up with `WRAPPER_LIMIT`.
    package static func wrapperChain(depth: Int, adsBase: String, trackBase: String) -> String {
        let next = depth > 1 ? "\(adsBase)/vast/wrapper-chain?depth=\(depth - 1)" : "\(adsBase)/vast/vast-midroll.xml"
        return wrapper(id: "wrapper-chain-\(depth)", next: next, trackBase: trackBase)
    }

    /// Truncated, unbalanced XML: what a crashed ad server or a cut connection leaves behind.
    package static let malformed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="4.2" xmlns="http://www.iab.com/VAST">
          <Ad id="malformed">
            <InLine>
              <AdSystem>Seam Demo (malformed)</AdSystem>
              <AdTitle>broken & unescaped</AdTitle>
              <Creatives>
                <Creative>
                  <Linear>
                    <Duration>00:00:10.000
        """
}

extension String {
    /// `replacingOccurrences(of:with:)` without Foundation's NSString bridging on Linux.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

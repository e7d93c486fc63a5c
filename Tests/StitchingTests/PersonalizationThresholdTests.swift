import Testing

@testable import Stitching

/// The personalization threshold on a live break's layout: the share of the break its ads must
/// fill for Seam to replace it.
@Suite struct PersonalizationThresholdTests {
    /// Ads of 10 s and 15 s (5 s segments) in a break of `seconds`, slate of 5 s segments.
    static func layout(_ seconds: Double) -> LiveBreakLayout {
        LiveBreakLayout.make(breakDuration: seconds, ads: [[5, 5], [5, 5, 5]], slate: [5])
    }

    @Test(
        arguments: [
            // break seconds, threshold → below it (content plays)
            (30.0, 0.0, false),  // off
            (30.0, 0.8, false),  // 25 of 30 s = 0.83
            (30.0, 0.9, true),
            (25.0, 1.0, false),  // a full break meets 1
            (25.2, 1.0, false),  // within the layout's tolerance
            (120.0, 0.25, true),  // 25 of 120 s
            (120.0, 0.2, false),
        ] as [(Double, Double, Bool)])
    func threshold(breakSeconds: Double, threshold: Double, below: Bool) {
        let layout = Self.layout(breakSeconds)
        #expect(layout.adSeconds == 25)
        #expect(layout.isBelowThreshold(threshold, breakDuration: breakSeconds) == below)
    }

    @Test func aBreakWithoutAdsIsNotThresholdsBusiness() {
        let empty = LiveBreakLayout.make(breakDuration: 30, ads: [], slate: [5])
        #expect(empty.adSeconds == 0)
        #expect(!empty.isBelowThreshold(0.5, breakDuration: 30))
    }
}

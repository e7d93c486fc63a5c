import HLS
import Testing
@testable import Stitching

/// One break outcome for VOD cue points and live cues: what each decided ad's creative came to,
/// and the one rule for why a break plays no ads. Tables, no I/O.
@Suite struct BreakOutcomeTests {
    @Test(
        "The one skip-reason rule",
        arguments: [
            // (decided, ad server's reason, usable, played, skips) → reason
            (0, nil, 0, 0, [], AvailSkipReason.noFill),
            (0, .adsTimeout, 0, 0, [], .adsTimeout),
            (0, .wrapperLimit, 0, 0, [], .wrapperLimit),
            (2, nil, 1, 0, [.doesNotFit(breakSeconds: 5)], .breakTooShort),
            (
                2, nil, 0, 0, [.unusable("no H.264"), .conditioning(creativeURL: "https://ads.test/a.mp4")],
                .transcodeInProgress
            ),
            (1, nil, 0, 0, [.late(creativeURL: "https://ads.test/a.m3u8")], .noVariantMatch),
            (1, nil, 0, 0, [.failed("creative playlist answered 404")], .noVariantMatch),
            (1, nil, 0, 0, [.unusable("another container")], .noVariantMatch),
        ] as [(Int, AvailSkipReason?, Int, Int, [AdSkip], AvailSkipReason)])
    func skipReason(
        decided: Int, adServer: AvailSkipReason?, usable: Int, played: Int, skips: [AdSkip], expected: AvailSkipReason
    ) {
        #expect(
            AvailSkipReason.forBreak(
                decided: decided, adServerReason: adServer, usable: usable, played: played, skipped: skips) == expected)
    }

    @Test("A break where an ad plays has no skip reason, whatever was left out")
    func played() {
        #expect(
            AvailSkipReason.forBreak(
                decided: 3, adServerReason: nil, usable: 2, played: 1,
                skipped: [.conditioning(creativeURL: "u"), .doesNotFit(breakSeconds: 10)]) == nil)
    }

    @Test(
        "Each ad's creative: loaded and fitted, conditioning, failed, late, unusable — in pod order, with the tracking JSON's words"
    )
    func resolve() {
        let ads = ["a", "b", "c", "d", "e"].map { TitleFixture.ad($0, duration: 10) }
        let creative = TitleFixture.creative("x", segments: 2)
        let availability: [String: CreativeAvailability] = [
            ads[0].creativeURL: .loaded(creative), ads[1].creativeURL: .conditioning,
            ads[2].creativeURL: .failed("the MP4 creative could not be conditioned: no video stream"),
            ads[4].creativeURL: .loaded(creative),
        ]
        var fitted = 0
        let outcome = BreakOutcome<String>.resolve(ads, availability: { availability[$0.creativeURL] ?? .late }) { _ in
            fitted += 1
            return fitted == 1 ? .success("fits") : .failure(.unusable("its video is HEVC; the content is H.264"))
        }
        #expect(outcome.usable.map(\.ad.id) == ["a"])
        #expect(outcome.skipped.map(\.adID) == ["b", "c", "d", "e"])
        #expect(
            outcome.skipped.map(\.skip) == [
                .conditioning(creativeURL: ads[1].creativeURL),
                .failed("the MP4 creative could not be conditioned: no video stream"),
                .late(creativeURL: ads[3].creativeURL),
                .unusable("its video is HEVC; the content is H.264"),
            ])
        #expect(outcome.skipped[0].skip.reason.contains("TRANSCODE_IN_PROGRESS"))
        #expect(outcome.skipped[2].skip.reason.contains("ads.totalBudgetSeconds"))
        #expect(
            AvailSkipReason.forBreak(
                decided: 5, adServerReason: nil, usable: 1, played: 1, skipped: outcome.skipped.map(\.skip)) == nil)
        #expect(
            AvailSkipReason.forBreak(
                decided: 5, adServerReason: nil, usable: 0, played: 0, skipped: outcome.skipped.map(\.skip))
                == .transcodeInProgress)
    }
}

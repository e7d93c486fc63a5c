import Testing
import SeamTesting
@testable import SeamServer

@Suite("AdDecision: ad tag URL")
struct AdDecisionTagURLTests {
    let client = AdDecisionClient(
        upstream: FakeUpstream(), configuration: .init(),
        beacons: BeaconDispatcher(upstream: FakeUpstream(), configuration: .init(), logger: quietLogger),
        logger: quietLogger)

    func url(_ template: String, _ context: AdRequestContext) -> String {
        client.adTagURL(
            template: template, context: context, cacheBuster: "12345678", timestamp: "2026-01-02T03:04:05.678Z")
    }

    @Test func sessionPlaceholdersAreFilledAndEncoded() {
        var context = AdRequestContext(sessionID: "s 1", contentURL: "https://cdn.example/v/master.m3u8?token=a&b=c")
        context.contentID = "movie/42"
        context.contentDurationSeconds = 60.5
        context.customParameters = ["kind": "sports & news", "empty": ""]
        let result = url(
            "https://ads.example/tag?sid={session.id}&c={session.contentUrl}&id={session.contentId}"
                + "&d={session.durationMs}&k={player.params.kind}&m={player.params.missing}&a={avail.index}&keep={other}",
            context)
        #expect(
            result
                == "https://ads.example/tag?sid=s%201&c=https%3A%2F%2Fcdn.example%2Fv%2Fmaster.m3u8%3Ftoken%3Da%26b%3Dc"
                + "&id=movie%2F42&d=60500&k=sports%20%26%20news&m=&a=0&keep={other}")
    }

    @Test func iabMacrosAreFilled() {
        var context = sampleContext(breakPosition: .midroll(seconds: 30))
        context.gdpr = true
        context.gdprConsent = "CONSENT+STRING=="
        context.allowStorage = false
        let result = url(
            "https://ads.example/vast?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&bp=[BREAKPOSITION]&ss=[SERVERSIDE]"
                + "&ip=[DEVICEIP]&ua=[DEVICEUA]&g=[GDPR]&gc=[GDPRCONSENT]&lat=[LIMITADTRACKING]&ph=[CONTENTPLAYHEAD]"
                + "&tx=[TRANSACTIONID]&reg=[REGULATIONS]&later=[ADPLAYHEAD]", context)
        #expect(
            result == "https://ads.example/vast?cb=12345678&ts=2026-01-02T03%3A04%3A05.678Z&bp=2&ss=1"
                + "&ip=203.0.113.7&ua=TestPlayer%2F1.0%20%28SmartTV%29&g=1&gc=CONSENT%2BSTRING%3D%3D&lat=1&ph=00%3A00%3A30.000"
                // No ad plays yet: [ADPLAYHEAD] is VAST's unknown value, not literal text.
                + "&tx=sess-1-0&reg=gdpr&later=-1"
                // The template names them `g` and `gc`, so the standard names are appended too.
                + "&gdpr=1&gdpr_consent=CONSENT%2BSTRING%3D%3D")
    }

    @Test func breakPositionsMapToIABValues() {
        #expect(
            url("x?bp=[BREAKPOSITION]", AdRequestContext(sessionID: "s", contentURL: "c", breakPosition: .preroll))
                == "x?bp=1")
        #expect(
            url("x?bp=[BREAKPOSITION]", AdRequestContext(sessionID: "s", contentURL: "c", breakPosition: .postroll))
                == "x?bp=3")
    }

    @Test func adParametersAreAppendedSortedAndEncoded() {
        var context = AdRequestContext(sessionID: "s", contentURL: "c")
        context.adParameters = ["z": "last", "a b": "x&y=z", "iu": "/123/video"]
        #expect(
            url("https://ads.example/tag?iu=/default&sz=640x480#frag", context)
                == "https://ads.example/tag?iu=%2F123%2Fvideo&sz=640x480&a%20b=x%26y%3Dz&z=last#frag")
        #expect(
            url("https://ads.example/tag", context)
                == "https://ads.example/tag?a%20b=x%26y%3Dz&iu=%2F123%2Fvideo&z=last")
    }

    @Test func consentAndPALNonceAreAppendedOnce() {
        var context = AdRequestContext(sessionID: "s", contentURL: "c")
        context.gdpr = false
        context.gdprConsent = "abc"
        context.palNonce = "nonce/+="
        #expect(
            url("https://ads.example/tag?x=1", context)
                == "https://ads.example/tag?x=1&gdpr=0&gdpr_consent=abc&paln=nonce%2F%2B%3D")
        // Already in the template (here through macros): not appended a second time.
        #expect(
            url("https://ads.example/tag?gdpr=[GDPR]&gdpr_consent=[GDPRCONSENT]&paln=given", context)
                == "https://ads.example/tag?gdpr=0&gdpr_consent=abc&paln=given")
    }

    /// An IAB macro without a value for this viewer is VAST's "unknown", -1, and appends nothing
    /// (before: left as literal text, which made the whole URL invalid and every parameter went
    /// out encoded twice). Bracketed text that is no IAB macro is left as written.
    @Test func unsetMacrosAreUnknownAndAddNothing() {
        let context = AdRequestContext(sessionID: "s", contentURL: "c")
        #expect(
            url("https://ads.example/tag?ip=[DEVICEIP]&g=[GDPR]&ua=[deviceua]", context)
                == "https://ads.example/tag?ip=-1&g=-1&ua=-1")
        #expect(url("https://ads.example/tag?x=[NOTAMACRO]", context) == "https://ads.example/tag?x=[NOTAMACRO]")
    }

    @Test func sessionValuesCannotInjectMacros() {
        var context = sampleContext()
        context.customParameters = ["p": "[DEVICEIP]"]
        context.adParameters = ["q": "[DEVICEUA]"]
        #expect(
            url("https://ads.example/tag?p={player.params.p}", context)
                == "https://ads.example/tag?p=%5BDEVICEIP%5D&q=%5BDEVICEUA%5D")
    }

    @Test func deterministicForTheSameInputs() {
        var context = sampleContext()
        context.adParameters = ["b": "2", "a": "1", "c": "3", "d": "4"]
        let template = "https://ads.example/tag?cb=[CACHEBUSTING]&sid={session.id}"
        let first = url(template, context)
        for _ in 0..<20 { #expect(url(template, context) == first) }
    }
}

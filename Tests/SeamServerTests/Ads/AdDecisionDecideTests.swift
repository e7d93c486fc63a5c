import Testing
import VAST
import SeamDemo
import SeamTesting
@testable import SeamServer
import Stitching

@Suite("AdDecision: decide")
struct AdDecisionDecideTests {
    let track = SampleVAST.trackBase

    @Test func inlineAdIsResolvedWithEverythingTrackingNeeds() async throws {
        let document = try SampleVAST.document("vast-midroll.xml")
        let decision = try await withAdClient(upstream: FakeUpstream()) { client in
            await client.decide(
                document, documentURL: "http://ads.test/vast/vast-midroll.xml", context: sampleContext(),
                deadline: farDeadline())
        }
        #expect(decision.skipReason == nil)
        let ad = try #require(decision.ads.first)
        #expect(decision.ads.count == 1)
        #expect(ad.adID == "ad3")
        #expect(ad.title?.isEmpty == false)
        #expect(ad.adSystem == "Seam Demo Ad Server")
        #expect(ad.creativeID == "ad3-creative")
        #expect(ad.universalAdIDs == ["seam-demo:SEAM-AD3"])
        #expect(ad.duration == 20)
        #expect(ad.hlsURL == "http://ads.test/media/ads/ad3/master.m3u8")
        #expect(ad.impressionURLs == ["\(track)/track/ad3/impression?cb=[CACHEBUSTING]"])
        for event in ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
            #expect(ad.trackingURLs[event] == ["\(track)/track/ad3/\(event)"], "\(event)")
        }
        #expect(ad.errorURLs == ["\(track)/track/ad3/error?code=[ERRORCODE]"])
        #expect(ad.clickThrough == "https://example.com/?seam-demo=ad3")
        #expect(ad.clickTrackingURLs == ["\(track)/track/ad3/click"])
    }

    @Test func podPlaysInSequenceOrder() async throws {
        let decision = try await withAdClient(upstream: FakeUpstream()) { client in
            await client.decide(
                try SampleVAST.document("vast-pod-preroll.xml"), documentURL: nil, context: sampleContext(),
                deadline: farDeadline())
        }
        #expect(decision.ads.map(\.adID) == ["ad1", "ad2"])
        #expect(decision.ads.map(\.sequence) == [1, 2])
        #expect(decision.ads.map(\.duration) == [10, 15])

        // Document order is not play order.
        let reversed = try VASTParser().parse(
            InlineVAST.vast(InlineVAST.ad(id: "second", sequence: 2), InlineVAST.ad(id: "first", sequence: 1)))
        let reordered = try await withAdClient(upstream: FakeUpstream()) { client in
            await client.decide(reversed, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(reordered.ads.map(\.adID) == ["first", "second"])
    }

    @Test func buffetPlaysTheFirstUsableAd() async throws {
        let document = try VASTParser().parse(
            InlineVAST.vast(
                InlineVAST.ad(id: "mp4only", hls: false), InlineVAST.ad(id: "good"), InlineVAST.ad(id: "alternative")))
        let upstream = FakeUpstream()
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(document, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.ads.map(\.adID) == ["good"])
        #expect(decision.skippedIDs == ["mp4only"])
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/mp4only/error?code=403"])
    }

    @Test func progressEventsKeepTheirOffsets() async throws {
        let document = try VASTParser().parse(InlineVAST.vast(InlineVAST.ad(id: "p")))
        let decision = try await withAdClient(upstream: FakeUpstream()) { client in
            await client.decide(document, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        let ad = try #require(decision.ads.first)
        #expect(ad.trackingURLs["progress"] == nil)
        #expect(
            ad.progressTracking == [
                VASTTrackingEvent(event: .progress, url: "\(track)/track/p/progress5", offset: .seconds(5))
            ])
    }

    @Test func verificationsAndUniversalAdIDsAreKeptForClients() async throws {
        let document = try VASTParser().parse(
            """
            <VAST version="4.1"><Ad id="v"><InLine>
              <AdSystem version="2">Verifier</AdSystem><AdTitle>Verified</AdTitle>
              <Impression><![CDATA[http://track.test/track/v/impression]]></Impression>
              <AdVerifications><Verification vendor="example.com-omid">
                <JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://verify.example/omid.js]]></JavaScriptResource>
                <VerificationParameters><![CDATA[campaign=1]]></VerificationParameters>
              </Verification></AdVerifications>
              <Creatives>
                <Creative id="companion-only"><CompanionAds><Companion width="300" height="250"/></CompanionAds></Creative>
                <Creative id="c1" adId="creative-ad-id">
                  <UniversalAdId idRegistry="Ad-ID">ABCD1234000H</UniversalAdId>
                  <UniversalAdId idRegistry="clearcast">XYZ/123</UniversalAdId>
                  <Linear><Duration>00:00:06.500</Duration>
                    <VideoClicks><ClickThrough><![CDATA[https://brand.example/]]></ClickThrough></VideoClicks>
                    <MediaFiles>
                      <MediaFile delivery="streaming" type="application/vnd.apple.mpegurl"><![CDATA[https://ads.example/v/index.m3u8]]></MediaFile>
                    </MediaFiles>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine></Ad></VAST>
            """)
        let decision = try await withAdClient(upstream: FakeUpstream()) { client in
            await client.decide(document, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        let ad = try #require(decision.ads.first)
        #expect(ad.creativeID == "c1")
        #expect(ad.universalAdIDs == ["Ad-ID:ABCD1234000H", "clearcast:XYZ/123"])
        #expect(ad.duration == 6.5)
        #expect(ad.hlsURL == "https://ads.example/v/index.m3u8")
        #expect(ad.adSystem == "Verifier")
        #expect(ad.verificationXML.count == 1)
        #expect(ad.verificationXML.first?.contains("https://verify.example/omid.js") == true)
        #expect(ad.verificationXML.first?.contains("example.com-omid") == true)
    }

    @Test func wrapperChainMergesTrackingAndImpressions() async throws {
        let upstream = FakeUpstream([
            "http://ads.test/vast/vast-midroll.xml": .body(try SampleVAST.text("vast-midroll.xml"))
        ])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try SampleVAST.document("vast-wrapper.xml"), documentURL: "http://ads.test/vast/vast-wrapper.xml",
                context: sampleContext(), deadline: farDeadline())
        }
        let ad = try #require(decision.ads.first)
        #expect(ad.adID == "ad3")
        #expect(
            Set(ad.impressionURLs) == [
                "\(track)/track/ad3/impression?cb=[CACHEBUSTING]",
                "\(track)/track/wrapper/impression?cb=[CACHEBUSTING]",
            ])
        #expect(Set(ad.trackingURLs["start"] ?? []) == ["\(track)/track/ad3/start", "\(track)/track/wrapper/start"])
        #expect(
            Set(ad.trackingURLs["complete"] ?? []) == [
                "\(track)/track/ad3/complete", "\(track)/track/wrapper/complete",
            ])
        #expect(Set(ad.clickTrackingURLs) == ["\(track)/track/ad3/click", "\(track)/track/wrapper/click"])
        #expect(
            Set(ad.errorURLs) == [
                "\(track)/track/ad3/error?code=[ERRORCODE]", "\(track)/track/wrapper/error?code=[ERRORCODE]",
            ])
        let wrapperRequest = try #require(await upstream.recorder.requests(purpose: .adDecision).first)
        #expect(wrapperRequest.url == "http://ads.test/vast/vast-midroll.xml")
        #expect(wrapperRequest.headers.contains { $0.name == "X-Device-IP" && $0.value == "203.0.113.7" })
        #expect(await upstream.recorder.urls(purpose: .beacon).isEmpty)
    }

    @Test func wrapperTagURIMacrosAreFilledAndRelativeURIsResolved() async throws {
        let wrapper = InlineVAST.wrapper(id: "w", target: "inline.xml?cb=[CACHEBUSTING]&ip=[DEVICEIP]")
        let upstream = FakeUpstream(["http://ads.test/vast/inline.xml": .body(InlineVAST.vast(InlineVAST.ad(id: "x")))])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(wrapper), documentURL: "http://ads.test/vast/tag.xml", context: sampleContext(),
                deadline: farDeadline())
        }
        #expect(decision.ads.map(\.adID) == ["x"])
        let fetched = try #require(await upstream.recorder.urls(purpose: .adDecision).first)
        #expect(fetched.hasPrefix("http://ads.test/vast/inline.xml?cb="))
        #expect(fetched.hasSuffix("&ip=203.0.113.7"))
        #expect(!fetched.contains("[CACHEBUSTING]"))
    }

    @Test func emptyVASTIsNoFillAndCallsTheErrorURLWith303() async throws {
        let upstream = FakeUpstream()
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try SampleVAST.document("vast-empty.xml"), documentURL: nil, context: sampleContext(),
                deadline: farDeadline())
        }
        #expect(decision.ads.isEmpty)
        #expect(decision.skipReason == .noFill)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/empty/error?code=303"])
    }

    @Test func creativeWithoutHLSIsSkippedWith403() async throws {
        let upstream = FakeUpstream()
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try SampleVAST.document("vast-no-hls.xml"), documentURL: nil, context: sampleContext(),
                deadline: farDeadline())
        }
        #expect(decision.ads.isEmpty)
        #expect(decision.skipReason == .noVariantMatch)
        #expect(decision.skippedAds.count == 1)
        #expect(decision.skippedAds.first?.adID == "nohls")
        #expect(decision.skippedAds.first?.reason == "no HLS MediaFile")
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/nohls/error?code=403"])
    }

    @Test func podKeepsItsUsableAdsWhenOneHasNoHLS() async throws {
        let document = try VASTParser().parse(
            InlineVAST.vast(
                InlineVAST.ad(id: "a", sequence: 1), InlineVAST.ad(id: "b", sequence: 2, hls: false),
                InlineVAST.ad(id: "c", sequence: 3)))
        let upstream = FakeUpstream()
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(document, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.ads.map(\.adID) == ["a", "c"])
        #expect(decision.skipReason == nil)
        #expect(decision.skippedIDs == ["b"])
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/b/error?code=403"])
    }

    @Test func malformedWrapperTargetIsInvalidVASTWith100() async throws {
        let upstream = FakeUpstream(["http://ads.test/broken": .body("<VAST version=\"4.2\"><Ad><InLine>")])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/broken")),
                documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .invalidVAST)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/w/error?code=100"])
    }

    @Test func wrapperLoopIsDetected() async throws {
        let upstream = FakeUpstream([
            "http://ads.test/w1": .body(InlineVAST.wrapper(id: "w1", target: "http://ads.test/w2")),
            "http://ads.test/w2": .body(InlineVAST.wrapper(id: "w2", target: "http://ads.test/w1")),
        ])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w0", target: "http://ads.test/w1")),
                documentURL: "http://ads.test/tag", context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .wrapperLoop)
        #expect(decision.detail?.contains("loops") == true)
        let beacons = Set(await upstream.recorder.urls(purpose: .beacon))
        #expect(
            beacons == [
                "\(track)/track/w0/error?code=302", "\(track)/track/w1/error?code=302",
                "\(track)/track/w2/error?code=302",
            ])
        // w0 → w1 → w2 → (w1 again: stopped without a fetch).
        #expect(await upstream.recorder.urls(purpose: .adDecision) == ["http://ads.test/w1", "http://ads.test/w2"])
    }

    /// Five wrappers are allowed (IAB), six are not.
    @Test(arguments: [5, 6])
    func wrapperDepthLimit(wrappers: Int) async throws {
        var routes: [String: FakeRoute] = [:]
        for level in 1..<wrappers {
            routes["http://ads.test/w\(level)"] = .body(
                InlineVAST.wrapper(id: "w\(level)", target: "http://ads.test/w\(level + 1)"))
        }
        routes["http://ads.test/w\(wrappers)"] = .body(InlineVAST.vast(InlineVAST.ad(id: "deep")))
        let upstream = FakeUpstream(routes)
        let top = try VASTParser().parse(InlineVAST.wrapper(id: "w0", target: "http://ads.test/w1"))
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(top, documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        if wrappers <= 5 {
            #expect(decision.ads.map(\.adID) == ["deep"])
            #expect(await upstream.recorder.urls(purpose: .beacon).isEmpty)
        } else {
            #expect(decision.ads.isEmpty)
            #expect(decision.skipReason == .wrapperLimit)
            let beacons = await upstream.recorder.urls(purpose: .beacon)
            #expect(beacons.count == 6)
            #expect(beacons.allSatisfy { $0.hasSuffix("error?code=302") })
            #expect(Set(beacons) == Set((0..<6).map { "\(track)/track/w\($0)/error?code=302" }))
        }
    }

    @Test func failingWrapperFetchIsAdsErrorWith301() async throws {
        let upstream = FakeUpstream(["http://ads.test/down": .status(500, "")])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/down")),
                documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .adsError)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/w/error?code=301"])
    }

    @Test func slowWrapperIsAdsTimeoutWith301() async throws {
        let upstream = FakeUpstream([
            "http://ads.test/slow": .error(.timeout(url: "http://ads.test/slow", after: .seconds(2)))
        ])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/slow")),
                documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .adsTimeout)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/w/error?code=301"])
    }

    @Test func wrapperChainNeverOutlivesTheDeadline() async throws {
        // The fetcher overlooks time-outs; the decision must still come back by the deadline.
        // The fake answers after 300 s; coming back well before proves the deadline held (the
        // bound is loose because a busy two-core machine can delay the time-out by seconds: 11 s
        // was seen under stress-suite).
        let upstream = FakeUpstream([
            "http://ads.test/slow": .delay(.seconds(300), .body(InlineVAST.vast(InlineVAST.ad(id: "late"))))
        ])
        let start = ContinuousClock.now
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/slow")),
                documentURL: nil, context: sampleContext(), deadline: .now + .milliseconds(400))
        }
        #expect(ContinuousClock.now - start < .seconds(120))
        #expect(decision.skipReason == .adsTimeout)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["\(track)/track/w/error?code=301"])
    }

    @Test func wrapperToEmptyResponseIsNoFillWith303() async throws {
        let upstream = FakeUpstream(["http://ads.test/empty": .body(try SampleVAST.text("vast-empty.xml"))])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/empty")),
                documentURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .noFill)
        #expect(
            Set(await upstream.recorder.urls(purpose: .beacon)) == [
                "\(track)/track/w/error?code=303", "\(track)/track/empty/error?code=303",
            ])
    }

    @Test func errorBeaconsGetContextMacros() async throws {
        let document = try VASTParser().parse(
            """
            <VAST version="4.2"><Error><![CDATA[http://track.test/track/e?code=[ERRORCODE]&ip=[DEVICEIP]&cb=[CACHEBUSTING]&bp=[BREAKPOSITION]]]></Error></VAST>
            """)
        let upstream = FakeUpstream()
        _ = try await withAdClient(upstream: upstream) { client in
            await client.decide(
                document, documentURL: nil, context: sampleContext(breakPosition: .postroll), deadline: farDeadline())
        }
        let beacon = try #require(await upstream.recorder.urls(purpose: .beacon).first)
        #expect(beacon.hasPrefix("http://track.test/track/e?code=303&ip=203.0.113.7&cb="))
        #expect(beacon.hasSuffix("&bp=3"))
        #expect(!beacon.contains("[CACHEBUSTING]"))
    }
}

@Suite("AdDecision: VMAP breaks")
struct AdDecisionVMAPTests {
    @Test func everyBreakOfTheDemoVMAPIsDecided() async throws {
        let upstream = FakeUpstream([
            "http://ads.test/vast/vast-pod-preroll.xml": .body(try SampleVAST.text("vast-pod-preroll.xml")),
            "http://ads.test/vast/vast-wrapper.xml": .body(try SampleVAST.text("vast-wrapper.xml")),
            "http://ads.test/vast/vast-midroll.xml": .body(try SampleVAST.text("vast-midroll.xml")),
        ])
        let vmap = try VMAPParser().parse(SampleVAST.text("vmap-demo.xml"))
        let decisions = try await withAdClient(upstream: upstream) { client in
            var decisions: [AdBreakDecision] = []
            for (index, adBreak) in vmap.adBreaks.enumerated() {
                let context = AdRequestContext(sessionID: "s", contentURL: "c", breakIndex: index)
                decisions.append(
                    await client.decideBreak(
                        adBreak, vmapURL: "http://ads.test/vast/vmap-demo.xml", context: context,
                        deadline: farDeadline()))
            }
            return decisions
        }
        #expect(decisions.map { $0.ads.map(\.adID) } == [["ad1", "ad2"], ["ad3"], ["ad4"]])
        #expect(decisions.allSatisfy { $0.skipReason == nil })
        #expect(await upstream.recorder.urls(purpose: .beacon).isEmpty)
    }

    @Test func failedAdTagURICallsTheBreakErrorURLWithVMAPCode() async throws {
        let upstream = FakeUpstream(["http://ads.test/vast/vast-pod-preroll.xml": .status(500, "")])
        let vmap = try VMAPParser().parse(SampleVAST.text("vmap-demo.xml"))
        let preroll = try #require(vmap.adBreaks.first)
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decideBreak(preroll, vmapURL: nil, context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .adsError)
        #expect(await upstream.recorder.urls(purpose: .beacon) == ["http://track.test/track/preroll/error?code=1008"])
    }

    @Test func sourcesWithoutVASTAreNoFill() async throws {
        let custom = VMAPAdSource(content: .customAdData(templateType: "proprietary", innerXML: "<x/>"))
        let none = VMAPAdSource(content: .none)
        let invalid = VMAPAdSource(content: .invalidVASTAdData(.emptyInput))
        let decisions = try await withAdClient(upstream: FakeUpstream()) { client in
            [
                await client.decideBreak(
                    source: custom, vmapURL: nil, context: sampleContext(), deadline: farDeadline()),
                await client.decideBreak(source: none, vmapURL: nil, context: sampleContext(), deadline: farDeadline()),
                await client.decideBreak(
                    source: invalid, vmapURL: nil, context: sampleContext(), deadline: farDeadline()),
            ]
        }
        #expect(decisions.map(\.skipReason) == [.noFill, .noFill, .invalidVAST])
    }

    @Test func followRedirectsFalseStopsAtTheFirstWrapper() async throws {
        let wrapper = try VASTParser().parse(InlineVAST.wrapper(id: "w", target: "http://ads.test/inline"))
        let upstream = FakeUpstream(["http://ads.test/inline": .body(InlineVAST.vast(InlineVAST.ad(id: "x")))])
        let decision = try await withAdClient(upstream: upstream) { client in
            await client.decideBreak(
                source: VMAPAdSource(followRedirects: false, content: .vastAdData(wrapper)), vmapURL: nil,
                context: sampleContext(), deadline: farDeadline())
        }
        #expect(decision.skipReason == .wrapperLimit)
        #expect(await upstream.recorder.urls(purpose: .adDecision).isEmpty)
    }
}

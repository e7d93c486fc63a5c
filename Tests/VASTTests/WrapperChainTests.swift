import Testing
@testable import VAST

@Suite("Wrapper chains")
struct WrapperChainTests {
    @Test("wrapper attributes: defaults and lenient spellings")
    func wrapperAttributes() throws {
        let wrappers = try Fixtures.parse("wrapper-attributes-multiple-ads.xml").ads.compactMap(\.wrapper)
        #expect(wrappers.map(\.allowMultipleAds) == [false, false, true, true])
        #expect(wrappers.map(\.followAdditionalWrappers) == [true, false, true, false])
        #expect(wrappers.map(\.fallbackOnNoAd) == [nil, nil, nil, nil])
        #expect(wrappers.map(\.vastAdTagURI) == ["sample.xml", "wrapper-b.xml", "wrapper-b.xml", "sample.xml"])
        #expect(wrappers.first?.adSystem == VASTAdSystem(name: "iabtechlab", version: "4.0"))
    }

    @Test("VAST 2 VASTAdTagURL/URL is read as the tag URI")
    func legacyWrapper() async throws {
        let document = try Fixtures.parse("wrapper-legacy.xml")
        #expect(document.version == "2.0")
        #expect(document.errorURLs == ["http://example.com/wrapper-error"])
        #expect(document.ads.first?.wrapper?.vastAdTagURI == "inline-linear.xml")

        let resolution = await WrapperChain().resolve(document: document, fetch: Fixtures.fileFetcher())
        let ad = try #require(resolution.ads.first)
        #expect(ad.id == "20001")
        #expect(
            ad.impressions.map(\.url) == [
                "http://example.com/track/impression", "http://example.com/wrapper-impression",
            ])
        #expect(
            ad.linears.first?.trackingURLs(for: .start) == [
                "http://example.com/tracking/start", "http://example.com/wrapper-start",
            ])
    }

    @Test("wrapper-a -> wrapper-b -> sample.xml merges every wrapper's beacons into the InLine ad")
    func chainAtoBtoSample() async throws {
        let document = try Fixtures.parse("wrapper-a.xml")
        let log = FetchLog()
        let resolution = await WrapperChain().resolve(document: document, fetch: Fixtures.fileFetcher(log: log))
        #expect(await log.uris.sorted() == ["sample.xml", "vpaid.xml", "wrapper-b.xml"])
        #expect(resolution.failures.isEmpty)
        #expect(resolution.ads.map(\.id) == ["ad_id_0002", "VPAID"])

        // allowMultipleAds defaults to false: the first stand-alone ad of sample.xml is taken.
        let ad = resolution.ads[0]
        #expect(ad.sequence == nil)
        #expect(ad.adTitle == "Ad title 2")
        #expect(
            ad.impressions.map(\.url) == [
                "http://example.com/impression1",
                "http://example.com/wrapperB-impression1", "http://example.com/wrapperB-impression2",
                "http://example.com/wrapperA-impression",
            ])
        #expect(ad.errorURLs == ["http://example.com/wrapperB-error", "http://example.com/wrapperA-error"])
        let linear = try #require(ad.linears.first)
        #expect(linear.duration == 30)
        #expect(
            linear.trackingURLs(for: .start) == [
                "http://example.com/wrapperB-linear-start", "http://example.com/wrapperA-linear-start1",
                "http://example.com/wrapperA-linear-start2",
            ])
        #expect(
            linear.trackingEvents.filter { $0.event == .progress }.map(\.offset) == [
                .seconds(30), .percent(60), .seconds(30), .percent(60), .percent(90),
            ])
        #expect(
            linear.videoClicks.clickTracking.map(\.url) == [
                "http://example.com/linear-clicktracking",
                "http://example.com/wrapperB-linear-clicktracking",
                "http://example.com/wrapperA-linear-clicktracking1",
                "http://example.com/wrapperA-linear-clicktracking2",
                "http://example.com/wrapperA-linear-clicktracking3",
            ])
        // The InLine ad has no ClickThrough, so the wrapper's is used.
        #expect(linear.videoClicks.clickThrough?.url == "http://example.com/wrapperB-linear-clickthrough")
        #expect(linear.videoClicks.customClicks.map(\.url) == ["http://example.com/wrapperA-linear-customclick"])

        let vpaid = resolution.ads[1]
        #expect(vpaid.impressions.map(\.url) == ["http://example.com/track/impression"])
        #expect(vpaid.errorURLs == ["http://example.com/error"])
    }

    @Test("allowMultipleAds: pods keep their place; sequence of the wrapper wins")
    func multipleAds() async throws {
        let document = try Fixtures.parse("wrapper-multiple-ads.xml")
        let resolution = await WrapperChain().resolve(document: document, fetch: Fixtures.fileFetcher())
        #expect(resolution.failures.isEmpty)
        #expect(resolution.ads.map(\.id) == ["ad_id_0001", "ad_id_0002", "VPAID", "20001", "preroll-1"])
        #expect(resolution.ads.map(\.sequence) == [1, nil, 1, 2, nil])
        #expect(resolution.document.podAds.map(\.id) == ["ad_id_0001", "VPAID", "20001"])
        #expect(resolution.document.standaloneAds.map(\.id) == ["ad_id_0002", "preroll-1"])
    }

    @Test("followAdditionalWrappers=false drops wrapper responses; allowMultipleAds=true keeps all ads")
    func followAndMultipleFlags() async throws {
        let document = try Fixtures.parse("wrapper-attributes-multiple-ads.xml")
        let resolution = await WrapperChain().resolve(document: document, fetch: Fixtures.fileFetcher())
        #expect(resolution.ads.map(\.id) == ["ad_id_0002", "ad_id_0002", "ad_id_0001", "ad_id_0002"])
        #expect(resolution.failures.count == 1)
        let failure = try #require(resolution.failures.first)
        #expect(failure.adId == "202")
        #expect(failure.outcome == .noAd(errorURLs: ["http://example.com/error"]))
        #expect(failure.outcome.errorCode == .noAdsAfterWrapper)
    }

    @Test("empty response after a wrapper: noAd (303) with the wrapper's and the response's Error URLs")
    func emptyAfterWrapper() async throws {
        let ad = try #require(try Fixtures.parse("wrapper-empty.xml").ads.first)
        let outcome = await WrapperChain().resolve(ad: ad, fetch: Fixtures.fileFetcher())
        #expect(
            outcome
                == .noAd(errorURLs: [
                    "http://example.com/wrapper-empty_wrapper-error", "http://example.com/empty-no-ad",
                ]))
        #expect(outcome.errorCode == .noAdsAfterWrapper)
        #expect(outcome.ads.isEmpty)
    }

    @Test("InLine without creatives resolves; choosing creatives is the stitcher's job")
    func noCreativeAfterWrapper() async throws {
        let ad = try #require(try Fixtures.parse("wrapper-empty-no-creative.xml").ads.first)
        let outcome = await WrapperChain().resolve(ad: ad, fetch: Fixtures.fileFetcher())
        let resolved = try #require(outcome.ads.first)
        #expect(resolved.creatives.isEmpty)
        #expect(
            resolved.errorURLs == [
                "http://example.com/empty-no-creative_inline-error",
                "http://example.com/wrapper-no-creative_wrapper-error",
            ])
        #expect(resolved.impressions.map(\.url) == ["http://example.com/wrapper-impression"])
    }

    @Test("fetch failure: fetchFailed (301) naming the URI")
    func unavailableURL() async throws {
        let ad = try #require(try Fixtures.parse("wrapper-unavailable-url.xml").ads.first)
        let outcome = await WrapperChain().resolve(ad: ad, fetch: Fixtures.fileFetcher())
        guard case .fetchFailed(let uri, let reason, let urls) = outcome else {
            Issue.record("expected fetchFailed, got \(outcome)")
            return
        }
        #expect(uri == "invalid-url")
        #expect(reason.contains("invalid-url"))
        #expect(urls == ["http://example.com/wrapper-invalid-xmlfile_wrapper-error"])
        #expect(outcome.errorCode == .wrapperTimeout)
    }

    @Test("malformed response after a wrapper: invalidResponse (100)")
    func malformedResponse() async throws {
        let root = try VASTParser().parse(Make.wrapper(id: "w", uri: "invalid-xmlfile.xml"))
        let resolution = await WrapperChain().resolve(document: root, fetch: Fixtures.fileFetcher())
        let outcome = try #require(resolution.failures.first?.outcome)
        guard case .invalidResponse(let uri, let error, let urls) = outcome else {
            Issue.record("expected invalidResponse, got \(outcome)")
            return
        }
        #expect(uri == "invalid-xmlfile.xml")
        #expect(error.vastErrorCode == .xmlParsingError)
        #expect(urls == ["https://err.example/w?code=[ERRORCODE]"])
        #expect(outcome.errorCode == .xmlParsingError)
        #expect(resolution.ads.isEmpty)
    }

    @Test("loop: a tag URI seen twice on one chain stops it (302)")
    func loop() async throws {
        let documents = ["a": Make.wrapper(id: "a", uri: "b"), "b": Make.wrapper(id: "b", uri: "a")]
        let root = try VASTParser().parse(Make.wrapper(id: "root", uri: "a"))
        let log = FetchLog()
        let resolution = await WrapperChain().resolve(
            document: root, fetch: Fixtures.memoryFetcher(documents, log: log))
        #expect(await log.uris == ["a", "b"])
        let outcome = try #require(resolution.failures.first?.outcome)
        #expect(
            outcome
                == .loop(
                    uri: "a",
                    errorURLs: [
                        "https://err.example/root?code=[ERRORCODE]", "https://err.example/a?code=[ERRORCODE]",
                        "https://err.example/b?code=[ERRORCODE]",
                    ]))
        #expect(outcome.errorCode == .wrapperLimitReached)
    }

    @Test("initialURI catches a chain that leads back to the first response")
    func loopToInitialURI() async throws {
        let root = try VASTParser().parse(Make.wrapper(id: "root", uri: "next"))
        let documents = ["next": Make.wrapper(id: "next", uri: "https://ads.example/first")]
        let resolution = await WrapperChain().resolve(
            document: root, initialURI: "https://ads.example/first", fetch: Fixtures.memoryFetcher(documents))
        guard case .loop(let uri, _)? = resolution.failures.first?.outcome else {
            Issue.record("expected a loop, got \(resolution.failures)")
            return
        }
        #expect(uri == "https://ads.example/first")
    }

    /// Wrapper 1 is the root document; wrappers 2...n are fetched; "inline" ends the chain.
    private func chain(of wrappers: Int) -> (root: String, documents: [String: String]) {
        var documents: [String: String] = ["inline": Make.inline(id: "final")]
        for index in 2...wrappers {
            documents["w\(index)"] = Make.wrapper(id: "w\(index)", uri: index == wrappers ? "inline" : "w\(index + 1)")
        }
        return (Make.wrapper(id: "w1", uri: "w2"), documents)
    }

    @Test("5 wrappers deep resolves, with 5 wrappers' impressions merged")
    func fiveWrappers() async throws {
        let (root, documents) = chain(of: 5)
        let ad = try #require(try VASTParser().parse(root).ads.first)
        let log = FetchLog()
        let outcome = await WrapperChain().resolve(ad: ad, fetch: Fixtures.memoryFetcher(documents, log: log))
        #expect(await log.uris == ["w2", "w3", "w4", "w5", "inline"])
        let resolved = try #require(outcome.ads.first)
        #expect(resolved.id == "final")
        #expect(
            resolved.impressions.map(\.url) == [
                "https://imp.example/final", "https://imp.example/w5", "https://imp.example/w4",
                "https://imp.example/w3", "https://imp.example/w2", "https://imp.example/w1",
            ])
        #expect(resolved.linears.first?.trackingURLs(for: .start).count == 6)
        #expect(resolved.linears.first?.hlsMediaFiles.map(\.url) == ["https://ads.example/final/master.m3u8"])
    }

    @Test("6 wrappers deep: limitExceeded (302) before the 6th wrapper is followed")
    func sixWrappers() async throws {
        let (root, documents) = chain(of: 6)
        let ad = try #require(try VASTParser().parse(root).ads.first)
        let log = FetchLog()
        let outcome = await WrapperChain().resolve(ad: ad, fetch: Fixtures.memoryFetcher(documents, log: log))
        #expect(await log.uris == ["w2", "w3", "w4", "w5", "w6"])
        guard case .limitExceeded(let depth, let urls) = outcome else {
            Issue.record("expected limitExceeded, got \(outcome)")
            return
        }
        #expect(depth == 6)
        #expect(urls.count == 6)
        #expect(outcome.errorCode == .wrapperLimitReached)
    }

    @Test("maxFetches bounds fan-out across parallel chains")
    func fetchBudget() async throws {
        let document = try Fixtures.parse("wrapper-multiple-ads.xml")
        let resolution = await WrapperChain(maxFetches: 2).resolve(document: document, fetch: Fixtures.fileFetcher())
        #expect(resolution.failures.count == 2)
        for failure in resolution.failures {
            guard case .fetchLimitReached = failure.outcome else {
                Issue.record("expected fetchLimitReached, got \(failure.outcome)")
                continue
            }
        }
    }

    @Test("state machine: step, candidates and merge without any fetch")
    func pureSteps() throws {
        let wrapperAd = try #require(try VASTParser().parse(Make.wrapper(id: "w", uri: "next", sequence: 3)).ads.first)
        let inlineAd = try #require(try VASTParser().parse(Make.inline(id: "i")).ads.first)
        let chain = WrapperChain(maxDepth: 2)

        #expect(chain.step(inlineAd) == .inline(inlineAd))
        guard case .fetch(let uri, let next) = chain.step(wrapperAd) else {
            Issue.record("expected a fetch step")
            return
        }
        #expect(uri == "next")
        #expect(next.depth == 1)
        #expect(next.adTagURIs == ["next"])
        #expect(
            next.step(wrapperAd)
                == .stop(
                    .loop(
                        uri: "next",
                        errorURLs: ["https://err.example/w?code=[ERRORCODE]", "https://err.example/w?code=[ERRORCODE]"])
                ))
        #expect(
            WrapperChain(maxDepth: 0).step(wrapperAd)
                == .stop(.limitExceeded(depth: 1, errorURLs: ["https://err.example/w?code=[ERRORCODE]"])))

        guard case .inline(let merged) = next.step(inlineAd) else {
            Issue.record("expected an inline step")
            return
        }
        #expect(merged.impressions.map(\.url) == ["https://imp.example/i", "https://imp.example/w"])
        #expect(
            merged.linears.first?.trackingURLs(for: .start) == [
                "https://track.example/i/start", "https://track.example/w/start",
            ])

        let pod = try VASTParser().parse(
            """
            <VAST version="4.0"><Ad id="p2" sequence="2"><InLine/></Ad><Ad id="p1" sequence="1"><InLine/></Ad></VAST>
            """)
        #expect(next.candidates(in: pod)?.map(\.id) == ["p1"])  // allowMultipleAds=false, pod only: first of the pod
        #expect(next.candidates(in: VASTDocument()) == nil)

        let noURI = try #require(
            try VASTParser().parse("<VAST version=\"3.0\"><Ad><Wrapper><Error>https://e</Error></Wrapper></Ad></VAST>")
                .ads.first)
        #expect(chain.step(noURI) == .stop(.missingAdTagURI(errorURLs: ["https://e"])))
        #expect(WrapperOutcome.missingAdTagURI(errorURLs: []).errorCode == .generalWrapperError)
    }

    @Test("a resolved wrapper ad with a sequence passes it on to the ad it resolves to")
    func sequenceInheritance() async throws {
        let root = try VASTParser().parse(
            """
            <VAST version="4.0">
              <Ad id="w" sequence="2"><Wrapper><VASTAdTagURI>x</VASTAdTagURI></Wrapper></Ad>
              <Ad id="i" sequence="1"><InLine><AdTitle>first</AdTitle></InLine></Ad>
            </VAST>
            """)
        let resolution = await WrapperChain().resolve(
            document: root, fetch: Fixtures.memoryFetcher(["x": Make.inline(id: "from-x", sequence: 7)]))
        #expect(resolution.ads.map(\.id) == ["from-x", "i"])
        #expect(resolution.document.podAds.map(\.id) == ["i", "from-x"])
        #expect(resolution.document.podAds.map(\.sequence) == [1, 2])
    }
}

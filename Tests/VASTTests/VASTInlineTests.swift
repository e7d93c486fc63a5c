import Testing
@testable import VAST

@Suite("InLine ads")
struct VASTInlineTests {
    @Test("sample.xml: ad, impressions, errors, pricing, pod and buffet")
    func sampleDocument() throws {
        let document = try Fixtures.parse("sample.xml")
        #expect(document.version == "4.3")
        #expect(document.ads.count == 2)
        #expect(document.podAds.map(\.id) == ["ad_id_0001"])
        #expect(document.standaloneAds.map(\.id) == ["ad_id_0002"])

        let ad = try #require(document.ads.first)
        #expect(ad.sequence == 1)
        #expect(ad.adSystem == VASTAdSystem(name: "AdServer", version: "2.0"))
        #expect(ad.adTitle == "Ad title")
        let inline = try #require(ad.inline)
        #expect(inline.adServingId == "a532d16d-4d7f-4440-bd29-2ec0e693fc80")
        #expect(inline.advertiser == "Advertiser name")
        #expect(inline.pricing == VASTPricing(model: "CPM", currency: "USD", value: "1.09"))
        #expect(inline.pricing?.amount == 1.09)
        #expect(inline.errorURLs == ["http://example.com/error_[ERRORCODE]"])
        #expect(inline.impressions.map(\.id) == ["sample-impression1", "sample-impression2", "sample-impression3"])
        #expect(inline.impressions.first?.url == "http://example.com/impression1_asset:[ASSETURI]_[CACHEBUSTING]")
        #expect(inline.extensions.map(\.type) == ["Pricing", "Count", nil])
        // Attributes are written back in the order the ad server wrote them.
        #expect(inline.extensions[0].innerXML.contains("<Price model=\"CPM\" currency=\"USD\" source=\"someone\">"))
        #expect(inline.extensions[1].innerXML.contains("<![CDATA[ 4 ]]>"))
    }

    @Test("sample.xml: AdVerifications light model and raw XML")
    func verifications() throws {
        let inline = try #require(try Fixtures.parse("sample.xml").ads.first?.inline)
        #expect(inline.verifications.count == 2)
        let first = inline.verifications[0]
        #expect(first.vendor == "company.com-omid")
        #expect(
            first.javaScriptResources == [
                .init(url: "http://example.com/omid1", apiFramework: "omid", browserOptional: true)
            ])
        #expect(first.parameters == nil)
        let second = inline.verifications[1]
        #expect(second.vendor == "company2.com-omid")
        #expect(second.javaScriptResources.first?.browserOptional == false)
        #expect(second.parameters == "test-verification-parameter")
        #expect(second.rawXML.hasPrefix("<Verification vendor=\"company2.com-omid\">"))
        #expect(second.rawXML.contains("<![CDATA[http://example.com/omid2]]>"))
    }

    @Test("sample.xml: linear creative, tracking, clicks, media files, mezzanine")
    func linearCreative() throws {
        let ad = try #require(try Fixtures.parse("sample.xml").ads.first)
        #expect(ad.creatives.count == 3)
        let creative = ad.creatives[0]
        #expect(creative.id == "id130984")
        #expect(creative.adId == "adId345690")
        #expect(creative.sequence == 1)
        #expect(creative.universalAdIds == [VASTUniversalAdId(idRegistry: "daily-motion-L1", value: "Linear-12345")])
        let linear = try #require(creative.linear)
        #expect(linear.duration == 90.123)
        #expect(linear.skipOffset == nil)
        #expect(linear.trackingEvents.count == 8)
        #expect(linear.trackingURLs(for: .start) == ["http://example.com/linear-start"])
        #expect(linear.trackingURLs(for: .thirdQuartile) == ["http://example.com/linear-thirdQuartile"])
        let progress = linear.trackingEvents.filter { $0.event == .progress }
        #expect(progress.map(\.offset) == [.seconds(30), .percent(60)])
        #expect(
            progress.map(\.url) == [
                "http://example.com/linear-progress-30sec", "http://example.com/linear-progress-60%",
            ])
        #expect(linear.trackingURLsByEvent[.midpoint] == ["http://example.com/linear-midpoint"])

        #expect(
            linear.videoClicks.clickThrough
                == VASTClick(id: "click-through", url: "http://example.com/linear-clickthrough_adplayhead:[ADPLAYHEAD]")
        )
        #expect(linear.videoClicks.clickTracking.map(\.id) == ["video-click-1", "video-click-2"])
        #expect(linear.videoClicks.customClicks.map(\.url) == ["http://example.com/linear-customclick"])

        #expect(linear.mediaFiles.count == 2)
        let mp4 = try #require(linear.mediaFiles(ofType: "video/mp4").first)
        #expect(mp4.delivery == .progressive)
        #expect(mp4.width == 512 && mp4.height == 288)
        #expect(mp4.bitrate == 849)
        #expect(mp4.scalable == true)
        #expect(mp4.url == "http://example.com/linear-asset.mp4")
        #expect(linear.mediaFiles(ofType: "application/javascript").first?.apiFramework == "VPAID")
        #expect(linear.hlsMediaFiles.isEmpty)
        #expect(
            linear.mezzanines == [
                VASTMezzanine(
                    id: "mezzanine-id-165468451", delivery: .progressive, type: "video/mp4", width: 1080,
                    height: 720, codec: "h264", fileSize: 700, url: "http://example.com/linear-mezzanine.mp4")
            ])
    }

    @Test("sample.xml: companion and non-linear creatives are counted, not modelled")
    func otherCreatives() throws {
        let ad = try #require(try Fixtures.parse("sample.xml").ads.first)
        #expect(ad.creatives[1].adId == "adId345691")  // written AdID="..."
        #expect(ad.creatives[1].linear == nil)
        #expect(ad.creatives[1].companionCount == 3)
        #expect(ad.creatives[2].nonLinearCount == 1)
        #expect(ad.linears.count == 1)
    }

    @Test("sample.xml: second ad has a skip offset, a bare-seconds duration and adID spelling")
    func secondAd() throws {
        let ad = try #require(try Fixtures.parse("sample.xml").ads.last)
        #expect(ad.id == "ad_id_0002")
        #expect(ad.sequence == nil)
        let creative = try #require(ad.creatives.first)
        #expect(creative.adId == "adId221144")
        #expect(creative.apiFramework == "VPAID")
        #expect(creative.linear?.skipOffset == .seconds(10))
        #expect(creative.linear?.duration == 30)
        #expect(creative.linear?.videoClicks.clickThrough == nil)
    }

    @Test("inline-linear.xml: pricing with CDATA whitespace, media file attributes, offsets")
    func inlineLinear() throws {
        let document = try Fixtures.parse("inline-linear.xml")
        let ad = try #require(document.ads.first)
        #expect(ad.id == "20001")
        #expect(ad.inline?.pricing?.value == "25.00")
        #expect(ad.inline?.pricing?.amount == 25)
        #expect(ad.impressions == [VASTImpression(id: "Impression-ID", url: "http://example.com/track/impression")])
        let linear = try #require(ad.linears.first)
        #expect(linear.duration == 16)
        #expect(linear.trackingEvents.first?.offset == .seconds(33_323))  // 09:15:23
        #expect(linear.videoClicks.clickTracking == [VASTClick(id: "blog", url: "https://iabtechlab.com")])
        let file = try #require(linear.mediaFiles.first)
        #expect(file.id == "5241")
        #expect(file.minBitrate == 360 && file.maxBitrate == 1080 && file.bitrate == 500)
        #expect(file.maintainAspectRatio == true)
        #expect(file.url == "https://iabtechlab.com/wp-content/uploads/2016/07/VAST-4.0-Short-Intro.mp4")
        #expect(document.diagnostics.isEmpty)
    }

    @Test("IAB 4.2: several UniversalAdIds after Linear, default namespace")
    func universalAdIds() throws {
        let document = try VASTParser().parse(Fixtures.bytes("iab/VAST4.2-Universal_Ad_ID-multi-test.xml"))
        #expect(document.version == "4.2")
        let creative = try #require(document.ads.first?.creatives.first)
        #expect(
            creative.universalAdIds == [
                VASTUniversalAdId(idRegistry: "Ad-ID", value: "8465"),
                VASTUniversalAdId(idRegistry: "FooId", value: "9999"),
                VASTUniversalAdId(idRegistry: "BarId", value: "ADSe9999"),
            ])
        #expect(creative.linear?.mediaFiles.map(\.bitrate) == [2000, 1000, 600])
        #expect(creative.linear?.mediaFiles.first?.codec == "H.264")
        #expect(
            document.ads.first?.inline?.categories == [
                VASTCategory(
                    authority: "https://www.iabtechlab.com/categoryauthority", value: "AD CONTENT description category")
            ])
    }

    @Test("IAB 4.1: Mezzanine and InteractiveCreativeFile next to MediaFile")
    func ssaiSeparation() throws {
        let document = try VASTParser().parse(Fixtures.bytes("iab/VAST4.1-SSAI_stitching_VPAID_separation-test.xml"))
        let ad = try #require(document.ads.first)
        #expect(ad.conditionalAd == false)
        let linear = try #require(ad.linears.first)
        #expect(linear.mediaFiles.count == 1)
        #expect(linear.mediaFiles.first?.bitrate == 2500)
        #expect(linear.mezzanines.first?.delivery == .streaming)
        #expect(linear.mezzanines.first?.width == 1280)
        #expect(linear.mezzanines.first?.url.hasPrefix("rtsp://pilot.iabtechlab.com/rawvideo?type=complete") == true)
        #expect(
            linear.interactiveCreativeFiles.map(\.url) == [
                "https://pilot.iabtechlab.com/beacon?type=complete&imprid=s5-ea2f7f298e28c0c98374491aec3dfeb1&ts=4235"
            ])
    }

    @Test("HLS media files: streaming delivery and either HLS MIME type, any case")
    func hlsMediaFiles() throws {
        let xml = """
            <VAST version="4.1"><Ad id="hls"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>https://i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:20.500</Duration><MediaFiles>
              <MediaFile delivery="streaming" type="application/x-mpegURL" width="1920" height="1080" minBitrate="1000" maxBitrate="6000" codec="avc1.640028,mp4a.40.2">
                <![CDATA[ https://ads.example/hls/master.m3u8 ]]>
              </MediaFile>
              <MediaFile delivery="STREAMING" type="APPLICATION/VND.APPLE.MPEGURL">https://ads.example/hls/alt.m3u8</MediaFile>
              <MediaFile delivery="progressive" type="application/x-mpegurl">https://ads.example/progressive.m3u8</MediaFile>
              <MediaFile delivery="streaming" type="application/dash+xml">https://ads.example/manifest.mpd</MediaFile>
              <MediaFile delivery="progressive" type="Video/MP4" bitrate=" 1500 ">https://ads.example/ad.mp4</MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let linear = try #require(try VASTParser().parse(xml).ads.first?.linears.first)
        #expect(linear.duration == 20.5)
        #expect(
            linear.hlsMediaFiles.map(\.url) == [
                "https://ads.example/hls/master.m3u8", "https://ads.example/hls/alt.m3u8",
            ])
        #expect(linear.hlsMediaFiles.first?.codec == "avc1.640028,mp4a.40.2")
        #expect(linear.hlsMediaFiles.first?.nominalBitrate == 6000)
        #expect(linear.mediaFiles(ofType: "video/mp4").map(\.bitrate) == [1500])
        #expect(linear.mediaFiles(ofType: "application/x-mpegURL").count == 2)
    }

    @Test("lenient: prefixes, capitalisation, whitespace, missing optional elements")
    func lenientInput() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <v:VAST xmlns:v="http://www.iab.com/VAST" version=" 3.0 ">
              <v:Ad ID="x1" Sequence=" 2 ">
                <v:InLine>
                  <v:AdSystem>  sys  </v:AdSystem>
                  <v:Impression>

                     <![CDATA[   https://imp.example/a?x=1&y=2   ]]>

                  </v:Impression>
                  <v:Impression></v:Impression>
                  <v:Creatives>
                    <v:Creative AdId="ad-1">
                      <v:Linear SkipOffset="25%">
                        <v:Duration>0:0:5</v:Duration>
                        <v:TrackingEvents>
                          <v:Tracking Event="FirstQuartile">https://t.example/q1?a=1&amp;b=2</v:Tracking>
                        </v:TrackingEvents>
                        <v:MediaFiles><v:mediafile Delivery="Progressive" Type="video/mp4" width="640.0">https://m.example/a.mp4</v:mediafile></v:MediaFiles>
                      </v:Linear>
                    </v:Creative>
                  </v:Creatives>
                </v:InLine>
              </v:Ad>
            </v:VAST>
            """
        let document = try VASTParser().parse(xml)
        #expect(document.version == "3.0")
        let ad = try #require(document.ads.first)
        #expect(ad.id == "x1")
        #expect(ad.sequence == 2)
        #expect(ad.adSystem?.name == "sys")
        #expect(ad.adTitle == nil)
        #expect(ad.impressions.map(\.url) == ["https://imp.example/a?x=1&y=2"])
        let creative = try #require(ad.creatives.first)
        #expect(creative.adId == "ad-1")
        let linear = try #require(creative.linear)
        #expect(linear.skipOffset == .percent(25))
        #expect(linear.skipOffset?.seconds(duration: linear.duration) == 1.25)
        #expect(linear.duration == 5)
        #expect(linear.trackingURLs(for: .firstQuartile) == ["https://t.example/q1?a=1&b=2"])
        #expect(linear.mediaFiles.first?.delivery == .progressive)
        #expect(linear.mediaFiles.first?.width == 640)
    }

    @Test("unreadable values become diagnostics with line numbers, not failures")
    func diagnostics() throws {
        let xml = """
            <VAST version="4.0">
              <Ad sequence="first"><InLine><Creatives><Creative><Linear skipoffset="soon">
                <Duration>about a minute</Duration>
                <MediaFiles><MediaFile type="video/mp4"></MediaFile></MediaFiles>
              </Linear></Creative></Creatives></InLine></Ad>
              <Ad id="nothing"/>
            </VAST>
            """
        let document = try VASTParser().parse(xml)
        #expect(document.ads.count == 1)
        let linear = try #require(document.ads.first?.linears.first)
        #expect(linear.duration == nil)
        #expect(linear.skipOffset == nil)
        #expect(linear.mediaFiles.isEmpty)
        #expect(document.ads.first?.sequence == nil)
        let lines = document.diagnostics.map { "\($0.line ?? 0) \($0.element)" }
        #expect(lines == ["2 Ad", "2 Linear", "3 Duration", "4 MediaFile", "6 Ad"])
        #expect(
            document.diagnostics[2].description
                == "line 3: <Duration>: unreadable duration \"about a minute\"; expected HH:MM:SS(.mmm)")
    }

    @Test("VAST 4.0 UniversalAdId with idValue attribute")
    func universalAdIdValueAttribute() throws {
        let xml = """
            <VAST version="4.0"><Ad><InLine><Creatives><Creative>
              <UniversalAdId idRegistry="Ad-ID" idValue="CNPA0484000H"/>
              <UniversalAdId>unknown-registry-id</UniversalAdId>
            </Creative></Creatives></InLine></Ad></VAST>
            """
        let creative = try #require(try VASTParser().parse(xml).ads.first?.creatives.first)
        #expect(
            creative.universalAdIds == [
                VASTUniversalAdId(idRegistry: "Ad-ID", value: "CNPA0484000H"),
                VASTUniversalAdId(idRegistry: "unknown", value: "unknown-registry-id"),
            ])
    }

    @Test("VAST 3 AdVerifications inside an Extension are found too")
    func vast3Verifications() throws {
        let xml = """
            <VAST version="3.0"><Ad><InLine><Extensions><Extension type="AdVerifications"><AdVerifications>
              <Verification vendor="v.example"><JavaScriptResource apiFramework="omid">https://v.example/omid.js</JavaScriptResource>
              <TrackingEvents><Tracking event="verificationNotExecuted">https://v.example/ne?r=[REASON]</Tracking></TrackingEvents></Verification>
            </AdVerifications></Extension></Extensions></InLine></Ad></VAST>
            """
        let verification = try #require(try VASTParser().parse(xml).ads.first?.inline?.verifications.first)
        #expect(verification.vendor == "v.example")
        #expect(verification.javaScriptResources.map(\.url) == ["https://v.example/omid.js"])
        #expect(
            verification.trackingEvents == [
                VASTTrackingEvent(event: .verificationNotExecuted, url: "https://v.example/ne?r=[REASON]")
            ])
    }
}

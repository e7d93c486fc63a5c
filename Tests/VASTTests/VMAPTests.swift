import Testing
@testable import VAST

@Suite("VMAP")
struct VMAPTests {
    @Test("correct-vmap.xml: breaks, offsets, sources and tracking with undeclared xsi: prefixes")
    func correctVMAP() throws {
        let document = try VMAPParser().parse(Fixtures.vmap("correct-vmap.xml"))
        #expect(document.version == "1.0")
        #expect(document.adBreaks.map(\.breakId) == ["mypre", "myid", "mypost"])
        #expect(document.adBreaks.map(\.timeOffset) == [.start, .time(623.125), .end])
        #expect(document.adBreaks.map(\.breakTypes) == [[.linear], [.linear], [.linear]])

        let pre = document.adBreaks[0]
        #expect(pre.adSource?.id == "1")
        #expect(pre.adSource?.allowMultipleAds == true)
        #expect(pre.adSource?.followRedirects == true)
        #expect(pre.adSource?.vastAdData?.version == "3.0")
        #expect(pre.adSource?.vastAdData?.ads.isEmpty == true)
        #expect(pre.trackingURLs(for: .breakStart) == ["http://server.com/breakstart"])
        #expect(pre.trackingURLs(for: .breakEnd) == ["http://server.com/breakend", "http://server.com/breakend2"])
        #expect(pre.trackingURLs(for: .error) == ["http://server.com/error?[ERRORCODE]"])

        let post = document.adBreaks[2]
        #expect(post.adSource?.content == .adTagURI("http://server.com/vast.xml", templateType: nil))
        #expect(post.adSource?.adTagURI == "http://server.com/vast.xml")
        #expect(post.timeOffset.breakPosition == .postRoll)
        #expect(document.diagnostics.isEmpty)
    }

    @Test("VMAP extensions are kept raw")
    func extensions() throws {
        let document = try VMAPParser().parse(Fixtures.vmap("correct-vmap-with-extension.xml"))
        let adBreak = try #require(document.adBreaks.first)
        #expect(adBreak.extensions.count == 2)
        #expect(adBreak.extensions[0].attributes["extAttribute"] == "extAttribute content")
        #expect(adBreak.extensions[0].innerXML.contains("<vmap:Test testAttribute=\"testAttribute content\""))
        #expect(adBreak.adSource?.vastAdData != nil)
    }

    @Test("wrong roots are typed errors")
    func wrongRoots() throws {
        #expect(throws: VASTParseError.unexpectedRootElement(found: "vmap:WRONG", expected: "VMAP", line: 1)) {
            try VMAPParser().parse(Fixtures.vmap("incorrect-vmap.xml"))
        }
        #expect(throws: VASTParseError.unexpectedRootElement(found: "vmap:Extension", expected: "VMAP", line: 1)) {
            try VMAPParser().parse(Fixtures.vmap("parsing-example.xml"))
        }
        #expect(throws: VASTParseError.unexpectedRootElement(found: "VAST", expected: "VMAP", line: 1)) {
            try VMAPParser().parse("<VAST version=\"4.0\"/>")
        }
    }

    @Test(
        "every timeOffset form",
        arguments: [
            ("start", VMAPTimeOffset.start), ("END", .end), ("00:10:23.125", .time(623.125)), ("00:00:00", .time(0)),
            ("50%", .percent(50)), ("#2", .position(2)), (" #1 ", .position(1)), ("01:00:00", .time(3600)),
        ])
    func timeOffsets(text: String, offset: VMAPTimeOffset) {
        #expect(VMAPTimeOffset(text) == offset)
    }

    @Test("invalid timeOffsets", arguments: ["", "middle", "#0", "#x", "120%", "-5%", "1:2:3:4"])
    func invalidTimeOffsets(text: String) {
        #expect(VMAPTimeOffset(text) == nil)
    }

    @Test("timeOffset to seconds and break position")
    func offsetSeconds() {
        #expect(VMAPTimeOffset.start.seconds(contentDuration: nil) == 0)
        #expect(VMAPTimeOffset.end.seconds(contentDuration: 600) == 600)
        #expect(VMAPTimeOffset.percent(25).seconds(contentDuration: 600) == 150)
        #expect(VMAPTimeOffset.position(2).seconds(contentDuration: 600) == nil)
        #expect(VMAPTimeOffset.time(30).breakPosition == .midRoll)
        #expect(VMAPTimeOffset.start.breakPosition == .preRoll)
        #expect(VMAPTimeOffset.position(3).description == "#3")
    }

    @Test("declared namespace, embedded VAST with ads, CustomAdData, break types, skipped breaks")
    func fullVMAP() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
              <vmap:AdBreak timeOffset="start" breakType="linear" breakId="preroll">
                <vmap:AdSource id="pre" allowMultipleAds="false" followRedirects="true">
                  <vmap:VASTAdData>
                    <VAST version="4.0" xmlns="http://www.iab.com/VAST">
                      <Ad id="embedded" sequence="1"><InLine><AdSystem>s</AdSystem><AdTitle>Embedded</AdTitle>
                        <Impression><![CDATA[https://imp.example/embedded]]></Impression>
                        <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>
                          <MediaFile delivery="streaming" type="application/vnd.apple.mpegurl">https://ads.example/e/master.m3u8</MediaFile>
                        </MediaFiles></Linear></Creative></Creatives>
                      </InLine></Ad>
                    </VAST>
                  </vmap:VASTAdData>
                </vmap:AdSource>
              </vmap:AdBreak>
              <vmap:AdBreak timeOffset="25%" breakType="Linear, NonLinear,display">
                <vmap:AdSource><vmap:AdTagURI templateType="vast4"><![CDATA[ https://ads.example/tag?pos=[BREAKPOSITION] ]]></vmap:AdTagURI></vmap:AdSource>
              </vmap:AdBreak>
              <vmap:AdBreak timeOffset="#2" breakType="linear" repeatAfter="00:05:00">
                <vmap:AdSource><vmap:CustomAdData templateType="proprietary"><ads><ad id="x"/></ads></vmap:CustomAdData></vmap:AdSource>
              </vmap:AdBreak>
              <vmap:AdBreak timeOffset="whenever" breakType="linear"/>
              <vmap:AdBreak breakType="linear"/>
              <vmap:AdBreak timeOffset="end" breakType="linear">
                <vmap:AdSource><vmap:VASTAdData><VAST version="1.0"/></vmap:VASTAdData></vmap:AdSource>
              </vmap:AdBreak>
            </vmap:VMAP>
            """
        let document = try VMAPParser().parse(xml)
        #expect(document.adBreaks.map(\.timeOffset) == [.start, .percent(25), .position(2), .end])
        #expect(document.diagnostics.map(\.line) == [23, 24])

        let embedded = try #require(document.adBreaks[0].adSource?.vastAdData)
        #expect(embedded.ads.map(\.id) == ["embedded"])
        #expect(embedded.ads.first?.impressions.map(\.url) == ["https://imp.example/embedded"])
        #expect(embedded.ads.first?.linears.first?.hlsMediaFiles.map(\.url) == ["https://ads.example/e/master.m3u8"])
        #expect(document.adBreaks[0].adSource?.allowMultipleAds == false)

        #expect(document.adBreaks[1].breakTypes == [.linear, .nonlinear, .display])
        #expect(
            document.adBreaks[1].adSource?.content
                == .adTagURI("https://ads.example/tag?pos=[BREAKPOSITION]", templateType: "vast4"))
        #expect(document.adBreaks[2].repeatAfter == 300)
        #expect(
            document.adBreaks[2].adSource?.content
                == .customAdData(templateType: "proprietary", innerXML: "<ads><ad id=\"x\"/></ads>"))
        #expect(document.adBreaks[3].adSource?.content == .invalidVASTAdData(.unsupportedVersion("1.0", line: 26)))
    }
}

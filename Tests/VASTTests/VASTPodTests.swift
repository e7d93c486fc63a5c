import Testing
@testable import VAST

@Suite("Pods and buffets")
struct VASTPodTests {
    @Test("ads with sequence form the pod in sequence order; the rest is the buffet")
    func podOrder() throws {
        let document = try VASTParser().parse(
            """
            <VAST version="4.1">
              <Ad id="third" sequence="3"><InLine><AdTitle>3</AdTitle></InLine></Ad>
              <Ad id="buffet-1"><InLine><AdTitle>b1</AdTitle></InLine></Ad>
              <Ad id="first" sequence="1"><InLine><AdTitle>1</AdTitle></InLine></Ad>
              <Ad id="second" sequence="2"><InLine><AdTitle>2</AdTitle></InLine></Ad>
              <Ad id="second-bis" sequence="2"><InLine><AdTitle>2b</AdTitle></InLine></Ad>
              <Ad id="buffet-2"><InLine><AdTitle>b2</AdTitle></InLine></Ad>
            </VAST>
            """)
        #expect(document.isPod)
        #expect(document.podAds.map(\.id) == ["first", "second", "second-bis", "third"])
        #expect(document.standaloneAds.map(\.id) == ["buffet-1", "buffet-2"])
        #expect(document.playbackAds.map(\.id) == ["first", "second", "second-bis", "third"])
    }

    @Test("a response without sequences is a buffet")
    func buffet() throws {
        let document = try Fixtures.parse("inline-linear.xml")
        #expect(!document.isPod)
        #expect(document.playbackAds.map(\.id) == ["20001"])
    }

    @Test("empty VAST: no ads, the document-level Error URL")
    func emptyVAST() throws {
        let document = try Fixtures.parse("empty-no-ad.xml")
        #expect(document.isEmpty)
        #expect(document.errorURLs == ["http://example.com/empty-no-ad"])
        #expect(document.podAds.isEmpty && document.standaloneAds.isEmpty)
    }

    @Test("InLine without creatives still parses, with its Error URL")
    func noCreative() throws {
        let ad = try #require(try Fixtures.parse("empty-no-creative.xml").ads.first)
        #expect(ad.id == nil)
        #expect(ad.creatives.isEmpty)
        #expect(ad.errorURLs == ["http://example.com/empty-no-creative_inline-error"])
        #expect(ad.inline?.extensions.first?.innerXML.contains("valueEmptyNoCreative") == true)
    }
}

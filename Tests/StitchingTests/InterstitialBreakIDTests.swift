import Testing
@testable import Stitching

@Suite struct InterstitialBreakIDTests {
    @Test func idsNameTheBreakNotItsPlace() {
        #expect(InterstitialBreakID(position: .preroll).text == "pre")
        #expect(InterstitialBreakID(position: .postroll).text == "post")
        #expect(InterstitialBreakID(position: .midroll(seconds: 600)).text == "mid-600000")
        #expect(InterstitialBreakID(position: .midroll(seconds: 12.3456)).text == "mid-12346")
        #expect(InterstitialBreakID(scte35EventID: 4_294_967_295).text == "scte-4294967295")
        #expect(
            InterstitialBreakID(position: .midroll(seconds: 30))
                != InterstitialBreakID(position: .midroll(seconds: 30.002)))
    }

    @Test func textReadsBackOnlyAsWritten() {
        for id in [
            InterstitialBreakID.preroll, .postroll, InterstitialBreakID(position: .midroll(seconds: 0.001)),
            InterstitialBreakID(position: .midroll(seconds: 7200)), InterstitialBreakID(scte35EventID: 0),
            InterstitialBreakID(scte35EventID: 1234),
        ] {
            #expect(InterstitialBreakID(id.text) == id)
        }
    }

    @Test(arguments: [
        "", "PRE", "pre ", "mid-", "mid-01", "mid--1", "mid-+1", "mid-1.5", "mid-1 ", "mid-1234567890123456",
        "scte-4294967296", "scte-", "scte-0x10", "../pre", "pre.json", "mid-1/2", "mid-١",
    ])
    func hostileTextIsRejected(_ text: String) {
        #expect(InterstitialBreakID(text) == nil)
    }
}

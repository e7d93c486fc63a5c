import Testing
@testable import VAST

@Suite("Durations and offsets")
struct VASTTimeTests {
    @Test(
        "durations in the forms ad servers send",
        arguments: [
            ("00:00:30", 30.0), ("00:01:30.123", 90.123), ("01:00:00", 3600), (" 00:00:15 \n", 15), ("0:0:5", 5),
            ("00:00:05.5", 5.5), ("00:00:05,25", 5.25), ("01:30", 90), ("30", 30), ("15.5", 15.5), ("00:00:10.", 10),
            ("100:00:00", 360_000),
        ])
    func durations(text: String, seconds: Double) {
        #expect(VASTTime.seconds(from: text) == seconds)
    }

    @Test(
        "text that is not a duration",
        arguments: [
            "", "  ", "abc", "-00:00:05", "00:00:-5", "1:2:3:4", "00::05", "00:00:05.1.2",
            "00.5:00:00", "1e3", "inf", "nan", "٣٠", "00:00:05 s",
        ])
    func notDurations(text: String) {
        #expect(VASTTime.seconds(from: text) == nil)
    }

    @Test("skip offsets and progress offsets")
    func offsets() {
        #expect(VASTOffset("00:00:05") == .seconds(5))
        #expect(VASTOffset("00:00:05.250") == .seconds(5.25))
        #expect(VASTOffset("25%") == .percent(25))
        #expect(VASTOffset(" 12.5 % ") == .percent(12.5))
        #expect(VASTOffset("150%") == nil)
        #expect(VASTOffset("%") == nil)
        #expect(VASTOffset("soon") == nil)
        #expect(VASTOffset.percent(25).seconds(duration: 30) == 7.5)
        #expect(VASTOffset.percent(25).seconds(duration: nil) == nil)
        #expect(VASTOffset.seconds(5).seconds(duration: nil) == 5)
        #expect(VASTOffset.percent(25).description == "25%")
        #expect(VASTOffset.seconds(65.5).description == "00:01:05.500")
        // Values no parser produces, built by hand, still print without trapping.
        #expect(VASTOffset.percent(1e300).description == "1e+300%")
        #expect(VASTOffset.seconds(.infinity).description == "00:00:00.000")
        #expect(VASTOffset("99999999999999999999:00:00")?.description == "277777777:46:40.000")
    }

    @Test("event names are matched ignoring case and keep unknown names")
    func eventNames() {
        #expect(VASTEventName(rawValue: "FIRSTQUARTILE") == .firstQuartile)
        #expect(VASTEventName(rawValue: " midpoint ").rawValue == "midpoint")
        #expect(VASTEventName(rawValue: "vendorSpecific").rawValue == "vendorSpecific")
    }

    @Test("lenient attribute values")
    func lenientValues() {
        #expect(LenientValues.bool("True") == true)
        #expect(LenientValues.bool(" 0 ") == false)
        #expect(LenientValues.bool("maybe") == nil)
        #expect(LenientValues.int(" 720 ") == 720)
        #expect(LenientValues.int("720.0") == 720)
        #expect(LenientValues.int("720.5") == nil)
        #expect(LenientValues.int("-1") == nil)
        #expect(LenientValues.int("99999999999999999999999") == nil)
    }
}

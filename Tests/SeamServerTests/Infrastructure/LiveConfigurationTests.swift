import Foundation
import Testing
@testable import SeamServer

@Suite("Infra: live configuration")
struct LiveConfigurationTests {
    @Test("Defaults of the live section")
    func defaults() throws {
        let live = try ConfigurationLoader(environment: [:]).load(yaml: nil).live
        #expect(live.originCacheSeconds == 1)
        #expect(live.maxStaleSeconds == 12)
        #expect(live.adRequestConcurrency == 64)
        #expect(live.slateURL == "")
        #expect(live.defaultBreakSeconds == 60)
        #expect(live.schedules.isEmpty)
        #expect(try live.parsedSchedules.isEmpty)
    }

    @Test("Every live key is read from YAML, the environment and --set")
    func layers() throws {
        let yaml = """
            live:
              originCacheSeconds: 2
              maxStaleSeconds: 20
              adRequestConcurrency: 8
              slateURL: https://cdn.example.com/slate/master.m3u8
              defaultBreakSeconds: 90
              schedules:
                - "http://origin.example/live/ch1/ every=300 offset=60 duration=30"
                - "http://origin.example/live/ch2/ every=600 duration=45.5"
            """
        let fromYAML = try ConfigurationLoader(environment: [:]).load(yaml: yaml).live
        #expect(fromYAML.originCacheSeconds == 2)
        #expect(fromYAML.maxStaleSeconds == 20)
        #expect(fromYAML.adRequestConcurrency == 8)
        #expect(fromYAML.slateURL == "https://cdn.example.com/slate/master.m3u8")
        #expect(fromYAML.defaultBreakSeconds == 90)
        #expect(
            try fromYAML.parsedSchedules == [
                LiveSchedule(
                    channelPrefix: "http://origin.example/live/ch1/", everySeconds: 300, offsetSeconds: 60,
                    durationSeconds: 30),
                LiveSchedule(
                    channelPrefix: "http://origin.example/live/ch2/", everySeconds: 600, offsetSeconds: 0,
                    durationSeconds: 45.5),
            ])

        let environment = [
            "SEAM_LIVE_ORIGIN_CACHE_SECONDS": "0.5",
            "SEAM_LIVE_AD_REQUEST_CONCURRENCY": "128",
            "SEAM_LIVE_SCHEDULES":
                "http://a.example/ch1/ every=120 offset=10 duration=20, http://a.example/ch2/ every=60 duration=15",
        ]
        let loader = ConfigurationLoader(environment: environment)
        let fromEnvironment = try loader.load(yaml: yaml, overrides: ["live.maxStaleSeconds": "6"]).live
        #expect(fromEnvironment.originCacheSeconds == 0.5)  // env beats YAML
        #expect(fromEnvironment.adRequestConcurrency == 128)
        #expect(fromEnvironment.maxStaleSeconds == 6)  // override beats YAML
        #expect(
            fromEnvironment.schedules == [
                "http://a.example/ch1/ every=120 offset=10 duration=20", "http://a.example/ch2/ every=60 duration=15",
            ])
        #expect(try fromEnvironment.parsedSchedules.map(\.everySeconds) == [120, 60])
        #expect(loader.unrecognizedEnvironmentVariables().isEmpty)
    }

    @Test(
        "Environment variable names of the live keys",
        arguments: [
            ("live.originCacheSeconds", "SEAM_LIVE_ORIGIN_CACHE_SECONDS"),
            ("live.maxStaleSeconds", "SEAM_LIVE_MAX_STALE_SECONDS"),
            ("live.adRequestConcurrency", "SEAM_LIVE_AD_REQUEST_CONCURRENCY"),
            ("live.slateURL", "SEAM_LIVE_SLATE_URL"),
            ("live.dashSlateURL", "SEAM_LIVE_DASH_SLATE_URL"),
            ("live.defaultBreakSeconds", "SEAM_LIVE_DEFAULT_BREAK_SECONDS"),
            ("live.schedules", "SEAM_LIVE_SCHEDULES"),
        ])
    func environmentNames(path: String, variable: String) throws {
        let key = try #require(ConfigurationKey.named(path))
        #expect(key.environmentVariable == variable)
    }

    @Test(
        "Out-of-range live values are refused with how to fix them",
        arguments: [
            ("live.originCacheSeconds", "0", "more than 0 and at most 10"),
            ("live.originCacheSeconds", "11", "at most 10"),
            ("live.maxStaleSeconds", "-1", "0 (never serve a stale window)"),
            ("live.maxStaleSeconds", "0.5", "shorter than live.originCacheSeconds"),
            ("live.adRequestConcurrency", "0", "at least 1"),
            ("live.defaultBreakSeconds", "0", "more than 0"),
            ("live.slateURL", "slate.m3u8", "absolute http(s) URL"),
            ("live.dashSlateURL", "https://cdn.example.com/slate/master.m3u8", "URL of an MPD"),
        ])
    func outOfRange(path: String, value: String, expected: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: nil, overrides: [path: value])
        }
        #expect(error?.kind == .outOfRange)
        #expect(error?.key == path)
        #expect(error?.source == "command-line override \(path)=\(value)")
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("maxStaleSeconds 0 (never stale) and an empty slate are fine")
    func edgeValuesAccepted() throws {
        let live = try ConfigurationLoader(environment: [:]).load(
            yaml: nil,
            overrides: [
                "live.maxStaleSeconds": "0", "live.originCacheSeconds": "10", "live.slateURL": "",
            ]
        ).live
        #expect(live.maxStaleSeconds == 0)
        #expect(live.originCacheSeconds == 10)
    }

    @Test(
        "A malformed schedule is refused at load, quoting the entry and what is wrong",
        arguments: [
            ("http://o.example/ch1/ every=30 duration=30", "must be longer than duration"),
            ("http://o.example/ch1/ every=30 duration=0", "duration must be more than 0"),
            ("http://o.example/ch1/ every=300 offset=300 duration=30", "offset must be at least 0 and less than every"),
            ("http://o.example/ch1/ every=300 offset=-5 duration=30", "offset must be at least 0"),
            ("http://o.example/ch1/ every=300", "duration=<seconds>"),
            ("http://o.example/ch1/ duration=30", "every=<seconds>"),
            ("http://o.example/ch1/ evry=300 duration=30", "\"evry\" is not a schedule field"),
            ("http://o.example/ch1/ every=five duration=30", "every=five is not a number"),
            ("http://o.example/ch1/ every=300 every=200 duration=30", "every is given twice"),
            ("http://o.example/ch1/ every 300 duration=30", "\"every\" is not name=seconds"),
            ("every=300 duration=30", "must start with the channel's URL prefix"),
            ("o.example/ch1/ every=300 duration=30", "must be an http(s) URL prefix"),
        ])
    func badSchedule(entry: String, expected: String) {
        let yaml = "live:\n  schedules:\n    - \"\(entry)\"\n"
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: yaml, fileName: "seam.yaml")
        }
        #expect(error?.key == "live.schedules")
        #expect(error?.source == "config file seam.yaml line 2")
        #expect(error?.message.contains("\"\(entry)\"") == true, "\(String(describing: error))")
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.message.contains("every=300 offset=60 duration=30") == true, "shows a good entry")
    }

    @Test("LiveSchedule.parse reads the documented form and round-trips through its text")
    func parse() throws {
        let schedule = try LiveSchedule.parse("  http://origin.example/live/ch1/   every=300 offset=60 duration=30 ")
        #expect(
            schedule
                == LiveSchedule(
                    channelPrefix: "http://origin.example/live/ch1/", everySeconds: 300, offsetSeconds: 60,
                    durationSeconds: 30))
        #expect(try LiveSchedule.parse(schedule.text) == schedule)
        let fractional = try LiveSchedule.parse("https://o.example/x/ DURATION=12.5 every=90.25")
        #expect(fractional.durationSeconds == 12.5)
        #expect(fractional.everySeconds == 90.25)
        #expect(fractional.offsetSeconds == 0)
        #expect(try LiveSchedule.parse(fractional.text) == fractional)
    }

    @Test("The schedule for a URL is the one with the longest matching prefix")
    func scheduleForURL() throws {
        var live = SeamConfiguration.Live()
        live.schedules = [
            "http://o.example/live/ every=600 duration=60",
            "http://o.example/live/ch1/ every=300 duration=30",
        ]
        #expect(try live.schedule(for: "http://o.example/live/ch1/720p.m3u8")?.everySeconds == 300)
        #expect(try live.schedule(for: "http://o.example/live/ch2/720p.m3u8")?.everySeconds == 600)
        #expect(try live.schedule(for: "http://other.example/live/ch1/720p.m3u8") == nil)

        live.schedules.append("not a schedule")
        #expect(throws: ConfigurationError.self) { try live.parsedSchedules }
    }

    @Test("The live section renders to YAML that reads back the same")
    func renderRoundTrip() throws {
        let loader = ConfigurationLoader(environment: [:])
        let configuration = try loader.load(
            yaml: nil,
            overrides: [
                "live.slateURL": "https://cdn.example.com/slate.m3u8", "live.originCacheSeconds": "1.5",
                "live.schedules":
                    "http://o.example/ch1/ every=300 offset=60 duration=30,http://o.example/ch2/ every=120 duration=10",
            ])
        let text = ConfigurationLoader.renderYAML(configuration)
        #expect(text.contains("live:\n"))
        #expect(try loader.load(yaml: text) == configuration)
    }
}

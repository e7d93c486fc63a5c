import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SeamDemo
import SeamTesting
@testable import SeamServer

@Suite("DemoWebRoutes: the web page")
struct DemoWebRoutesTests {
    static func app(page: DemoWebRoutes.PageConfiguration = .init()) throws -> some ApplicationProtocol {
        let router = Router()
        try DemoWebRoutes(webRoot: DemoTestSupport.webRoot, page: page).addRoutes(to: router)
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: DemoTestSupport.quietLogger)
    }

    @Test func servesTheIndexAndItsAssets() async throws {
        try await Self.app().test(.live) { client in
            try await client.execute(uri: "/demo/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<video"))
                #expect(html.contains("demo.js"))
                // Nothing from the network: every script and stylesheet is local.
                for attribute in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
                    #expect(!html.contains(attribute))
                }
            }
            try await client.execute(uri: "/demo/demo.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                let script = String(buffer: response.body)
                #expect(script.contains("canPlayType('application/vnd.apple.mpegurl')"))
                #expect(script.contains("/v1/sessions"))
            }
            try await client.execute(uri: "/demo/demo.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
            try await client.execute(uri: "/demo/index.html", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] != nil)
            }
        }
    }

    @Test func redirectsTheBarePathKeepingTheQuery() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/demo?session=http%3A%2F%2Fx%2Fm.m3u8", method: .get) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/demo/?session=http%3A%2F%2Fx%2Fm.m3u8")
            }
        }
    }

    @Test func answersItsConfiguration() async throws {
        let page = DemoWebRoutes.PageConfiguration(
            contentUrl: "http://127.0.0.1:8081/media/content/master.m3u8",
            trackingMode: "client", beaconsUrl: "http://127.0.0.1:8082/beacons")
        try await Self.app(page: page).test(.router) { client in
            try await client.execute(uri: "/demo/config.json", method: .get) { response in
                #expect(response.status == .ok)
                let decoded = try JSONDecoder().decode(
                    DemoWebRoutes.PageConfiguration.self, from: Data(buffer: response.body))
                #expect(decoded == page)
                #expect(decoded.sessionsUrl == "/v1/sessions")
            }
        }
    }

    @Test func offersTheRenderingPicker() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/demo/", method: .get) { response in
                let html = String(buffer: response.body)
                let picker = try #require(Self.element("select", id: "mode", in: html))
                // Both renderings, plus Seam's own choice (sessions.defaultMode, User-Agent rules).
                for value in ["", "stitched", "interstitials"] {
                    #expect(picker.contains("<option value=\"\(value)\">"), "no option \(value)")
                }
                #expect(html.contains("id=\"asset-video\""), "no second video for interstitial assets")
                #expect(html.contains("id=\"tracking-mode\""), "the tracking mode picker is still there")
            }
        }
    }

    @Test func configurationCarriesTheDefaultMode() async throws {
        let page = DemoWebRoutes.PageConfiguration(
            contentUrl: "http://127.0.0.1:8081/media/content/master.m3u8", mode: .interstitials)
        try await Self.app(page: page).test(.router) { client in
            try await client.execute(uri: "/demo/config.json", method: .get) { response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(json?["mode"] as? String == "interstitials")
                #expect(
                    try JSONDecoder().decode(DemoWebRoutes.PageConfiguration.self, from: Data(buffer: response.body))
                        == page)
            }
        }
        // No default: the key is absent and the page leaves the choice to Seam.
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/demo/config.json", method: .get) { response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(json != nil)
                #expect(json?["mode"] == nil)
            }
        }
    }

    @Test func refusesTraversalAndMissingFiles() async throws {
        try await Self.app().test(.live) { client in
            try await client.execute(uri: "/demo/missing.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/demo/%2e%2e/vast/vmap-demo.xml", method: .get) { response in
                #expect(response.status == .badRequest || response.status == .notFound)
            }
        }
    }

    @Test func editsShowWithoutARestart() async throws {
        let root = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let index = URL(fileURLWithPath: root + "/index.html")
        try Data("<p>one</p>".utf8).write(to: index)
        let router = Router()
        try DemoWebRoutes(webRoot: root).addRoutes(to: router)
        let app = Application(router: router, logger: DemoTestSupport.quietLogger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/demo/", method: .get) { #expect(String(buffer: $0.body) == "<p>one</p>") }
            try Data("<p>two, longer</p>".utf8).write(to: index)
            try await client.execute(uri: "/demo/", method: .get) {
                #expect(String(buffer: $0.body) == "<p>two, longer</p>")
            }
        }
    }

    @Test func theVideoElementUsesCORSMode() throws {
        // Chromium's built-in HLS player only reads cross-origin playlists and segments in CORS mode.
        let html = try String(contentsOfFile: DemoTestSupport.webRoot + "/index.html", encoding: .utf8)
        #expect(html.contains("crossorigin=\"anonymous\""))
    }

    // MARK: The page in Chromium

    /// The page against the whole product on loopback, rendered by headless Chromium: with
    /// `?mode=interstitials` it asks Seam for that rendering, plays its primary, places every
    /// break of the tracking JSON on the content timeline with its interstitial `ID` and asset
    /// list, and lists the pre-roll's assets (where the playhead sits before play) as Seam
    /// answers them. With `?mode=stitched` it plays the stitched rendering as before.
    @Test(.heavy, .timeLimit(HeavyTier.timeLimit)) func theInterstitialsPageShowsTheBreaksOnTheContentTimeline()
        async throws
    {
        guard let chromium = Self.chromium(for: "the demo page in Chromium") else { return }
        try await Self.withSeamServingThePage { seamBaseURL in
            let pageURL = seamBaseURL + "/demo/"
            let dom = try await Self.renderedDOM(pageURL + "?mode=interstitials", chromium: chromium)
            #expect(Self.text(ofElementWithID: "rendering", in: dom) == "interstitials")
            #expect(
                Self.attribute("class", ofElementWithID: "status", in: dom) != "error",
                "\(Self.text(ofElementWithID: "status", in: dom) ?? "")")

            let trackingURL = try #require(Self.attribute("href", ofElementWithID: "tracking-link", in: dom))
            let tracking = try await Self.json(trackingURL)
            #expect(tracking["mode"] as? String == "interstitials")
            let renderings = tracking["renderings"] as? [[String: Any]] ?? []
            let primary = try #require(
                renderings.first { $0["mode"] as? String == "interstitials" }?["manifestUrl"] as? String)
            #expect(Self.attribute("src", ofElementWithID: "video", in: dom) == Self.escaped(primary))
            #expect(Self.attribute("href", ofElementWithID: "manifest-link", in: dom) == Self.escaped(primary))

            let avails = tracking["avails"] as? [[String: Any]] ?? []
            #expect(avails.count >= 3, "the demo VMAP has a pre-, a mid- and a post-roll")
            let rows = Self.rows(ofTableWithID: "avails", in: dom)
            #expect(rows.count == avails.count)
            var checkedAMidRoll = false
            for (avail, row) in zip(avails, rows) {
                let id = try #require(avail["interstitialId"] as? String)
                let list = try #require(avail["assetListUrl"] as? String)
                let cue = try #require(avail["cuePoint"] as? Double)
                let interstitial = row.cells.last ?? ""
                #expect(
                    interstitial.contains("<code class=\"interstitial-id\">\(Self.escaped(id))</code>"), "\(row.cells)")
                #expect(interstitial.contains("href=\"\(Self.escaped(list))\""), "\(row.cells)")
                // The break's place on the content: its cue point, -1 the end of the content.
                let start = row.cells[safe: 2] ?? ""
                if cue < 0 {
                    #expect(start.hasSuffix("(end of content)"), "\(start)")
                } else {
                    #expect(start == Self.clock(cue), "\(start) for cue \(cue)")
                    // Where the stitched timeline differs, the page shows the content's.
                    if let stitched = avail["startTimeSeconds"] as? Double, abs(stitched - cue) > 1 {
                        checkedAMidRoll = true
                    }
                }
            }
            #expect(checkedAMidRoll, "no break whose content time differs from its stitched time")

            // The pre-roll's assets, as its asset list answers them.
            let preRoll = try #require(avails.first { $0["cuePoint"] as? Double == 0 })
            let assetList = try await Self.json(try #require(preRoll["assetListUrl"] as? String))
            let assets = assetList["ASSETS"] as? [[String: Any]] ?? []
            #expect(!assets.isEmpty)
            let assetRows = Self.rows(ofTableWithID: "asset-table", in: dom)
            #expect(assetRows.count == assets.count)
            for (asset, row) in zip(assets, assetRows) {
                let uri = try #require(asset["URI"] as? String)
                let duration = try #require(asset["DURATION"] as? Double)
                #expect(row.cells[safe: 1]?.contains("href=\"\(Self.escaped(uri))\"") == true, "\(row.cells)")
                #expect(row.cells[safe: 2] == Self.javaScriptNumber(duration) + " s", "\(row.cells)")
                #expect(row.cells.last?.contains("class=\"play-asset\"") == true)
            }

            let stitchedDOM = try await Self.renderedDOM(pageURL + "?mode=stitched", chromium: chromium)
            #expect(Self.text(ofElementWithID: "rendering", in: stitchedDOM) == "stitched")
            let stitchedTracking = try await Self.json(
                try #require(
                    Self.attribute("href", ofElementWithID: "tracking-link", in: stitchedDOM)))
            let stitched = (stitchedTracking["renderings"] as? [[String: Any]] ?? []).first {
                $0["mode"] as? String == "stitched"
            }
            #expect(
                Self.attribute("src", ofElementWithID: "video", in: stitchedDOM)
                    == (stitched?["manifestUrl"] as? String).map(Self.escaped))
            #expect(stitchedDOM.contains("<section id=\"assets\" aria-label=\"Interstitial assets\" hidden=\"\">"))
        }
    }

    /// Issue 14's demo: with conditioning on, `?ads=mp4` asks for the MP4-only ad. The ad budget
    /// (3 s) is shorter than the job, so the first page load shows its conditioning under way (the
    /// break skipped with `TRANSCODE_IN_PROGRESS`, the job running or queued), or, if the job
    /// ended while the page watched, the new session the page then started. Once the job has
    /// ended, a new page load's session has the ad, and the page shows the conditioned playlist.
    @Test(.heavy, .timeLimit(HeavyTier.timeLimit)) func thePageShowsTheMP4AdConditionedThenPlayed() async throws {
        guard let chromium = Self.chromium(for: "the demo page in Chromium") else { return }
        guard Self.tool("ffmpeg", for: "the demo page's conditioning"),
            Self.tool("ffprobe", for: "the demo page's conditioning")
        else { return }
        let directory = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await ChromiumGate.withChromium {
            try await Self.withSeamServingThePage(conditioning: directory) { seamBaseURL in
                let pageURL = seamBaseURL + "/demo/?ads=mp4&trackingMode=server"
                let first = try await Self.renderedDOM(pageURL, chromium: chromium)
                #expect(
                    Self.startTag(id: "conditioning", in: first)?.contains("hidden") == false,
                    "the conditioning panel is shown")
                #expect(Self.startTag(id: "ads-picker", in: first)?.contains("hidden") == false)
                let firstStatus = Self.text(ofElementWithID: "conditioning-status", in: first) ?? ""
                let firstRows = Self.rows(ofTableWithID: "avails", in: first)
                #expect(firstRows.count == 1, "the MP4 VMAP has one break: \(firstRows.map(\.cells))")
                if firstStatus.contains("in the background") {
                    #expect(
                        firstRows.first?.cells.contains { $0.contains("TRANSCODE_IN_PROGRESS") } == true,
                        "\(firstRows.map(\.cells))")
                    let creative = Self.rows(ofTableWithID: "conditioning-table", in: first).first?.cells ?? []
                    #expect(creative.contains { $0.hasPrefix("running") || $0.hasPrefix("queued") }, "\(creative)")
                    #expect(creative.contains("seam-demo:SEAM-NOHLS"), "\(creative)")
                } else {
                    // The job ended while the page watched: it started a new session, which plays the ad.
                    #expect(firstStatus.contains("The session before skipped it"), "\(firstStatus)")
                }

                // Until the job ends (the route joins it, 25 s at a time), then a new page load.
                let config = try await Self.json(seamBaseURL + "/demo/config.json")
                let contentURL = try #require(config["contentUrl"] as? String)
                let vast = try #require((config["conditioning"] as? [String: Any])?["adTagUrl"] as? String)
                let body = String(
                    decoding: try JSONSerialization.data(withJSONObject: [
                        "contentUrl": contentURL, "adTagUrl": vast, "waitSeconds": 25,
                    ]), as: UTF8.self)
                var conditioned = false
                for _ in 0..<6 where !conditioned {
                    let waited = try await DemoTestSupport.request(
                        seamBaseURL + "/v1/creatives/prefetch", method: .POST,
                        headers: [("content-type", "application/json")], body: body)
                    conditioned = waited.text.contains("\"status\":\"conditioned\"")
                    #expect([200, 202].contains(waited.status), "\(waited.text)")
                }
                #expect(conditioned)

                let second = try await Self.renderedDOM(pageURL, chromium: chromium)
                let status = Self.text(ofElementWithID: "conditioning-status", in: second) ?? ""
                #expect(status.hasPrefix("Conditioned: this session plays"), "\(status)")
                let row = Self.rows(ofTableWithID: "conditioning-table", in: second).first?.cells ?? []
                #expect(row.contains("conditioned"), "\(row)")
                #expect(row.last?.contains("/v1/conditioned/") == true, "\(row)")
                let tracking = try await Self.json(
                    try #require(Self.attribute("href", ofElementWithID: "tracking-link", in: second)))
                let avail = try #require((tracking["avails"] as? [[String: Any]])?.first)
                #expect((avail["ads"] as? [Any])?.count == 1, "\(avail)")
                #expect(avail["skipReason"] == nil, "\(avail)")
            }
        }
    }

    /// The demo as `seam demo` runs it, on free loopback ports: the demo origin and ad server,
    /// and Seam with the product's routes and the page at `/demo/`, so the page's calls to Seam
    /// are same-origin (Seam answers no CORS preflight for `POST /v1/sessions`).
    /// `conditioning` (a directory) turns conditioning on, and the page's MP4-only ad with it.
    static func withSeamServingThePage(
        conditioning: String? = nil,
        _ body: @escaping @Sendable (_ seamBaseURL: String) async throws -> Void
    ) async throws {
        try await DemoServers.withRunning(DemoTestSupport.configuration()) { demo in
            var configuration = SeamConfiguration()
            configuration.server.host = "127.0.0.1"
            configuration.server.port = 0
            configuration.upstream.allowPrivateNetworks = true
            configuration.ads.adTagURL = demo.vmapURL
            if let conditioning {
                configuration.conditioning.directory = conditioning
                configuration.conditioning.niceness = 19
                // Shorter than the demo creative's conditioning (about 4.5 s on one thread): the
                // first session skips the break while the job runs.
                configuration.ads.totalBudgetSeconds = 3
            }
            let logger = DemoTestSupport.quietLogger
            let metrics = SeamMetrics()
            let upstream = try SafeUpstreamClient(
                configuration: configuration, logger: logger, metricsFactory: metrics.factory)
            let services = SeamServices(
                configuration: configuration, logger: logger, upstream: upstream,
                domainMatcher: try DomainMatcher(configuration: configuration.domains), metrics: metrics)
            let page = try DemoWebRoutes(
                webRoot: DemoTestSupport.webRoot,
                page: .init(
                    contentUrl: demo.contentURL, trackingMode: "client", beaconsUrl: demo.beaconsURL,
                    conditioning: conditioning == nil ? nil : demo.conditioningPageConfiguration))
            let app = buildSeamApplication(
                configuration: configuration, logger: logger,
                routes: SeamProduct.routes(services) + [DemoPageRoutes(page: page)],
                metrics: services.metrics)
            do {
                try await app.test(.live) { client in
                    try await body("http://127.0.0.1:\(try #require(client.port))")
                }
            } catch {
                try? await upstream.shutdown()
                throw error
            }
            try await upstream.shutdown()
        }
    }

    /// A JSON object Seam answers at `url`.
    static func json(_ url: String) async throws -> [String: Any] {
        let reply = try await DemoTestSupport.request(url)
        #expect(reply.status == 200, "\(url): \(reply.text)")
        return (try? JSONSerialization.jsonObject(with: Data(reply.text.utf8))) as? [String: Any] ?? [:]
    }

    /// The Chromium binary (`SEAM_CHROMIUM`, else `chromium` on PATH); nil, with the skip said
    /// (a failure with CI=true, as the end-to-end tests do), when there is none.
    static func chromium(for purpose: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/chromium" }
        if let explicit = environment["SEAM_CHROMIUM"], !explicit.isEmpty { candidates.insert(explicit, at: 0) }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        let message = "skipped \(purpose): chromium is not installed"
        if environment["CI"] == "true" { Issue.record("CI=true but \(message)") } else { print(message) }
        return nil
    }

    /// Whether `name` is on PATH; if not, the skip is said (a failure with CI=true).
    static func tool(_ name: String, for purpose: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }) {
            return true
        }
        let message = "skipped \(purpose): \(name) is not installed"
        if environment["CI"] == "true" { Issue.record("CI=true but \(message)") } else { print(message) }
        return false
    }

    /// The page's DOM after its scripts ran: `chromium --headless --dump-dom` once `budget`
    /// milliseconds of virtual time passed (virtual time waits for the page's fetches).
    static func renderedDOM(_ url: String, chromium: String, budget: Int = 10_000) async throws -> String {
        let profile = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--autoplay-policy=no-user-gesture-required",
            "--user-data-dir=\(profile)", "--dump-dom", "--virtual-time-budget=\(budget)", url,
        ]
        // Blocking, so on a thread of its own rather than the cooperative pool the servers use.
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let process = Process()
                        process.executableURL = URL(fileURLWithPath: chromium)
                        process.arguments = arguments
                        let pipe = Pipe()
                        process.standardOutput = pipe
                        process.standardError = FileHandle.nullDevice
                        try DescriptorFloodGate.launch { try process.run() }
                        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
                        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: timer)
                        let data = pipe.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        timer.cancel()
                        return String(decoding: data, as: UTF8.self)
                    })
            }
        }
    }

    /// The start tag of the element with `id`.
    static func startTag(id: String, in html: String) -> Substring? {
        guard let marker = html.range(of: " id=\"\(id)\""),
            let open = html[..<marker.lowerBound].lastIndex(of: "<"),
            let close = html[marker.upperBound...].firstIndex(of: ">")
        else { return nil }
        return html[open...close]
    }

    static func attribute(_ name: String, ofElementWithID id: String, in html: String) -> String? {
        guard let tag = startTag(id: id, in: html), let start = tag.range(of: " \(name)=\"") else { return nil }
        return tag[start.upperBound...].prefix { $0 != "\"" }.description
    }

    /// Everything between the element's start tag and the next `</tag>`.
    static func element(_ tag: String, id: String, in html: String) -> String? {
        guard let open = startTag(id: id, in: html), let end = html[open.endIndex...].range(of: "</\(tag)>") else {
            return nil
        }
        return String(html[open.endIndex..<end.lowerBound])
    }

    static func text(ofElementWithID id: String, in html: String) -> String? {
        guard let open = startTag(id: id, in: html) else { return nil }
        return html[open.endIndex...].prefix { $0 != "<" }.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Row { var cells: [String] }

    /// The body rows of a table, each cell's inner HTML.
    static func rows(ofTableWithID id: String, in html: String) -> [Row] {
        guard let table = element("table", id: id, in: html), let body = table.range(of: "<tbody>") else { return [] }
        return table[body.upperBound...].components(separatedBy: "</tr>").dropLast().map { row in
            Row(
                cells: row.components(separatedBy: "</td>").dropLast().compactMap { cell in
                    cell.range(of: "<td", options: .backwards).flatMap { open in
                        cell[open.upperBound...].firstIndex(of: ">").map { String(cell[cell.index(after: $0)...]) }
                    }
                })
        }
    }

    /// How the DOM serialises text in attributes and cells.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The page's `clock()`: `m:ss.s`.
    static func clock(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        let rest = seconds - Double(minutes * 60)
        return "\(minutes):\(rest < 10 ? "0" : "")\(String(format: "%.1f", rest))"
    }

    /// A number as JavaScript prints it (`15`, `10.005`).
    static func javaScriptNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    @Test func missingWebFolderFailsAtSetUp() {
        #expect(throws: DemoServerError.directoryNotFound("/nonexistent/web")) {
            _ = try DemoWebRoutes(webRoot: "/nonexistent/web")
        }
    }
}

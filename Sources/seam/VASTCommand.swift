import ArgumentParser
import Foundation
import Logging
import SeamServer
import VAST

/// `seam vast`: VAST and VMAP as Seam's ad decisions read them.
struct VASTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vast",
        abstract: "VAST/VMAP tools: resolve an ad tag as Seam would.",
        subcommands: [Resolve.self]
    )

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resolve an ad tag the way Seam decides a break, and print what happened.",
            discussion: """
                Fetches the ad tag (IAB macros filled as for a session) through the same safe \
                upstream client, limits and time budget as the server (`upstream.*`, `ads.*`, from \
                --config and --set), follows wrappers, and prints each request (URL with secret \
                and personal query values redacted, status, bytes, time), each ad's verdict (its HLS media or why it cannot play), \
                each VAST error met, and what each break comes to. A VMAP answer is resolved break by \
                break. With --content, the title is read as a session start reads it, and each ad \
                that plays gets the creative variant Seam would use in each of the title's variants, \
                or why it cannot play there. Nothing is reported to ad servers: Error URLs are counted, not called. \
                Exit status: 0 at least one break has ads, 1 none has, 64 a bad command.
                """)

        @Argument(help: "The ad tag URL (VAST or VMAP).")
        var adTagURL: String

        @Option(name: .customLong("config"), help: ArgumentHelp("YAML configuration file.", valueName: "file"))
        var configFile: String?

        @Option(
            name: .customLong("set"),
            help: ArgumentHelp("Set any configuration key; repeatable.", valueName: "key=value"))
        var settings: [String] = []

        @Option(
            name: .customLong("content"),
            help: ArgumentHelp(
                "A title's multivariant (or media) playlist URL: which creative rendition each ad plays in it.",
                valueName: "url"))
        var contentURL: String?

        @Flag(help: "One JSON object for scripts instead of lines.")
        var json = false

        mutating func run() async throws {
            guard let url = URL(string: adTagURL), url.scheme == "http" || url.scheme == "https" else {
                throw refuse("the ad tag must be an absolute http(s) URL: \(adTagURL)")
            }
            if let contentURL, (try? UpstreamURL(contentURL)) == nil {
                throw refuse("--content must be an absolute http(s) URL of a playlist: \(contentURL)")
            }
            var overrides: [String: String] = [:]
            let configuration: SeamConfiguration
            do {
                for setting in settings {
                    let (key, value) = try ConfigurationLoader.parseOverride(setting)
                    overrides[key] = value
                }
                configuration = try ConfigurationLoader().load(configFile: configFile, overrides: overrides)
            } catch {
                throw refuse(error.description)
            }
            var logger = Logger(label: "seam.vast")
            logger.logLevel = .critical
            let upstream = try SafeUpstreamClient(configuration: configuration, logger: logger)
            // Never run: Error URLs queue here and are never sent (this is a look, not a session).
            let beacons = BeaconDispatcher(upstream: upstream, configuration: configuration.beacons, logger: logger)
            let client = AdDecisionClient(
                upstream: upstream, configuration: configuration.ads, beacons: beacons, logger: logger)
            let trace = AdDecisionTrace()
            let decisions = await Self.resolve(adTagURL, client: client, configuration: configuration, trace: trace)
            var fits: [CreativeFitCheck.Verdict]?
            if let contentURL {
                var seen = Set<String>()
                let ads = decisions.flatMap(\.ads).filter { seen.insert($0.adID + " " + $0.hlsURL).inserted }.map {
                    (adID: $0.adID, media: $0.hlsURL, progressive: $0.progressive != nil)
                }
                do {
                    fits = try await CreativeFitCheck.check(
                        ads, contentURL: contentURL, upstream: upstream, configuration: configuration,
                        deadline: ContinuousClock.now
                            + AdTimeBudget.duration(seconds: configuration.ads.totalBudgetSeconds))
                } catch {
                    try? await upstream.shutdown()
                    print(json ? ResolveReport.json(trace) : ResolveReport.lines(trace), terminator: "")
                    FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
                    throw ExitCode.failure
                }
            }
            try? await upstream.shutdown()
            print(
                json ? ResolveReport.json(trace, fits: fits) : ResolveReport.lines(trace, fits: fits), terminator: "")
            let plays = fits.map { $0.contains { $0.renditions != nil } } ?? true
            if !decisions.contains(where: { !$0.ads.isEmpty }) || !plays { throw ExitCode.failure }
        }

        /// Decides every break the tag answers for.
        static func resolve(
            _ tag: String, client: AdDecisionClient, configuration: SeamConfiguration, trace: AdDecisionTrace
        ) async -> [AdBreakDecision] {
            var context = AdRequestContext(sessionID: "seam-vast-resolve", contentURL: "")
            context.trace = trace
            let budget = AdTimeBudget.duration(seconds: configuration.ads.totalBudgetSeconds)
            let deadline = ContinuousClock.now + budget
            var decisions: [AdBreakDecision] = []
            switch await client.requestAdTag(context: context, template: tag, deadline: deadline) {
            case .vast(let document, let url):
                decisions.append(await client.decide(document, documentURL: url, context: context, deadline: deadline))
            case .vmap(let vmap, let url):
                for (index, adBreak) in vmap.adBreaks.enumerated() {
                    var breakContext = context
                    breakContext.breakIndex = index
                    // Each break gets the budget a session start would.
                    let breakDeadline = ContinuousClock.now + budget
                    decisions.append(
                        await client.decideBreak(
                            adBreak, vmapURL: url, context: breakContext, deadline: breakDeadline))
                }
            case .failed(let reason, let detail):
                trace.record(.decision(breakIndex: 0, ads: [], skipReason: reason.rawValue, detail: detail))
            }
            return decisions
        }
    }
}

/// A trace as `seam vast resolve` prints it.
enum ResolveReport {
    static func lines(_ trace: AdDecisionTrace, fits: [CreativeFitCheck.Verdict]? = nil) -> String {
        var out = ""
        for step in trace.steps {
            switch step {
            case .request(let url, let outcome, let status, let milliseconds, let bytes, _):
                let answer = status.map { "HTTP \($0)" } ?? outcome
                out +=
                    "GET \(url) → \(answer), \(bytes) bytes in \(milliseconds) ms\(outcome == "ok" ? "" : " (\(outcome))")\n"
            case .usableAd(let adID, let seconds, let media):
                out += "  ad \(adID): plays, \(seconds) s, media \(media)\n"
            case .skippedAd(let adID, let reason):
                out += "  ad \(adID): skipped: \(reason)\n"
            case .vastError(let code, let what, let errorURLs):
                out += "  VAST error \(code): \(what) (\(errorURLs) Error URL(s), not called)\n"
            case .decision(let index, let ads, let reason, let detail):
                let outcome =
                    ads.isEmpty
                    ? "no ads (\(reason ?? "NO_FILL"))" : "\(ads.count) ad(s): \(ads.joined(separator: ", "))"
                out += "break \(index): \(outcome)\(detail.map { "; \($0)" } ?? "")\n"
            }
        }
        if trace.dropped > 0 { out += "(\(trace.dropped) more steps not kept)\n" }
        for fit in fits ?? [] {
            if let renditions = fit.renditions {
                out += "ad \(fit.adID) in the title: plays\n"
                for (key, chosen) in renditions.sorted(by: { $0.key < $1.key }) { out += "  \(key) → \(chosen)\n" }
            } else {
                out +=
                    "ad \(fit.adID) in the title: \(fit.reason ?? "does not play") [\(fit.code?.rawValue ?? "other")]\n"
            }
        }
        return out
    }

    static func json(_ trace: AdDecisionTrace, fits: [CreativeFitCheck.Verdict]? = nil) -> String {
        var steps: [[String: Any]] = []
        for step in trace.steps {
            switch step {
            case .request(let url, let outcome, let status, let milliseconds, let bytes, _):
                var item: [String: Any] = [
                    "step": "request", "url": url, "outcome": outcome, "milliseconds": milliseconds, "bytes": bytes,
                ]
                if let status { item["status"] = status }
                steps.append(item)
            case .usableAd(let adID, let seconds, let media):
                steps.append(["step": "ad", "adId": adID, "plays": true, "seconds": seconds, "media": media])
            case .skippedAd(let adID, let reason):
                steps.append(["step": "ad", "adId": adID, "plays": false, "reason": reason])
            case .vastError(let code, let what, let errorURLs):
                steps.append(["step": "vastError", "code": code, "what": what, "errorUrls": errorURLs])
            case .decision(let index, let ads, let reason, let detail):
                var item: [String: Any] = ["step": "break", "break": index, "ads": ads]
                if let reason { item["skipReason"] = reason }
                if let detail { item["detail"] = detail }
                steps.append(item)
            }
        }
        var object: [String: Any] = ["steps": steps, "droppedSteps": trace.dropped]
        if let fits {
            object["fits"] = fits.map { fit -> [String: Any] in
                var item: [String: Any] = ["adId": fit.adID, "media": fit.media, "plays": fit.renditions != nil]
                if let renditions = fit.renditions { item["renditions"] = renditions }
                if let code = fit.code { item["code"] = code.rawValue }
                if let reason = fit.reason { item["reason"] = reason }
                return item
            }
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

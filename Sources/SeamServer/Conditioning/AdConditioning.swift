import Foundation
import HLS
import Logging
import NIOConcurrencyHelpers
import Stitching

/// What a VOD session start asks of conditioning: the MP4-only ads of its breaks as creatives
/// fitted to its title (`ConditioningLadder`), from the disk cache or from jobs that end within
/// the ad budget. The ladder comes from the title's playlists and, for what they do not say, a
/// probe of one segment of each rendition (`ContentProber`, kept per rendition URL).
///
/// A conditioned creative is served by Seam itself under `/v1/conditioned/<name>/` (the session's
/// base URL), or from `publicBaseURL` when the directory is published through a CDN: its
/// playlists are read from disk here, their URIs made absolute under that URL.
struct AdConditioning: Sendable {
    let conditioner: CreativeConditioner
    let prober: ContentProber
    let logger: Logger
    /// `conditioning.publicBaseURL`, without a trailing slash; empty: Seam serves the creatives.
    var publicBaseURL = ""

    /// Where players fetch the multivariant playlist of the conditioned creative `name`.
    func url(of name: String, baseURL: String) -> String {
        publicBaseURL.isEmpty ? "\(baseURL)/v1/conditioned/\(name)/master.m3u8" : "\(publicBaseURL)/\(name)/master.m3u8"
    }

    /// What became of one MP4 ad.
    enum Outcome: Sendable {
        case conditioned(AdCreative)
        case inProgress
        case failed(String)
    }

    /// Every MP4 of `progressive` (URL → creative identity) for `content`, by `deadline`.
    func creatives(
        for progressive: [String: String], content: ContentSet, baseURL: String,
        deadline: ContinuousClock.Instant
    ) async -> [String: Outcome] {
        guard !progressive.isEmpty else { return [:] }
        // Stop waiting a little before the deadline: the caller still has to build its answer,
        // and a live break's decision that lands after the budget is not used at all.
        let now = ContinuousClock.now
        let waitUntil = deadline - min(.milliseconds(250), max(.zero, deadline - now) / 4)
        // A cold title's probes may outlast the budget: they go on, and when they end the jobs
        // start, so this break is `TRANSCODE_IN_PROGRESS` and later sessions get the ads.
        let finding = Task { await self.ladder(of: content) }
        let ladder: ConditioningLadder
        switch await finding.value(until: waitUntil) {
        case .success(let found)?: ladder = found
        case .failure(let unsupported)?:
            return progressive.mapValues { _ in .failed("the title cannot be conditioned for: \(unsupported)") }
        case nil:
            Task {
                switch await finding.value {
                case .success(let ladder):
                    for (url, identity) in progressive {
                        _ = conditioner.prefetch(url, creative: identity, ladder: ladder)
                    }
                case .failure(let unsupported):
                    logger.notice(
                        "title cannot be conditioned for",
                        metadata: ["reason": "\(unsupported)", "ads": "\(progressive.count)"])
                }
            }
            return progressive.mapValues { _ in .inProgress }
        }
        return await withTaskGroup(of: (String, Outcome).self) { group in
            for (url, identity) in progressive {
                group.addTask {
                    switch await conditioner.condition(url, creative: identity, ladder: ladder, until: waitUntil) {
                    case .conditioned(let directory):
                        let name = (directory as NSString).lastPathComponent
                        do {
                            return (
                                url,
                                .conditioned(
                                    try Self.creative(in: directory, url: self.url(of: name, baseURL: baseURL)))
                            )
                        } catch {
                            return (url, .failed("\(error)"))
                        }
                    case .inProgress: return (url, .inProgress)
                    case .failed(let reason): return (url, .failed(reason))
                    }
                }
            }
            var outcomes: [String: Outcome] = [:]
            for await (url, outcome) in group { outcomes[url] = outcome }
            return outcomes
        }
    }

    /// The conditioned creative a session recorded by `url` (this conditioning's own URL form:
    /// `.../v1/conditioned/<name>/master.m3u8` or `<publicBaseURL>/<name>/master.m3u8`), read from
    /// this replica's directory; nil when the URL is not one of those or the name is not on disk
    /// (then it is fetched like any creative). A session taken up by another replica finds its
    /// conditioned ads here when the replicas share the directory.
    func localCreative(at url: String) -> AdCreative? {
        let suffix = "/master.m3u8"
        guard url.hasSuffix(suffix) else { return nil }
        let folder = url.dropLast(suffix.count)
        guard let slash = folder.lastIndex(of: "/") else { return nil }
        let name = String(folder[folder.index(after: slash)...])
        let parent = folder[..<slash]
        guard ConditionedCreativeFiles.isName(name),
            parent.hasSuffix("/v1/conditioned") || (!publicBaseURL.isEmpty && parent == publicBaseURL[...]),
            let directory = conditioner.cached(name)
        else { return nil }
        return try? Self.creative(in: directory, url: url)
    }

    /// The title's ladder: from its playlists alone when they say everything, else with probes
    /// (which take as long as the origin's segments do, within the prober's time limit).
    func ladder(of content: ContentSet) async -> Result<ConditioningLadder, ConditioningLadder.Unsupported> {
        if case .success(let ladder) = ConditioningLadder.of(content) { return .success(ladder) }
        return ConditioningLadder.of(content, probes: await prober.probe(content))
    }

    /// Why a conditioned creative could not be read back.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    /// The conditioned creative in `directory` as an `AdCreative` whose URIs are under `url`.
    static func creative(in directory: String, url: String) throws -> AdCreative {
        func text(_ relative: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: directory + "/" + relative) else {
                throw Unreadable(description: "the conditioned creative lacks \(relative)")
            }
            return String(decoding: data, as: UTF8.self)
        }
        var multivariant = try MultivariantPlaylist(parsing: try text("master.m3u8"))
        let relative = AdMediaCatalog.mediaPlaylistURIs(of: multivariant)
        multivariant.resolveURIs(against: url)
        var playlists: [String: MediaPlaylist] = [:]
        let base = String(url.dropLast("master.m3u8".count))
        for path in relative {
            var media = try MediaPlaylist(parsing: try text(path))
            media.resolveURIs(against: base + path)
            playlists[base + path] = media
        }
        return AdCreative(url: url, catalog: AdMediaCatalog(multivariant: multivariant, playlists: playlists))
    }
}

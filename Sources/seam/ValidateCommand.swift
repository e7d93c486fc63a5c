import ArgumentParser
import AsyncHTTPClient
import Foundation
import HLS
import NIOCore

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an HLS playlist (or a DASH MPD) against the specification, with line numbers.",
        discussion: """
            Given a multivariant playlist, every rendition it lists is fetched and checked, and so are \
            the rules that must hold across renditions. Given a live playlist, it is reloaded for \
            --duration seconds and media-sequence, discontinuity-sequence and date-range behaviour is checked \
            over time; saved reloads of one media playlist (--reload, repeated) are checked the same way. \
            Given a DASH MPD, its rules and its timing and addressing (period continuity, ids, segment \
            coverage, presentation duration) are checked, each finding naming the element. \
            Exit status: 0 clean (warnings allowed), 1 errors found, 2 the playlist could not be read.
            """
    )

    @Argument(help: "Playlist file path or http(s) URL.")
    var location: String

    @Flag(help: "Print findings as JSON.")
    var json = false

    @Flag(name: .customLong("print"), help: "Also write the playlist back out as Seam serializes it.")
    var printPlaylist = false

    @Option(help: "For live playlists: seconds to keep reloading and checking (0: check one snapshot).")
    var duration: Double = 0

    @Flag(help: "Do not fetch the renditions of a multivariant playlist.")
    var noRenditions = false

    @Option(
        name: .customLong("reload"),
        help:
            "A later copy of the same media playlist (a saved reload), checked against the one before it; repeat in order."
    )
    var reloads: [String] = []

    @Option(help: "Per-request timeout in seconds.")
    var timeout: Int64 = 10

    mutating func run() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let loader = PlaylistLoader(client: client, timeout: .seconds(timeout), maximumBytes: 16 << 20)
        let run = ValidationRun(
            loader: loader, liveDuration: duration, fetchRenditions: !noRenditions, reloadSnapshots: reloads)
        let outcome = await run.validate(location)
        try? await client.shutdown()

        if printPlaylist, let playlist = outcome.playlist {
            print(playlist.serialized(), terminator: "")
        }
        if json {
            print(outcome.jsonText())
        } else {
            for diagnostic in outcome.diagnostics { print(diagnostic.description) }
            for finding in outcome.mpdFindings {
                print("\(finding.severity) [\(finding.rule)] \(finding.path.map { $0 + ": " } ?? "")\(finding.message)")
            }
            print(outcome.summary)
        }
        if outcome.unreadable { throw ExitCode(2) }
        if outcome.errorCount > 0 { throw ExitCode(1) }
    }
}

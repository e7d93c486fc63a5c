import Foundation
import Testing
import HLS

/// Every playlist others wrote: parsed without a crash, written back to the same meaning,
/// and the broken ones reported with line numbers.
@Suite struct CorpusTests {
    static let corpus: [URL] = {
        guard let root = Bundle.module.url(forResource: "corpus", withExtension: nil),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "m3u8" }.sorted { $0.path < $1.path }
    }()

    static func name(_ url: URL) -> String {
        url.path.components(separatedBy: "/corpus/").last ?? url.lastPathComponent
    }

    static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// Files the strict check must reject, with a rule each must break.
    static let invalid: [String: PlaylistRule] = [
        "carlanton/media/iframe.m3u8": .malformedTag,
        // The example of draft-pantos-hls-rfc8216bis itself: CAN-SKIP-UNTIL=12 with a target of 4 (4.4.3.8: at least six times).
        "carlanton/media/ll-hls.m3u8": .invalidAttributeValue,
        "carlanton/media/ll-hls-byteranges.m3u8": .invalidAttributeValue,
        "carlanton/media/media-lenient.m3u8": .playlistTypeMismatch,
        "carlanton/media/media-playlist-with-date-range.m3u8": .duplicateDateRangeID,
        "carlanton/media/media-variables.m3u8": .playlistTypeMismatch,
        "carlanton/media/mp4-iframe.m3u8": .malformedTag,
        "carlanton/media/mp4.m3u8": .malformedTag,
        "carlanton/media/variant.m3u8": .malformedTag,
        "carlanton/multivariant/multivariant-variables.m3u8": .versionTooLow,
        "carlanton/open-m3u8/negativeDurationMediaPlaylist.m3u8": .negativeDuration,
        "carlanton/open-m3u8/playlistWithMultipleEncryptedMediaSegments.m3u8": .versionTooLow,
        "carlanton/open-m3u8/twoMediaPlaylists.m3u8": .versionTooLow,
        "carlanton/open-m3u8/withDiscontinuity.m3u8": .malformedTag,
        "hls-splice/demux/ad2/master.m3u8": .missingGroup,
        "hls-splice/demux/ad6/master.m3u8": .missingGroup,
        "hls-splice/demux/hls2/master.m3u8": .missingGroup,
        "hls-splice/demux/hls3_v_a_s/master.m3u8": .missingGroup,
        "hls-splice/demux_n_cmaf/hls1/master.m3u8": .missingGroup,
        // EXT-X-DATERANGE without any EXT-X-PROGRAM-DATE-TIME (4.4.5.1).
        "hls-splice/hls2_cue/index_0_v.m3u8": .dateRangeWithoutProgramDateTime,
        "hls-splice/hls2_cue/index_1_v.m3u8": .dateRangeWithoutProgramDateTime,
        "hls-splice/hls2_cue/index_stereo-en_a.m3u8": .dateRangeWithoutProgramDateTime,
        "m3u8-rs/master-not-ending-in-newline.m3u8": .malformedTag,
        "m3u8-rs/masterplaylist.m3u8": .malformedTag,
        "m3u8-rs/media-playlist-with-cues.m3u8": .missingTargetDuration,
    ]

    @Test func corpusIsPresent() {
        #expect(Self.corpus.count >= 170)
    }

    @Test func everyFileParsesAndRoundTripsStably() throws {
        for url in Self.corpus {
            let name = Self.name(url)
            let parsed = try Playlist.parse(Self.text(url))
            let written = parsed.playlist.serialized()
            let reparsed = try Playlist.parse(written)
            #expect(reparsed.playlist == parsed.playlist, "\(name): the model changed after a round trip")
            #expect(reparsed.playlist.serialized() == written, "\(name): Seam's own output is not a fixed point")
        }
    }

    @Test func validFilesPassAndInvalidFilesGetLineNumberedErrors() throws {
        var invalidSeen = 0
        for url in Self.corpus {
            let name = Self.name(url)
            let report = PlaylistValidator.validate(try Self.text(url))
            if let rule = Self.invalid[name] {
                invalidSeen += 1
                #expect(!report.isValid, "\(name) should be rejected")
                #expect(
                    report.errors.contains { $0.rule == rule },
                    "\(name): expected \(rule.rawValue), got \(report.errors)")
                #expect(report.errors.allSatisfy { $0.line != nil }, "\(name): an error without a line number")
            } else {
                #expect(report.isValid, "\(name): \(report.errors)")
            }
        }
        #expect(invalidSeen == Self.invalid.count)
    }

    /// The independent check: Python's m3u8 package reads the same meaning from Seam's output.
    @Test func pythonM3u8ReadsTheSameMeaning() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-meaning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments: [String] = []
        for (index, url) in Self.corpus.enumerated() {
            let parsed = try Playlist.parse(Self.text(url))
            let output = directory.appendingPathComponent("\(index).m3u8")
            try Data(parsed.playlist.serialized().utf8).write(to: output)
            arguments += [url.path, output.path]
        }
        let result = try await PythonTool.runOffThePool(script: "m3u8_meaning.py", arguments: arguments)
        guard let result else { return }
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\(Self.corpus.count) of \(Self.corpus.count) pairs mean the same"))
    }
}

/// Runs a script from `scripts/` with python3; nil (and a note) when the tool is missing
/// outside CI. Under CI=true a missing tool fails the test.
enum PythonTool {
    struct Result {
        var status: Int32
        var output: String
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs on a thread of its own: waiting for a subprocess must not hold one of the few
    /// threads the whole test run's async tests share.
    static func runOffThePool(script: String, arguments: [String]) async throws -> Result? {
        let outcome: Swift.Result<Result?, any Error> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Swift.Result { try run(script: script, arguments: arguments) })
            }
        }
        return try outcome.get()
    }

    static func run(script: String, arguments: [String]) throws -> Result? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/\(script)").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        if process.terminationStatus == 3 || process.terminationStatus == 127 {
            let reason =
                "skipped: python3 with the m3u8 package is not available (\(output.trimmingCharacters(in: .whitespacesAndNewlines)))"
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("CI=true but \(reason)")
            } else {
                print(reason)
            }
            return nil
        }
        return Result(status: process.terminationStatus, output: output)
    }
}

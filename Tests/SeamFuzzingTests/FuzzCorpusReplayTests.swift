import Foundation
import HLS
import Testing
@testable import SeamFuzzing

/// Replays every seed and every input that once crashed a fuzz target (the `regress-*` files)
/// through the same code libFuzzer runs, so a fixed crash stays fixed in the ordinary test run.
/// `scripts/fuzz.sh` seeds libFuzzer from these folders; a crash it finds is copied here.
@Suite struct FuzzCorpusReplayTests {
    static func inputs(_ target: FuzzTarget) throws -> [URL] {
        let folder = try #require(Bundle.module.url(forResource: "Corpus/\(target.rawValue)", withExtension: nil))
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusInputRunsWithoutATrap(_ target: FuzzTarget) throws {
        let files = try Self.inputs(target)
        #expect(files.count >= 3, "the \(target.rawValue) corpus should hold seeds")
        for file in files {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    /// The issue 9 reproducers are refused by the numbers policy with their line, not trapped on.
    @Test func hostileNumbersAreOutOfRangeWithTheirLine() throws {
        let text =
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:9223372036854775808,\na.ts\n#EXT-X-ENDLIST\n"
        let parsed = try MediaPlaylist.parse(text)
        let refused = try #require(parsed.outOfRangeValue)
        #expect(refused.line == 4)
        #expect(parsed.playlist.segments.count == 1)
        #expect(parsed.playlist.segments[0].duration == 0)
        #expect(throws: PlaylistParseError.self) { try MediaPlaylist(parsing: text) }
    }

    @Test func separatorSplitsAnInputIntoParts() {
        let input = Array("a\n#SEAM-FUZZ-NEXT\nb\n#SEAM-FUZZ-NEXT\nc".utf8)
        #expect(FuzzTarget.parts(input).map { String(decoding: $0, as: UTF8.self) } == ["a", "b", "c"])
        #expect(FuzzTarget.parts(input, limit: 2).count == 2)
    }
}

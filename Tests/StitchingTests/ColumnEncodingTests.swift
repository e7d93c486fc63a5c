import Foundation
import HLS
import Testing

@testable import Stitching

/// A record's columns written element by element (`encodeColumn`) are the very JSON the arrays
/// themselves give: records written by replicas of this release and of the ones before are the
/// same bytes, and each reads the other's.
@Suite struct ColumnEncodingTests {
    struct Columns: Encodable {
        var ints: [Int]
        var optionalInts: [Int?]
        var narrowInts: [Int32?]
        var doubles: [Double]
        var optionalDoubles: [Double?]
        var flags: [Bool]
        /// Written with `encodeColumn`, else as the arrays.
        var byColumn: Bool

        enum Keys: String, CodingKey { case ints, optionalInts, narrowInts, doubles, optionalDoubles, flags }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            if byColumn {
                try container.encodeColumn(ints, forKey: .ints)
                try container.encodeColumn(optionalInts, forKey: .optionalInts)
                try container.encodeColumn(narrowInts, forKey: .narrowInts)
                try container.encodeColumn(doubles, forKey: .doubles)
                try container.encodeColumn(optionalDoubles, forKey: .optionalDoubles)
                try container.encodeColumn(flags, forKey: .flags)
            } else {
                try container.encode(ints, forKey: .ints)
                try container.encode(optionalInts, forKey: .optionalInts)
                try container.encode(narrowInts, forKey: .narrowInts)
                try container.encode(doubles, forKey: .doubles)
                try container.encode(optionalDoubles, forKey: .optionalDoubles)
                try container.encode(flags, forKey: .flags)
            }
        }
    }

    static let cases: [Columns] = [
        Columns(
            ints: [], optionalInts: [], narrowInts: [], doubles: [], optionalDoubles: [], flags: [], byColumn: false),
        Columns(
            ints: [0, -1, 117, Int.max, Int.min], optionalInts: [nil, 3, nil, -40], narrowInts: [nil, Int32.max, 0],
            doubles: [6, 5.005, 0.1, 1_800_000_540.25, -0.0, 1e-7, 123_456_789.123],
            optionalDoubles: [nil, 1_800_000_000, 2.002, nil], flags: [true, false, false], byColumn: false),
    ]

    @Test("Each column's JSON is the array's, byte for byte, sorted keys and all")
    func sameBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for var columns in Self.cases {
            let asArrays = try encoder.encode(columns)
            columns.byColumn = true
            let byColumn = try encoder.encode(columns)
            #expect(String(decoding: byColumn, as: UTF8.self) == String(decoding: asArrays, as: UTF8.self))
        }
    }

    @Test("A timeline with breaks and entries reads back from its record as it was")
    func timelineRoundTrip() throws {
        var timeline = LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6))
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:10\n"
        for k in 10...20 {
            if k == 12 { text += "#EXT-X-CUE-OUT:12\n" }
            if k == 14 { text += "#EXT-X-CUE-IN\n" }
            text += "#EXTINF:6.0,\nhttps://origin.example/seg_\(k).ts\n"
        }
        let window = try MediaPlaylist(parsing: text)
        while case .needsDecision(let pending) = timeline.advance(with: window) {
            timeline.resolve(
                breakNumber: pending.number,
                layout: LiveBreakLayout.make(breakDuration: pending.duration, ads: [[5, 5]], slate: [1, 1]))
        }
        #expect(timeline.entries.contains { if case .breakSlot = $0.source { true } else { false } })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(timeline)
        let read = try JSONDecoder().decode(LiveTimeline.self, from: bytes)
        #expect(try encoder.encode(read) == bytes)
        #expect(read.entries == timeline.entries)
    }
}

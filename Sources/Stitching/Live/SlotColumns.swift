/// A break layout's slots as a session record keeps them: one array per field (see
/// `EntryColumns`). Records written before read as they were.
@propertyWrapper
public struct SlotColumns: Sendable, Hashable, Codable {
    public var wrappedValue: [LiveBreakLayout.Slot]

    public init(wrappedValue: [LiveBreakLayout.Slot]) {
        self.wrappedValue = wrappedValue
    }

    private enum Keys: String, CodingKey {
        case ad, segment, duration, end, discontinuity
    }

    public init(from decoder: any Decoder) throws {
        guard let columns = try? decoder.container(keyedBy: Keys.self), columns.contains(.segment) else {
            wrappedValue = try [LiveBreakLayout.Slot](from: decoder)
            return
        }
        let ads = try columns.decode([Int?].self, forKey: .ad)
        let segments = try columns.decode([Int].self, forKey: .segment)
        let durations = try columns.decode([Double].self, forKey: .duration)
        let ends = try columns.decode([Double].self, forKey: .end)
        let discontinuities = try columns.decode([Bool].self, forKey: .discontinuity)
        let count = segments.count
        guard [ads.count, durations.count, ends.count, discontinuities.count].allSatisfy({ $0 == count }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .segment, in: columns, debugDescription: "the slots' columns differ in length")
        }
        wrappedValue = (0..<count).map { index in
            LiveBreakLayout.Slot(
                source: Self.source(ad: ads[index], segment: segments[index]),
                duration: durations[index], end: ends[index], discontinuity: discontinuities[index])
        }
    }

    /// A bumper's slots in the `ad` column: numbers no ad has (records written before bumpers
    /// hold none of them).
    static let startBumper = -1
    static let endBumper = -2

    static func source(ad: Int?, segment: Int) -> LiveBreakLayout.Slot.Source {
        switch ad {
        case nil: return .slate(segment: segment)
        case startBumper?: return .bumper(position: .start, segment: segment)
        case endBumper?: return .bumper(position: .end, segment: segment)
        case let ad?: return .ad(ad: ad, segment: segment)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var ads: [Int?] = [], segments: [Int] = [], durations: [Double] = [], ends: [Double] = []
        var discontinuities: [Bool] = []
        for slot in wrappedValue {
            switch slot.source {
            case .ad(let ad, let segment):
                ads.append(ad)
                segments.append(segment)
            case .slate(let segment):
                ads.append(nil)
                segments.append(segment)
            case .bumper(let position, let segment):
                ads.append(position == .start ? Self.startBumper : Self.endBumper)
                segments.append(segment)
            }
            durations.append(slot.duration)
            ends.append(slot.end)
            discontinuities.append(slot.discontinuity)
        }
        var columns = encoder.container(keyedBy: Keys.self)
        try columns.encodeColumn(ads, forKey: .ad)
        try columns.encodeColumn(segments, forKey: .segment)
        try columns.encodeColumn(durations, forKey: .duration)
        try columns.encodeColumn(ends, forKey: .end)
        try columns.encodeColumn(discontinuities, forKey: .discontinuity)
    }
}

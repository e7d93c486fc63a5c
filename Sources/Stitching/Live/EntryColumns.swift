/// A live timeline's entries as a session record keeps them: one array per field, not one object
/// per entry. A shared store writes a live session's record at each break change, and encoding an
/// object per entry (a keyed container each) was most of that cost (BENCHMARKS.md, the profile
/// of the PostgreSQL replicas). Records written before read as they were (an array of objects).
///
/// Written by the timeline (`Written`), which gives each entry's program date-time: a break
/// slot's is its break's, which the entry does not hold.
@propertyWrapper
public struct EntryColumns: Sendable, Equatable, Decodable {
    public var wrappedValue: [LiveEntry]

    public init(wrappedValue: [LiveEntry]) {
        self.wrappedValue = wrappedValue
    }

    private enum Keys: String, CodingKey {
        case content, breakNumber, slot, anchor, duration, discontinuity, programDateTime
    }

    public init(from decoder: any Decoder) throws {
        guard let columns = try? decoder.container(keyedBy: Keys.self), columns.contains(.anchor) else {
            wrappedValue = try [LiveEntry](from: decoder)
            return
        }
        let content = try columns.decode([Int?].self, forKey: .content)
        let breakNumbers = try columns.decode([Int32?].self, forKey: .breakNumber)
        let slots = try columns.decode([Int32?].self, forKey: .slot)
        let anchors = try columns.decode([Int].self, forKey: .anchor)
        let durations = try columns.decode([Double].self, forKey: .duration)
        let discontinuities = try columns.decode([Bool].self, forKey: .discontinuity)
        let dates = try columns.decode([Double?].self, forKey: .programDateTime)
        let count = anchors.count
        guard
            [content.count, breakNumbers.count, slots.count, durations.count, discontinuities.count, dates.count]
                .allSatisfy({ $0 == count })
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .anchor, in: columns, debugDescription: "the entries' columns differ in length")
        }
        var entries: [LiveEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let source: LiveEntry.Source
            if let sequence = content[index] {
                source = .content(sequence)
            } else if let number = breakNumbers[index], let slot = slots[index] {
                source = .breakSlot(breakNumber: number, slot: slot)
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .content, in: columns, debugDescription: "entry \(index) names no source")
            }
            guard LiveEntry.isConsistent(source, anchor: anchors[index]) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .anchor, in: columns,
                    debugDescription:
                        "entry \(index) is a content segment anchored at another, or a break slot out of range")
            }
            entries.append(
                LiveEntry(
                    source: source, anchor: anchors[index], duration: durations[index],
                    discontinuity: discontinuities[index], programDateTime: dates[index]))
        }
        wrappedValue = entries
    }

    /// The columns as a record writes them, with each entry's date from `dates`.
    struct Written: Encodable {
        let entries: [LiveEntry]
        let dates: (LiveEntry) -> Double?

        func encode(to encoder: any Encoder) throws {
            var content: [Int?] = [], breakNumbers: [Int32?] = [], slots: [Int32?] = []
            var anchors: [Int] = [], durations: [Double] = [], discontinuities: [Bool] = [], dates: [Double?] = []
            for entry in entries {
                switch entry.source {
                case .content(let sequence):
                    content.append(sequence)
                    breakNumbers.append(nil)
                    slots.append(nil)
                case .breakSlot(let number, let slot):
                    content.append(nil)
                    breakNumbers.append(number)
                    slots.append(slot)
                }
                anchors.append(entry.anchor)
                durations.append(entry.duration)
                discontinuities.append(entry.discontinuity)
                dates.append(self.dates(entry))
            }
            var columns = encoder.container(keyedBy: Keys.self)
            try columns.encodeColumn(content, forKey: .content)
            try columns.encodeColumn(breakNumbers, forKey: .breakNumber)
            try columns.encodeColumn(slots, forKey: .slot)
            try columns.encodeColumn(anchors, forKey: .anchor)
            try columns.encodeColumn(durations, forKey: .duration)
            try columns.encodeColumn(discontinuities, forKey: .discontinuity)
            try columns.encodeColumn(dates, forKey: .programDateTime)
        }
    }
}

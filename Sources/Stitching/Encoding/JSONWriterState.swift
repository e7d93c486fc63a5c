import Foundation

/// The bytes written so far and the containers still open, innermost last
/// (`JSONByteWriter`'s, for `StreamingJSONEncoder`).
///
/// Containers are written in the order values are encoded: a container is open until a write
/// reaches one of its ancestors (every `Encodable` conformance writes a nested container's
/// contents before it goes on with its parent), and is then closed: its object's members sorted,
/// its bracket written. A write into a container already closed throws `Misuse.containerClosed`
/// and marks the state `misused`; every error the state throws marks it `spoiled`.
struct JSONWriterState {
    enum Misuse: Error { case containerClosed }

    enum Kind {
        /// A place for one value that has not said what it is yet (an encoder handed to a value).
        case pending
        case object
        case array
        /// A single value written (or about to be) in the place.
        case single
    }

    private struct Frame {
        var id: Int
        var kind: Kind
        /// Where the container's first byte is (its `{` or `[`, or the value's first byte).
        var start: Int
        /// How many members or elements it has.
        var count: Int
        /// Where its members begin in `members`.
        var firstMember: Int
        /// The key (or index) the container is written under in its parent.
        var key: JSONPathKey?
    }

    /// One member of an object: where its `"key":value` begins and where its key's bytes are.
    private struct Member {
        var start: Int
        var keyStart: Int
        var keyEnd: Int
    }

    private(set) var bytes: [UInt8] = []
    private(set) var misused = false
    var spoiled = false
    /// The open containers, outermost first.
    private var open: [Frame] = []
    /// The members of every open object, each object's after its parent's.
    private var members: [Member] = []
    private var nextID = 0
    /// Kept between objects: the members' order and the bytes of an object being sorted.
    private var order: [Int] = []
    private var rewritten: [UInt8] = []

    init() { bytes.reserveCapacity(4096) }

    // MARK: Places and containers

    /// A new place for one value at the end of the bytes; its id.
    mutating func openPlace(key: JSONPathKey?) -> Int {
        nextID += 1
        open.append(
            Frame(id: nextID, kind: .pending, start: bytes.count, count: 0, firstMember: members.count, key: key))
        return nextID
    }

    /// Makes the place `id` the innermost open container, closing those inside it.
    /// - Throws: `Misuse.containerClosed` when it is closed already.
    mutating func reach(_ id: Int) throws {
        // A container whose opening failed (its parent was closed) has no place.
        guard id > 0 else { throw misuse() }
        while let last = open.last, last.id != id {
            guard last.id > id else { throw misuse() }
            close()
        }
        guard !open.isEmpty else { throw misuse() }
    }

    private mutating func misuse() -> Misuse {
        misused = true
        spoiled = true
        return .containerClosed
    }

    mutating func closeThrough(_ id: Int) throws {
        try reach(id)
        close()
    }

    /// Closes the innermost container: an empty place becomes `{}` as in Foundation's encoder.
    private mutating func close() {
        guard let frame = open.popLast() else { return }
        switch frame.kind {
        case .pending:
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "}"))
        case .single:
            break
        case .array:
            bytes.append(UInt8(ascii: "]"))
        case .object:
            sortMembers(of: frame)
            members.removeSubrange(frame.firstMember...)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Turns the place `id` (made the innermost) into `kind`, or checks it already is one.
    mutating func become(_ id: Int, _ kind: Kind) throws {
        try reach(id)
        let index = open.count - 1
        switch (open[index].kind, kind) {
        case (.pending, .object):
            open[index].kind = .object
            bytes.append(UInt8(ascii: "{"))
        case (.pending, .array):
            open[index].kind = .array
            bytes.append(UInt8(ascii: "["))
        case (.pending, .single):
            open[index].kind = .single
        case (.object, .object), (.array, .array):
            break
        default:
            // A value asked for a second container of another kind for the same place, or wrote
            // a single value twice: Foundation's encoder refuses this too.
            spoiled = true
            throw EncodingError.invalidValue(
                kind, EncodingError.Context(codingPath: [], debugDescription: "a value encoded twice in one place"))
        }
    }

    /// A nested container's place: a new place, turned into `kind` at once.
    mutating func openContainer(_ kind: Kind, key: JSONPathKey) throws -> Int {
        let place = openPlace(key: key)
        try become(place, kind)
        return place
    }

    /// The keys from the top to the place `id` (empty once it is closed).
    func codingPath(of id: Int) -> [any CodingKey] {
        guard let index = open.firstIndex(where: { $0.id == id }) else { return [] }
        return open[...index].compactMap(\.key)
    }

    func count(of id: Int) -> Int { open.last(where: { $0.id == id })?.count ?? 0 }

    // MARK: Members and elements

    /// Starts a member of the object `id`: its separator and key; the value is written next.
    mutating func beginMember(of id: Int, key: String) throws {
        try become(id, .object)
        let index = open.count - 1
        if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].count += 1
        let start = bytes.count
        writeString(key)
        members.append(Member(start: start, keyStart: start + 1, keyEnd: bytes.count - 1))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an element of the array `id`: its separator; the value is written next. Its index.
    mutating func beginElement(of id: Int) throws -> Int {
        try become(id, .array)
        let index = open.count - 1
        if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].count += 1
        return open[index].count - 1
    }

    /// Orders the members of a closing object by their keys' bytes, the last of equal keys kept
    /// (a key written twice keeps its last value, as in Foundation's encoder).
    private mutating func sortMembers(of frame: Frame) {
        let first = frame.firstMember, count = members.count - first
        guard count > 1 else { return }
        var sorted = true
        for index in (first + 1)..<members.count where compareKeys(members[index - 1], members[index]) >= 0 {
            sorted = false
            break
        }
        if sorted { return }
        // Each member's bytes end where the next one's separator is, the last at the end.
        let end = bytes.count
        // The scratch arrays taken out (not copied: swapped) so they stay uniquely referenced.
        var order: [Int] = []
        swap(&order, &self.order)
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: first..<members.count)
        // Stable, so of equal keys the last written is last; it is the one kept.
        order.sort { a, b in
            let comparison = compareKeys(members[a], members[b])
            return comparison != 0 ? comparison < 0 : a < b
        }
        var rewritten: [UInt8] = []
        swap(&rewritten, &self.rewritten)
        rewritten.removeAll(keepingCapacity: true)
        rewritten.append(UInt8(ascii: "{"))
        var wrote = false
        for position in order.indices {
            let index = order[position]
            if position + 1 < order.count, compareKeys(members[index], members[order[position + 1]]) == 0 { continue }
            if wrote { rewritten.append(UInt8(ascii: ",")) }
            wrote = true
            let memberEnd = index + 1 < members.count ? members[index + 1].start - 1 : end
            rewritten.append(contentsOf: bytes[members[index].start..<memberEnd])
        }
        bytes.replaceSubrange(frame.start..<end, with: rewritten)
        self.order = order
        self.rewritten = rewritten
    }

    private func compareKeys(_ a: Member, _ b: Member) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            let lengthA = a.keyEnd - a.keyStart, lengthB = b.keyEnd - b.keyStart
            let common = min(lengthA, lengthB)
            var offset = 0
            while offset < common {
                let x = buffer[a.keyStart + offset], y = buffer[b.keyStart + offset]
                if x != y { return x < y ? -1 : 1 }
                offset += 1
            }
            return lengthA == lengthB ? 0 : (lengthA < lengthB ? -1 : 1)
        }
    }

    // MARK: Primitives

    /// Writes `value` in the place `id` as a single value when it is one the writer writes
    /// itself; false (nothing written) for any other.
    mutating func writePrimitive<Value: Encodable>(in id: Int, _ value: Value) throws -> Bool {
        guard Self.isPrimitive(Value.self) else { return false }
        try become(id, .single)
        return try writePrimitive(value)
    }

    private static func isPrimitive<Value>(_ type: Value.Type) -> Bool {
        type == String.self || type == Int.self || type == Double.self || type == Bool.self || type == Int64.self
            || type == Int32.self || type == UInt8.self || type == UInt.self || type == UInt64.self
            || type == UInt32.self || type == Int16.self || type == UInt16.self || type == Int8.self
            || type == Float.self || type == Data.self || type == URL.self || type == Decimal.self
    }

    /// Writes `value` when it is one the writer writes itself (numbers, strings, Booleans, and
    /// the Foundation types `JSONEncoder` writes specially); false for any other.
    mutating func writePrimitive<Value: Encodable>(_ value: Value) throws -> Bool {
        // Type identity, not a cast: `as?` on a generic value is the dynamic cast that made
        // Foundation's encoder slow on arrays.
        if Value.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if Value.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if Value.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if Value.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if Value.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if Value.self == Int32.self {
            writeInteger(unsafeBitCast(value, to: Int32.self))
        } else if Value.self == UInt8.self {
            writeInteger(unsafeBitCast(value, to: UInt8.self))
        } else if Value.self == UInt.self {
            writeInteger(unsafeBitCast(value, to: UInt.self))
        } else if Value.self == UInt64.self {
            writeInteger(unsafeBitCast(value, to: UInt64.self))
        } else if Value.self == UInt32.self {
            writeInteger(unsafeBitCast(value, to: UInt32.self))
        } else if Value.self == Int16.self {
            writeInteger(unsafeBitCast(value, to: Int16.self))
        } else if Value.self == UInt16.self {
            writeInteger(unsafeBitCast(value, to: UInt16.self))
        } else if Value.self == Int8.self {
            writeInteger(unsafeBitCast(value, to: Int8.self))
        } else if Value.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self))
        } else if Value.self == Data.self, let data = value as? Data {
            writeString(data.base64EncodedString())
        } else if Value.self == URL.self, let url = value as? URL {
            writeString(url.absoluteString)
        } else if Value.self == Decimal.self, let decimal = value as? Decimal {
            writeNumberText(decimal.description)
        } else {
            return false
        }
        return true
    }

    mutating func writeNull() {
        for byte in "null".utf8 { bytes.append(byte) }
    }

    mutating func writeBool(_ value: Bool) {
        for byte in (value ? "true" : "false").utf8 { bytes.append(byte) }
    }

    mutating func writeInteger(_ value: some BinaryInteger) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits from the lowest; the magnitude as UInt64 so the most negative value has one
        // (at most 20 digits).
        var magnitude = UInt64(value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }

    mutating func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw nonFinite(value) }
        writeNumberText(value.description)
    }

    mutating func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw nonFinite(value) }
        writeNumberText(value.description)
    }

    /// A number's description as Foundation's encoder writes it: a whole number without `.0`.
    private mutating func writeNumberText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var count = utf8.count
            if count > 2, utf8[count - 2] == UInt8(ascii: "."), utf8[count - 1] == UInt8(ascii: "0") { count -= 2 }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<count]))
        }
    }

    private mutating func nonFinite(_ value: Any) -> EncodingError {
        spoiled = true
        return EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a number JSON can hold"))
    }

    /// A JSON string: `"` and `\` escaped, control characters as their short escapes or `\u00XX`,
    /// everything else (slashes and non-ASCII included) as its UTF-8 bytes.
    mutating func writeString(_ value: String) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    // \u00XX: the high nibble is 0 or 1.
                    let low = byte & 0x0F
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0") + (byte >> 4))
                    bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

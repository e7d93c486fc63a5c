import Foundation

/// JSON with sorted keys, written as the value is encoded: what a session record is stored as.
///
/// Foundation's `JSONEncoder` first builds a tree of the whole value (an enum per value, a
/// dictionary per object), then sorts each object's keys with a locale-aware string comparison
/// and writes the tree out. A shared store writes a live session's record at each break's
/// decision and end, and that encoding was the largest item in the PostgreSQL replicas' profile
/// (BENCHMARKS.md, PostgreSQL ×2). This encoder writes each value's bytes where they go, keeps
/// only the byte ranges of an open object's members, and orders those members by their keys'
/// bytes when the object closes. Its output is JSON that `JSONDecoder` reads to the same value
/// (`StreamingJSONEncoderTests` checks it against `JSONEncoder` on records and on edge values);
/// equal values give equal bytes.
///
/// Written as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` and its default
/// strategies writes them: dates as their `Date.encode(to:)` (seconds since 2001), `Data` as
/// base64, `URL` as its absolute string, non-finite numbers refused. Keys are ordered by their
/// UTF-8 bytes (Foundation orders them numerically and without case, so the two may differ in
/// key order, never in meaning).
package struct StreamingJSONEncoder: Sendable {
    package init() {}

    package func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONByteWriter()
        do {
            try writer.writeTop(value)
        } catch JSONByteWriter.Misuse.containerClosed {
            // A value that wrote into a container after a sibling of it had taken its place (no
            // conformance in Seam does). Foundation's encoder keeps every container open to the
            // end, so it writes such a value correctly.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(value))
        }
        return writer.bytes
    }
}

/// The bytes written so far and the containers still open, innermost last.
///
/// Containers are written in the order values are encoded: a container is open until a write
/// reaches one of its ancestors (every `Encodable` conformance writes a nested container's
/// contents before it goes on with its parent), and is then closed: its object's members sorted,
/// its bracket written. A write into a container already closed throws `Misuse.containerClosed`.
final class JSONByteWriter {
    enum Misuse: Error { case containerClosed }

    private(set) var bytes: [UInt8] = []
    /// The open containers, outermost first.
    private var open: [Frame] = []
    /// The members of every open object, each object's after its parent's.
    private var members: [Member] = []
    private var nextID = 0

    init() { bytes.reserveCapacity(4096) }

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
    }

    /// One member of an object: where its `"key":value` begins and where its key's bytes are.
    private struct Member {
        var start: Int
        var keyStart: Int
        var keyEnd: Int
    }

    // MARK: The top level and places

    func writeTop(_ value: some Encodable) throws {
        if try writePrimitive(value) { return }
        let place = openPlace()
        try value.encode(to: PlaceEncoder(writer: self, place: place, codingPath: []))
        try closeThrough(place)
    }

    /// A new place for one value at the end of the bytes; its id.
    private func openPlace() -> Int {
        nextID += 1
        open.append(Frame(id: nextID, kind: .pending, start: bytes.count, count: 0, firstMember: members.count))
        return nextID
    }

    /// Writes `value` (a value that is not a primitive) in a new place, closing what it opened.
    func writeNested(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        if try writePrimitive(value) { return }
        let place = openPlace()
        try value.encode(to: PlaceEncoder(writer: self, place: place, codingPath: codingPath))
        try closeThrough(place)
    }

    /// Makes the place `id` the innermost open container, closing those inside it.
    /// - Throws: `Misuse.containerClosed` when it is closed already.
    func reach(_ id: Int) throws {
        // A container whose opening failed (its parent was closed) has no place.
        guard id > 0 else { throw Misuse.containerClosed }
        while let last = open.last, last.id != id {
            guard last.id > id else { throw Misuse.containerClosed }
            close()
        }
        guard !open.isEmpty else { throw Misuse.containerClosed }
    }

    private func closeThrough(_ id: Int) throws {
        try reach(id)
        close()
    }

    /// Closes the innermost container: an empty place becomes `{}` as in Foundation's encoder.
    private func close() {
        guard let frame = open.popLast() else { return }
        switch frame.kind {
        case .pending:
            bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
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

    /// Turns the place `id` (the innermost) into `kind`, or checks it already is one.
    func become(_ id: Int, _ kind: Kind) throws {
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
            throw EncodingError.invalidValue(
                kind, EncodingError.Context(codingPath: [], debugDescription: "a value encoded twice in one place"))
        }
    }

    // MARK: Members and elements

    /// Starts a member of the object `id`: its separator and key; the value is written next.
    func beginMember(of id: Int, key: String) throws {
        try become(id, .object)
        let index = open.count - 1
        if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].count += 1
        let start = bytes.count
        writeString(key)
        members.append(Member(start: start, keyStart: start + 1, keyEnd: bytes.count - 1))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an element of the array `id`: its separator; the value is written next.
    func beginElement(of id: Int) throws {
        try become(id, .array)
        let index = open.count - 1
        if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].count += 1
    }

    func count(of id: Int) -> Int { open.last(where: { $0.id == id })?.count ?? 0 }

    /// A nested container's place: a new place, turned into `kind` at once.
    func openContainer(_ kind: Kind) throws -> Int {
        let place = openPlace()
        try become(place, kind)
        return place
    }

    /// A place for a value written through another encoder (`superEncoder`), left open.
    func openEncoderPlace() -> Int { openPlace() }

    /// Orders the members of a closing object by their keys' bytes, the last of equal keys kept
    /// (a key written twice keeps its last value, as in Foundation's encoder).
    private func sortMembers(of frame: Frame) {
        let list = members[frame.firstMember...]
        guard list.count > 1 else { return }
        var sorted = true
        var previous = list.startIndex
        for index in list.indices.dropFirst() {
            if compareKeys(list[previous], list[index]) >= 0 {
                sorted = false
                break
            }
            previous = index
        }
        if sorted { return }
        // Each member's bytes end where the next one's separator is, the last at the end.
        let end = bytes.count
        var spans: [(member: Member, end: Int)] = []
        spans.reserveCapacity(list.count)
        for index in list.indices {
            let memberEnd = index + 1 < list.endIndex ? list[index + 1].start - 1 : end
            spans.append((list[index], memberEnd))
        }
        // Stable, so of equal keys the last written is last; it is the one kept.
        let order = spans.indices.sorted { a, b in
            let comparison = compareKeys(spans[a].member, spans[b].member)
            return comparison != 0 ? comparison < 0 : a < b
        }
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(end - frame.start)
        rewritten.append(UInt8(ascii: "{"))
        var first = true
        for (position, index) in order.enumerated() {
            if position + 1 < order.count, compareKeys(spans[index].member, spans[order[position + 1]].member) == 0 {
                continue
            }
            if !first { rewritten.append(UInt8(ascii: ",")) }
            first = false
            rewritten.append(contentsOf: bytes[spans[index].member.start..<spans[index].end])
        }
        bytes.replaceSubrange(frame.start..<end, with: rewritten)
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
    func writePrimitive<Value: Encodable>(in id: Int, _ value: Value) throws -> Bool {
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
    func writePrimitive<Value: Encodable>(_ value: Value) throws -> Bool {
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
            writeRaw(decimal.description)
        } else {
            return false
        }
        return true
    }

    func writeNull() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    func writeBool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    func writeInteger(_ value: some BinaryInteger) {
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

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw nonFinite(value) }
        writeNumberText(value.description)
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw nonFinite(value) }
        writeNumberText(value.description)
    }

    /// A number's description as Foundation's encoder writes it: a whole number without `.0`.
    private func writeNumberText(_ text: String) {
        var text = text
        if text.hasSuffix(".0") { text.removeLast(2) }
        writeRaw(text)
    }

    private func nonFinite(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a number JSON can hold"))
    }

    private func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A JSON string: `"` and `\` escaped, control characters as their short escapes or `\u00XX`,
    /// everything else (slashes and non-ASCII included) as its UTF-8 bytes.
    func writeString(_ value: String) {
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
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

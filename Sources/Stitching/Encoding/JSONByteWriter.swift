/// What `StreamingJSONEncoder`'s encoders and containers share: the writer's state, reached
/// through one access per operation.
///
/// The state is a struct inside this class rather than the class's own properties: each access
/// to a class's stored property is checked for exclusivity at run time (`swift_beginAccess`),
/// and with a dozen properties touched per value those checks were a third of an encoding's
/// instructions (callgrind, `LiveTimelineBenchmark --encodes`). A value's own `encode(to:)` runs
/// between two accesses, never inside one.
final class JSONByteWriter {
    private var state = JSONWriterState()

    var bytes: [UInt8] { state.bytes }
    /// Whether a write reached a container already closed.
    var misused: Bool { state.misused }
    /// Whether anything failed while the value was written (an error a conformance may have
    /// caught and gone on from).
    var spoiled: Bool { state.spoiled }

    func writeTop(_ value: some Encodable) throws {
        if try state.writePrimitive(value) { return }
        let place = state.openPlace(key: nil)
        try encode(value, in: place)
        try state.closeThrough(place)
    }

    /// Writes `value` in a new place under `key`, closing what it opened.
    func writeNested(_ value: some Encodable, key: JSONPathKey) throws {
        if try state.writePrimitive(value) { return }
        let place = state.openPlace(key: key)
        try encode(value, in: place)
        try state.closeThrough(place)
    }

    /// Lets `value` write itself in the place `id`.
    func encode(_ value: some Encodable, in id: Int) throws {
        do {
            try value.encode(to: PlaceEncoder(writer: self, place: id))
        } catch {
            state.spoiled = true
            throw error
        }
    }

    func become(_ id: Int, _ kind: JSONWriterState.Kind) throws { try state.become(id, kind) }
    func beginMember(of id: Int, key: String) throws { try state.beginMember(of: id, key: key) }
    /// The element's index.
    func beginElement(of id: Int) throws -> Int { try state.beginElement(of: id) }
    func count(of id: Int) -> Int { state.count(of: id) }
    func openContainer(_ kind: JSONWriterState.Kind, key: JSONPathKey) throws -> Int {
        try state.openContainer(kind, key: key)
    }
    func openEncoderPlace(key: JSONPathKey) -> Int { state.openPlace(key: key) }
    func codingPath(of id: Int) -> [any CodingKey] { state.codingPath(of: id) }

    func writeNull() { state.writeNull() }
    func writeBool(_ value: Bool) { state.writeBool(value) }
    func writeString(_ value: String) { state.writeString(value) }
    func writeInteger(_ value: some BinaryInteger) { state.writeInteger(value) }
    func writeDouble(_ value: Double) throws { try state.writeDouble(value) }
    func writeFloat(_ value: Float) throws { try state.writeFloat(value) }
    func writePrimitive(in id: Int, _ value: some Encodable) throws -> Bool {
        try state.writePrimitive(in: id, value)
    }
}

/// A step of a coding path as the writer keeps it: a container's key, or an element's index,
/// held without boxing the key (`any CodingKey` of a dictionary's key is a heap box).
struct JSONPathKey: CodingKey {
    private enum Name {
        case key(String)
        case index(Int)
    }

    private let name: Name
    let intValue: Int?

    init(_ key: some CodingKey) {
        name = .key(key.stringValue)
        intValue = key.intValue
    }

    init(index: Int) {
        name = .index(index)
        intValue = index
    }

    init?(stringValue: String) {
        name = .key(stringValue)
        intValue = nil
    }

    init?(intValue: Int) { self.init(index: intValue) }

    /// Foundation's encoder names an element "Index N".
    var stringValue: String {
        switch name {
        case .key(let key): return key
        case .index(let index): return "Index \(index)"
        }
    }
}

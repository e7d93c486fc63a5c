/// The `Encoder` a value is given by `StreamingJSONEncoder`: one place in the writer's bytes,
/// which becomes an object, an array or a single value as the value asks.
struct PlaceEncoder: Encoder {
    let writer: JSONByteWriter
    let place: Int
    var codingPath: [any CodingKey] { writer.codingPath(of: place) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer<Key>(writer: writer, place: place))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(writer: writer, place: place)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(writer: writer, place: place)
    }
}

/// An object's members, each written as it is encoded.
private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let place: Int
    var codingPath: [any CodingKey] { writer.codingPath(of: place) }

    init(writer: JSONByteWriter, place: Int) {
        self.writer = writer
        self.place = place
        // The object's `{` now, as Foundation's encoder makes an empty object for a container
        // that gets no member.
        try? writer.become(place, .object)
    }

    private func begin(_ key: Key) throws { try writer.beginMember(of: place, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        writer.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try writer.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try begin(key)
        try writer.writeNested(value, key: JSONPathKey(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = open(key, .object)
        return KeyedEncodingContainer(
            ObjectContainer<NestedKey>(writer: writer, place: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ArrayContainer(writer: writer, place: open(key, .array))
    }

    mutating func superEncoder() -> any Encoder {
        PlaceEncoder(writer: writer, place: open(SuperKey.super, nil))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        PlaceEncoder(writer: writer, place: open(key, nil))
    }

    /// A member whose value is a container (or, `kind` nil, a place for another encoder). The
    /// protocol lets these not throw: a write into this container after it was closed is found
    /// at the nested container's first write (its place is then not the innermost).
    private func open(_ key: some CodingKey, _ kind: JSONWriterState.Kind?) -> Int {
        do {
            try writer.beginMember(of: place, key: key.stringValue)
            if let kind { return try writer.openContainer(kind, key: JSONPathKey(key)) }
            return writer.openEncoderPlace(key: JSONPathKey(key))
        } catch {
            return -1
        }
    }
}

/// The key `superEncoder()` writes under, as Foundation's encoder names it.
private enum SuperKey: String, CodingKey { case `super` }

/// An array's elements, each written as it is encoded.
private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let place: Int
    var codingPath: [any CodingKey] { writer.codingPath(of: place) }

    init(writer: JSONByteWriter, place: Int) {
        self.writer = writer
        self.place = place
        try? writer.become(place, .array)
    }

    var count: Int { writer.count(of: place) }

    private func begin() throws { _ = try writer.beginElement(of: place) }

    mutating func encodeNil() throws {
        try begin()
        writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try begin()
        writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try begin()
        writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try begin()
        try writer.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try begin()
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int8) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int16) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int32) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int64) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt8) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt16) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt32) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: some Encodable) throws {
        let index = try writer.beginElement(of: place)
        try writer.writeNested(value, key: JSONPathKey(index: index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(ObjectContainer<NestedKey>(writer: writer, place: open(.object)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(writer: writer, place: open(.array))
    }

    mutating func superEncoder() -> any Encoder {
        PlaceEncoder(writer: writer, place: open(nil))
    }

    private func open(_ kind: JSONWriterState.Kind?) -> Int {
        do {
            let key = JSONPathKey(index: try writer.beginElement(of: place))
            if let kind { return try writer.openContainer(kind, key: key) }
            return writer.openEncoderPlace(key: key)
        } catch {
            return -1
        }
    }
}

/// One value in the place.
private struct SingleContainer: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let place: Int
    var codingPath: [any CodingKey] { writer.codingPath(of: place) }

    private func begin() throws { try writer.become(place, .single) }

    mutating func encodeNil() throws {
        try begin()
        writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try begin()
        writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try begin()
        writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try begin()
        try writer.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try begin()
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int8) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int16) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int32) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int64) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt8) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt16) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt32) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64) throws {
        try begin()
        writer.writeInteger(value)
    }

    mutating func encode(_ value: some Encodable) throws {
        if try writer.writePrimitive(in: place, value) { return }
        // Any other value writes its containers in this same place.
        try writer.encode(value, in: place)
    }
}

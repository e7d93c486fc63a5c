/// RFC 4648 base32 in lower case, without padding: the alphabet of session ids. Lower-case letters
/// and digits only, so an id is safe in a URL path, a file name and a log line, and survives
/// case-insensitive handling of the `a-z` part by being lower case on the way out.
enum Base32 {
    static let alphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The value of each ASCII byte in the alphabet, or 0xFF.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    static func isDigit(_ byte: UInt8) -> Bool { values[Int(byte)] != 0xFF }

    /// Five bits per character, most significant first; a last partial group is padded with zero bits.
    static func encode(_ bytes: [UInt8]) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                characters.append(alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { characters.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when a character is not in the alphabet. Leftover bits that do
    /// not make a whole byte are dropped.
    static func decode(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 5 / 8)
        var buffer = 0
        var bits = 0
        for character in text.utf8 {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            buffer = ((buffer << 5) | Int(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        return bytes
    }
}

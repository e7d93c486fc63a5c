#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as numbers, so ranges can be checked with masks rather than strings.
package enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    /// The 128 bits as two halves, most significant first.
    case v6(high: UInt64, low: UInt64)

    /// Parses the textual forms `inet_pton` accepts: dotted quad for IPv4 (no shorthand such as
    /// `127.1`, which resolution handles instead), and RFC 4291 IPv6 with an optional `%zone`
    /// (dropped) and optional brackets.
    package init?(_ text: String) {
        var value = Substring(text)
        if value.hasPrefix("["), value.hasSuffix("]") { value = value.dropFirst().dropLast() }
        if let zone = value.firstIndex(of: "%") { value = value[..<zone] }
        let string = String(value)
        if !string.contains(":") {
            var address = in_addr()
            guard inet_pton(AF_INET, string, &address) == 1 else { return nil }
            self = .v4(UInt32(bigEndian: address.s_addr))
        } else {
            var address = in6_addr()
            guard inet_pton(AF_INET6, string, &address) == 1 else { return nil }
            self = IPAddress(in6: address)
        }
    }

    init(in6 address: in6_addr) {
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: address) { raw in
            for index in 0..<16 { bytes[index] = raw[index] }
        }
        self = IPAddress(bytes16: bytes)
    }

    init(bytes16 bytes: [UInt8]) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self = .v6(high: high, low: low)
    }

    /// From a resolved `in_addr` (network byte order).
    init(in4 address: in_addr) {
        self = .v4(UInt32(bigEndian: address.s_addr))
    }

    package static func v4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> IPAddress {
        .v4(UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d))
    }

    package var isIPv4: Bool { if case .v4 = self { return true } else { return false } }

    /// The canonical text: dotted quad, or RFC 5952 IPv6.
    package var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        case .v6(let high, let low):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for index in 0..<8 { raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index)) }
                for index in 0..<8 { raw[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index)) }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// An address range in CIDR form (`10.0.0.0/8`, `fe80::/10`).
package struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    package let address: IPAddress
    package let prefixLength: Int

    package init(_ address: IPAddress, prefixLength: Int) {
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Parses `address/prefix`; a bare address is a single-host network (`/32` or `/128`).
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.isIPv4 ? 32 : 128
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...maximum).contains(prefix) else { return nil }
            prefixLength = prefix
        } else {
            prefixLength = maximum
        }
        self.address = address
    }

    package func contains(_ candidate: IPAddress) -> Bool {
        switch (address, candidate) {
        case (.v4(let network), .v4(let value)):
            guard prefixLength > 0 else { return true }
            let mask: UInt32 = prefixLength >= 32 ? .max : ~(UInt32.max >> UInt32(prefixLength))
            return network & mask == value & mask
        case (.v6(let networkHigh, let networkLow), .v6(let high, let low)):
            let highBits = min(prefixLength, 64)
            let lowBits = max(prefixLength - 64, 0)
            let highMask: UInt64 = highBits == 0 ? 0 : (highBits >= 64 ? .max : ~(UInt64.max >> UInt64(highBits)))
            let lowMask: UInt64 = lowBits == 0 ? 0 : (lowBits >= 64 ? .max : ~(UInt64.max >> UInt64(lowBits)))
            return networkHigh & highMask == high & highMask && networkLow & lowMask == low & lowMask
        default:
            return false
        }
    }

    package var description: String { "\(address)/\(prefixLength)" }
}

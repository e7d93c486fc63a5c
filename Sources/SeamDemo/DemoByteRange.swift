/// A single byte range requested with `Range: bytes=...`, resolved against a file size.
///
/// Players fetch `EXT-X-BYTERANGE` segments and probe files with ranges, so the origin must answer
/// them exactly: `bytes=a-b`, `bytes=a-` and suffix ranges `bytes=-n`. A header that does not parse,
/// or asks for several ranges, is ignored (RFC 9110 §14.2 lets a server send the whole file); a
/// range that starts past the end is unsatisfiable (416).
package enum DemoByteRange: Sendable, Equatable {
    /// Serve the whole file with 200.
    case whole
    /// Serve these bytes (inclusive bounds, within the file) with 206.
    case partial(ClosedRange<Int>)
    /// Answer 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Resolves a `Range` header value (or its absence) against a file of `size` bytes.
    package init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces

        if first.isEmpty {
            // Suffix range: the last `n` bytes.
            guard let count = Self.parse(last) else { self = .whole; return }
            guard count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .partial(max(0, size - count)...(size - 1))
            return
        }
        guard let start = Self.parse(first) else { self = .whole; return }
        var end = size - 1
        if !last.isEmpty {
            guard let requestedEnd = Self.parse(last) else { self = .whole; return }
            guard requestedEnd >= start else { self = .whole; return }
            end = min(requestedEnd, size - 1)
        }
        guard start < size else { self = .unsatisfiable; return }
        self = .partial(start...end)
    }

    private static func parse(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // Absurdly long numbers are clamped rather than rejected: they mean "to the end".
        return Int(digits) ?? Int.max
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: Substring {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return Substring(slice)
    }
}

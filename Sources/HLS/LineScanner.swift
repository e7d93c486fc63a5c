#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits playlist bytes into trimmed lines: LF or CRLF endings, a leading BOM,
/// and whitespace around each line are accepted.
struct LineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private(set) var lineNumber = 0
    /// Set when a NUL byte was seen on the last line returned.
    private(set) var sawBinary = false
    /// Set when spaces or tabs were trimmed from the start or end of the last (non-blank) line
    /// returned, which players accept and the syntax does not have.
    private(set) var trimmedWhitespace = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        } else {
            position = 0
        }
    }

    /// Whether the data starts with a UTF-8 byte order mark (skipped).
    var hasByteOrderMark: Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// The next line, empty lines included, without its line ending and surrounding whitespace.
    @inline(__always)
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        let n = bytes.count
        guard position < n, let base = bytes.baseAddress else { return nil }
        lineNumber += 1
        var start = position
        var end: Int
        // memchr is vectorized; the per-byte work below is only the trimming at both ends.
        if let found = memchr(base + position, Int32(UInt8.lf), n - position) {
            end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        } else {
            end = n
        }
        position = end + 1
        sawBinary = memchr(base + start, 0, end - start) != nil
        if end > start, bytes[end - 1] == .cr { end -= 1 }
        let lineEnd = end
        while end > start, bytes[end - 1] == .cr || bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
        let lineStart = start
        while start < end, bytes[start] == .space || bytes[start] == .tab { start += 1 }
        // Only spaces and tabs count: a CRLF ending is legal. A blank line is legal too.
        trimmedWhitespace = start < end && (start != lineStart || end != lineEnd)
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}

extension UnsafeBufferPointer<UInt8> {
    @inline(__always)
    func slice(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[from..<to])
    }

    @inline(__always)
    var text: String { String(decoding: self, as: UTF8.self) }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard self.count >= count else { return false }
        let p = prefix.utf8Start
        for i in 0..<count where self[i] != p[i] { return false }
        return true
    }
}

/// A tag line split into its name and the value after the colon.
struct TagLine {
    let name: UnsafeBufferPointer<UInt8>
    let value: UnsafeBufferPointer<UInt8>?
    /// Spaces or tabs came right after the colon (`#EXTINF: 10,`): players skip them, and so
    /// does `value`, so that the number after them is read rather than dropped.
    let spaceAfterColon: Bool

    /// `line` starts with `#`.
    @inline(__always)
    init(_ line: UnsafeBufferPointer<UInt8>) {
        var i = 1
        let n = line.count
        while i < n, line[i] != .colon { i += 1 }
        name = line.slice(1, i)
        guard i < n else {
            value = nil
            spaceAfterColon = false
            return
        }
        var start = i + 1
        while start < n, line[start] == .space || line[start] == .tab { start += 1 }
        value = line.slice(start, n)
        spaceAfterColon = start != i + 1
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Byte equality with a literal; the caller has checked the length.
    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        let p = literal.utf8Start
        // Compare from the end: tag names share the `EXT-X-` prefix.
        var i = count - 1
        while i >= 0 {
            if self[i] != p[i] { return false }
            i -= 1
        }
        return true
    }
}

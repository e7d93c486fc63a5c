import CSeamSystem

/// Bytes the process has allocated and not freed (glibc's `mallinfo2`: arena plus mmapped
/// blocks). Unlike the resident set size it does not count freed memory malloc keeps for reuse,
/// so dividing its growth by the number of sessions gives what a session really holds.
/// Nil where glibc is not the allocator.
enum HeapUsage {
    static func bytesInUse() -> Int? {
        let bytes = cseam_heap_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files (`ulimit -n`), which bounds its connections: every client
/// connection and every upstream connection is a file descriptor. Many systems start processes
/// with a soft limit of 1024 and a much higher hard limit; Seam raises the soft limit to the hard
/// one at start, as servers commonly do, so `server.maxConnections` is what limits connections,
/// not a failing `accept`.
package enum OpenFileLimit {
    package struct Limits: Sendable, Equatable {
        package var soft: UInt64
        package var hard: UInt64
    }

    #if os(Linux)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif

    package static func current() -> Limits? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to at least `wanted` (by default as far as allowed: the hard limit),
    /// never lowering it; returns the limits in force afterwards.
    @discardableResult
    package static func raise(to wanted: UInt64 = .max) -> Limits? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let target = min(wanted, UInt64(limit.rlim_max))
        if target > UInt64(limit.rlim_cur) {
            var raised = limit
            raised.rlim_cur = rlim_t(target)
            _ = setrlimit(resource, &raised)
        }
        return current()
    }
}

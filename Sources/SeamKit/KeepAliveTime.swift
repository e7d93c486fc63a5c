import Foundation

/// The time a session's keep-alive loop reads: the clock it waits on between turns and retries,
/// and the wall-clock date it compares with Seam's `expiresAt` before trying again. One value,
/// so a test that moves the clock moves the date with it (`SeamClient(clock:date:)`).
struct KeepAliveTime: Sendable {
    let clock: any Clock<Duration>
    let date: @Sendable () -> Date
}

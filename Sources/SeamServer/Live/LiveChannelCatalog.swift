/// Live channels by URL, built once and shared by every session of the channel for a few
/// minutes; concurrent session starts for a new channel share one build (`RequestCoalescer`).
final class LiveChannelCatalog: Sendable {
    private let coalescer: RequestCoalescer<String, LiveChannel, SeamError>

    /// - Parameters:
    ///   - lifetime: how long a built channel serves new sessions before it is built again.
    ///   - clock: the clock the lifetime is read on.
    init(lifetime: Duration = .seconds(300), clock: SeamClock = .continuous) {
        coalescer = RequestCoalescer(lifetime: lifetime, capacity: 256, clock: clock)
    }

    /// Session starts waiting for a build right now (for tests).
    var waiting: Int { coalescer.waiterCount }

    func cached(_ url: String) -> LiveChannel? {
        coalescer.cached(url)
    }

    /// The channel for `url`, from `build` when there is none yet. A build has no deadline of its
    /// own (its origin fetches have theirs); a caller that goes away leaves it to the others.
    func channel(
        _ url: String, build: @Sendable @escaping () async throws(SeamError) -> LiveChannel
    ) async throws(SeamError) -> LiveChannel {
        let answer = await coalescer.value(for: url, deadline: nil) { _ in
            do throws(SeamError) {
                let channel = try await build()
                // Every waiter left and the build was cancelled: what it made may lack parts it
                // gave up on (the slate), so it is not kept for the channel's next viewers.
                if Task.isCancelled {
                    return .failure(SeamError(.internalError, "building the live channel \(url) was cancelled"))
                }
                return .success(channel)
            } catch {
                return .failure(error)
            }
        }
        switch answer {
        case .result(let result): return try result.get()
        case .timedOut, .cancelled:
            throw SeamError(.internalError, "building the live channel \(url) was cancelled")
        }
    }
}

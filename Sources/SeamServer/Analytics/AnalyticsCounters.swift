/// What an ``AnalyticsSender`` has done since it was made; for `/metrics` and tests.
///
/// Each recorded event counts once in `queued` or `dropped`; a queued one is then pending until
/// its batch has been sent to every collector or given up. Batches count once per collector.
package struct AnalyticsCounters: Sendable, Equatable {
    /// Events taken into the queue.
    package var queued = 0
    /// Events not queued: the queue was full (`analytics.queueCapacity`) or the sender had stopped.
    package var dropped = 0
    /// Queued events thrown away because the sender was cancelled before sending them.
    package var abandoned = 0
    /// Events queued and not done yet.
    package var pending = 0
    /// Batches a collector took (a 2xx answer), once per collector.
    package var batchesSent = 0
    /// Batches given up on, once per collector: every attempt failed, or the failure was permanent.
    package var batchesFailed = 0
    /// POSTs made, first attempts and retries.
    package var attempts = 0

    package init() {}
}

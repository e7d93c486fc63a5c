import NIOCore
import NIOPosix

/// A deadline on the continuous clock, as a timer on an event loop that is gone as soon as the
/// wait for it ends: at the deadline, or when the waiting task is cancelled.
///
/// Why not `Task.sleep`: on Linux a cancelled sleep keeps its task and dispatch timer until the
/// original deadline (measured: ≈ 0.7 KB of heap each, against 0.06–0.2 KB here). The ad budget
/// races every ad request and every decision against its deadline (`AdTimeBudget.race`), and
/// nearly all of them finish long before it, so a break's burst of 10,000 decisions left ≈ 14 MB
/// of dead timers for the length of the budget (5 s). A cancelled NIO scheduled task is taken off
/// its event loop's timer heap at once.
struct DeadlineTimer {
    /// Nil when the deadline has passed, or lies beyond what nanoseconds count.
    private let scheduled: Scheduled<Void>?
    private let deadline: ContinuousClock.Instant
    /// A deadline beyond what nanoseconds count (centuries): the ordinary sleep, whose leftover
    /// does not matter for a wait nobody expects to end.
    private let farFuture: Bool

    /// Arms the timer now. `now` and `loop` are the real ones but for tests, which pass a testing
    /// event loop and move its time by hand.
    init(
        until deadline: ContinuousClock.Instant, now: ContinuousClock.Instant = .now,
        on loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()
    ) {
        self.deadline = deadline
        let left = (deadline - now).components
        let nanoseconds = left.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        farFuture = nanoseconds.overflow
        let total = farFuture ? 0 : nanoseconds.partialValue + left.attoseconds / 1_000_000_000
        scheduled = total > 0 ? loop.scheduleTask(in: .nanoseconds(total)) {} : nil
    }

    /// Returns at the deadline, or at once when the task is cancelled (the timer goes with it).
    func wait() async {
        guard let scheduled else {
            if farFuture { try? await Task.sleep(until: deadline, clock: .continuous) }
            return
        }
        await withTaskCancellationHandler {
            _ = try? await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }

    /// The timer's own outcome, for tests: succeeds when it fired, fails when it was cancelled.
    var outcome: EventLoopFuture<Void>? { scheduled?.futureResult }

    /// Waits until `deadline` on the real clock and Seam's event loops.
    static func wait(until deadline: ContinuousClock.Instant) async {
        await DeadlineTimer(until: deadline).wait()
    }
}

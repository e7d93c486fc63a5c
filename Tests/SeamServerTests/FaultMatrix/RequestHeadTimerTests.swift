import NIOCore
import Testing
@testable import SeamServer

/// The header-read timer's rules, with time passed in.
@Suite struct RequestHeadTimerTests {
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    static func at(_ seconds: Double) -> NIODeadline { start + .nanoseconds(Int64(seconds * 1e9)) }

    @Test("A new connection must send its head within the time-out; trickled bytes do not extend it")
    func trickleDoesNotExtend() {
        var timer = RequestHeadTimer(timeout: .seconds(10), openedAt: Self.start)
        #expect(timer.firstDeadline == Self.at(10))
        #expect(timer.bytesArrived(at: Self.at(3)) == .none)
        #expect(timer.bytesArrived(at: Self.at(9)) == .none)
        #expect(timer.deadlinePassed(at: Self.at(9.9)) == .arm(Self.at(10)))
        #expect(timer.deadlinePassed(at: Self.at(10)) == .close)
    }

    @Test("A complete head stops the timer; after the response the next head gets its own time-out from its first byte")
    func keepAlive() {
        var timer = RequestHeadTimer(timeout: .seconds(10), openedAt: Self.start)
        #expect(timer.headReceived() == .disarm)
        #expect(!timer.isWaitingForRequest)
        #expect(timer.bytesArrived(at: Self.at(2)) == .none, "body bytes")
        #expect(timer.deadlinePassed(at: Self.at(30)) == .none, "a slow answer is never cut")
        #expect(timer.responseEnded(at: Self.at(40)) == .none)
        #expect(timer.isWaitingForRequest && timer.waitingSince == Self.at(40))
        #expect(timer.deadlinePassed(at: Self.at(100)) == .none, "idle between requests: the idle time-out's business")
        #expect(timer.bytesArrived(at: Self.at(100)) == .arm(Self.at(110)))
        #expect(timer.waitingSince == Self.at(40), "trickling does not make a connection look fresh")
        #expect(timer.deadlinePassed(at: Self.at(110)) == .close)
    }

    @Test("Pipelined requests: handling until the last response ends")
    func pipelined() {
        var timer = RequestHeadTimer(timeout: .seconds(10), openedAt: Self.start)
        #expect(timer.headReceived() == .disarm)
        #expect(timer.headReceived() == .none)
        #expect(timer.responseEnded(at: Self.at(1)) == .none)
        #expect(!timer.isWaitingForRequest)
        #expect(timer.responseEnded(at: Self.at(2)) == .none)
        #expect(timer.isWaitingForRequest && timer.waitingSince == Self.at(2))
    }

    @Test("Between requests the idle time-out runs from the last response's end; a new request's bytes stop it")
    func idleBetweenRequests() {
        var timer = RequestHeadTimer(timeout: .seconds(10), idleTimeout: .seconds(75), openedAt: Self.start)
        #expect(timer.deadlinePassed(at: Self.at(5)) == .arm(Self.at(10)), "the first head: the header time-out")
        #expect(timer.headReceived() == .disarm)
        #expect(timer.deadlinePassed(at: Self.at(500)) == .none, "a slow answer is never cut")
        #expect(timer.responseEnded(at: Self.at(600)) == .arm(Self.at(675)))
        #expect(timer.deadlinePassed(at: Self.at(674)) == .arm(Self.at(675)))
        // The next request: its head has the header time-out, the idle one is off.
        #expect(timer.bytesArrived(at: Self.at(674.5)) == .arm(Self.at(684.5)))
        #expect(timer.deadlinePassed(at: Self.at(676)) == .arm(Self.at(684.5)))
        #expect(timer.headReceived() == .disarm)
        #expect(timer.responseEnded(at: Self.at(677)) == .arm(Self.at(752)))
        #expect(timer.deadlinePassed(at: Self.at(752)) == .closeIdle)
    }

    @Test(
        "A request answered before its body is whole (a 413 for a body over the limit): the body stays under the header-read time-out, and its end starts the idle one"
    )
    func answeredBeforeWhole() {
        var timer = RequestHeadTimer(timeout: .seconds(10), idleTimeout: .seconds(75), openedAt: Self.start)
        #expect(timer.responseEnded(at: Self.at(1)) == .none, "the 413, the body still arriving")
        #expect(timer.isWaitingForRequest, "no request is being handled")
        #expect(timer.deadlinePassed(at: Self.at(5)) == .arm(Self.at(10)))
        #expect(timer.headReceived(at: Self.at(6)) == .arm(Self.at(81)), "whole, and already answered")
        #expect(timer.isWaitingForRequest && timer.waitingSince == Self.at(6))
        // The next request is handled as ever: never stuck as in flight.
        #expect(timer.bytesArrived(at: Self.at(20)) == .arm(Self.at(30)))
        #expect(timer.headReceived(at: Self.at(20)) == .disarm)
        #expect(!timer.isWaitingForRequest)
        #expect(timer.responseEnded(at: Self.at(21)) == .arm(Self.at(96)))
        #expect(timer.deadlinePassed(at: Self.at(96)) == .closeIdle)
        // A body that stops arriving after its early answer is cut at the header-read time-out.
        var stalled = RequestHeadTimer(timeout: .seconds(10), idleTimeout: .seconds(75), openedAt: Self.start)
        #expect(stalled.responseEnded(at: Self.at(1)) == .none)
        #expect(stalled.deadlinePassed(at: Self.at(10)) == .close)
    }

    @Test("Pipelined requests: the idle time-out waits for the last answer")
    func idlePipelined() {
        var timer = RequestHeadTimer(timeout: .seconds(10), idleTimeout: .seconds(5), openedAt: Self.start)
        #expect(timer.headReceived() == .disarm)
        #expect(timer.headReceived() == .none)
        #expect(timer.responseEnded(at: Self.at(1)) == .none)
        #expect(timer.deadlinePassed(at: Self.at(100)) == .none)
        #expect(timer.responseEnded(at: Self.at(101)) == .arm(Self.at(106)))
        #expect(timer.deadlinePassed(at: Self.at(106)) == .closeIdle)
    }

    @Test("Without an idle time-out a connection may wait for its next request for ever")
    func noIdleTimeout() {
        var timer = RequestHeadTimer(timeout: .seconds(10), openedAt: Self.start)
        #expect(timer.headReceived() == .disarm)
        #expect(timer.responseEnded(at: Self.at(1)) == .none)
        #expect(timer.deadlinePassed(at: Self.at(100_000)) == .none)
    }
}

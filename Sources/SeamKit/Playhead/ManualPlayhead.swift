import Foundation

/// A playhead the app sets itself: for players SeamKit has no adapter for (a web `<video>`
/// read over DevTools, ExoPlayer across a bridge), for simulated viewers and for tests.
public final class ManualPlayhead: PlayheadAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    private struct State {
        var time: Double
        var duration: PlayheadDuration
        var volume: Float
        var playing: Bool
        var date: Double?
    }

    public init(
        time: Double = 0, duration: PlayheadDuration, volume: Float = 1, playing: Bool = false, date: Double? = nil
    ) {
        state = State(time: time, duration: duration, volume: volume, playing: playing, date: date)
    }

    public var currentTime: Double {
        get { lock.withLock { state.time } }
        set { lock.withLock { state.time = newValue } }
    }

    public var duration: PlayheadDuration {
        get { lock.withLock { state.duration } }
        set { lock.withLock { state.duration = newValue } }
    }

    public var volume: Float {
        get { lock.withLock { state.volume } }
        set { lock.withLock { state.volume = min(max(newValue, 0), 1) } }
    }

    public var isPlaying: Bool {
        get { lock.withLock { state.playing } }
        set { lock.withLock { state.playing = newValue } }
    }

    public var currentDate: Double? {
        get { lock.withLock { state.date } }
        set { lock.withLock { state.date = newValue } }
    }

    /// Jumps to `seconds` (the date moves with it).
    public func seek(to seconds: Double) async {
        lock.withLock {
            let moved = seconds - state.time
            state.time = seconds
            state.date = state.date.map { $0 + moved }
        }
    }

    /// Plays `seconds` on: time and date move together; a finite title stops at its end.
    public func advance(by seconds: Double) {
        lock.withLock {
            var next = state.time + seconds
            if case .finite(let end) = state.duration, next >= end {
                next = end
                state.playing = false
            }
            let moved = next - state.time
            state.time = next
            state.date = state.date.map { $0 + moved }
        }
    }
}

import Foundation
import SeamWire

/// Runs an `AdEventEngine` for a player: feed it the tracking JSON and playhead samples, read
/// the events from `events` (an `AsyncStream`) or a `SeamKitDelegate`, and the beacons go to a
/// `BeaconFiring`. The engine is asked under a lock; its actions run outside it.
public final class AdEventStream: @unchecked Sendable {
    /// Every event, in order. One consumer; buffered without limit (events are few and small).
    public let events: AsyncStream<AdEvent>
    private let continuation: AsyncStream<AdEvent>.Continuation
    private let beacons: (any BeaconFiring)?
    private let ledger: BeaconLedger
    private let lock = NSLock()
    private var engine: AdEventEngine
    private weak var storedDelegate: (any SeamKitDelegate)?
    /// Beacon sends still running, so `flushBeacons()` can wait for them (tests, shutdown).
    private var pending: [Int: Task<Void, Never>] = [:]
    private var nextTaskID = 0

    /// - Parameter beacons: nil when nothing should be fired from the client (server tracking).
    /// - Parameter ledger: beacons already fired for these breaks by another player of the same
    ///   session (a picture-in-picture one); nil for a ledger of its own.
    public init(
        beacons: (any BeaconFiring)?, configuration: AdEventEngine.Configuration = .init(), ledger: BeaconLedger? = nil
    ) {
        (events, continuation) = AsyncStream.makeStream(of: AdEvent.self)
        self.beacons = beacons
        self.ledger = ledger ?? BeaconLedger()
        engine = AdEventEngine(configuration: configuration)
    }

    deinit {
        continuation.finish()
    }

    public var delegate: (any SeamKitDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    public func updateTracking(_ document: TrackingDocument) {
        run(lock.withLock { engine.updateTracking(document) })
    }

    public func playhead(time: Double, playing: Bool, date: Double? = nil) {
        run(lock.withLock { engine.playhead(time: time, playing: playing, date: date) })
    }

    /// Samples a playhead adapter (call it from the player's periodic time observer).
    public func sample(_ adapter: some PlayheadAdapter) {
        playhead(time: adapter.currentTime, playing: adapter.isPlaying, date: adapter.currentDate)
    }

    public func seek(to time: Double, date: Double? = nil, playing: Bool = true) {
        run(lock.withLock { engine.seek(to: time, date: date, playing: playing) })
    }

    /// Delivers an event the engine does not make (policy seeks, errors, expiry).
    func emit(_ event: AdEvent) {
        run([.emit(event)])
    }

    /// The break and ad the playhead is in.
    public var currentBreak: BreakInfo? { lock.withLock { engine.currentBreak } }
    public var currentAd: AdInfo? { lock.withLock { engine.currentAd } }

    /// Playback stopped: the ad and break playing end (not completed).
    public func close() {
        run(lock.withLock { engine.close() })
    }

    /// Ends `events`: the session is over.
    public func finish() {
        continuation.finish()
    }

    /// Waits for the beacons fired so far to be sent.
    public func flushBeacons() async {
        let tasks = lock.withLock { Array(pending.values) }
        for task in tasks { await task.value }
    }

    private func run(_ actions: [AdEventEngine.Action]) {
        let delegate = self.delegate
        for action in actions {
            switch action {
            case .emit(let event):
                continuation.yield(event)
                delegate?.adEventStream(self, didEmit: event)
            case .fire(let urls, let key):
                guard let beacons, ledger.claim(key) else { continue }
                lock.withLock {
                    let id = nextTaskID
                    nextTaskID += 1
                    pending[id] = Task { [weak self] in
                        await beacons.fire(urls)
                        self?.lock.withLock { _ = self?.pending.removeValue(forKey: id) }
                    }
                }
            }
        }
    }
}

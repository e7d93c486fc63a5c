#if canImport(AVFoundation)
    import AVFoundation

    /// Reads an `AVPlayer`: its current time, its item's duration (indefinite for live), volume,
    /// whether it plays, and the item's program date-time. Sample it from a periodic time observer.
    public final class AVPlayerPlayhead: PlayheadAdapter, @unchecked Sendable {
        // AVPlayer's time, rate and item are safe to read from any thread.
        private let player: AVPlayer

        public init(player: AVPlayer) {
            self.player = player
        }

        public var currentTime: Double {
            let seconds = player.currentTime().seconds
            return seconds.isFinite ? seconds : 0
        }

        public var duration: PlayheadDuration {
            guard let item = player.currentItem, item.duration.isNumeric else { return .infinite }
            return PlayheadDuration(seconds: item.duration.seconds)
        }

        public var volume: Float { player.isMuted ? 0 : player.volume }

        public var isPlaying: Bool { player.rate != 0 }

        public var currentDate: Double? { player.currentItem?.currentDate()?.timeIntervalSince1970 }

        /// Frame-exact: a policy seek lands on an ad's first frame, not the key frame before it.
        public func seek(to seconds: Double) async {
            _ = await player.seek(
                to: CMTime(seconds: seconds, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
        }
    }
#endif

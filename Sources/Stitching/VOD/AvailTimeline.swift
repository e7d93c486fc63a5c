import HLS

/// Where each pod and ad sits on the stitched timeline: what the tracking JSON reports
/// and what a client-side tracker schedules its beacons by.
public struct AvailTimeline: Sendable, Equatable {
    public struct Ad: Sendable, Equatable {
        public var startTime: Double
        public var duration: Double

        public init(startTime: Double, duration: Double) {
            self.startTime = startTime
            self.duration = duration
        }
    }

    public struct Avail: Sendable, Equatable {
        /// Index of the pod in the order given to `VODSplicer`.
        public var pod: Int
        /// Stitched-timeline seconds at which the pod starts.
        public var startTime: Double
        /// Content seconds at which the pod is inserted.
        public var contentTime: Double
        public var duration: Double
        public var ads: [Ad]

        public init(pod: Int, startTime: Double, contentTime: Double, duration: Double, ads: [Ad]) {
            self.pod = pod
            self.startTime = startTime
            self.contentTime = contentTime
            self.duration = duration
            self.ads = ads
        }
    }

    public var avails: [Avail]
    /// Content plus ads, seconds.
    public var totalDuration: Double

    public init(avails: [Avail], totalDuration: Double) {
        self.avails = avails
        self.totalDuration = totalDuration
    }

    /// Measures the pods as spliced into one rendition (use the first variant as reference).
    public init(content: MediaPlaylist, pods: [SplicedPod]) {
        let ordered = pods.enumerated().sorted { $0.element.segmentIndex < $1.element.segmentIndex }
        var avails: [Avail] = []
        var inserted = 0.0
        for (number, pod) in ordered {
            let contentTime = PodPlacement.contentTime(atSegment: pod.segmentIndex, in: content)
            var cursor = contentTime + inserted
            let start = cursor
            var ads: [Ad] = []
            for ad in pod.ads {
                let duration = ad.playlist.duration
                ads.append(Ad(startTime: cursor, duration: duration))
                cursor += duration
            }
            let duration = cursor - start
            avails.append(Avail(pod: number, startTime: start, contentTime: contentTime, duration: duration, ads: ads))
            inserted += duration
        }
        self.avails = avails
        totalDuration = content.duration + inserted
    }
}

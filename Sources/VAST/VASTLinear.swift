/// A `Linear` creative: the video (or audio) that plays in the break, with its renditions and beacons.
public struct VASTLinear: Sendable, Equatable {
    /// `Duration` in seconds; nil when missing or unreadable (always missing in wrappers).
    public var duration: Double?
    /// `skipoffset`: when the viewer may skip; nil when the ad is not skippable.
    public var skipOffset: VASTOffset?
    public var mediaFiles: [VASTMediaFile]
    /// `Mezzanine` files (VAST 4.x): the high-quality source an SSAI vendor transcodes from.
    public var mezzanines: [VASTMezzanine]
    /// `InteractiveCreativeFile` elements (VAST 4.x), kept for clients.
    public var interactiveCreativeFiles: [VASTInteractiveCreativeFile]
    /// `TrackingEvents`, in document order.
    public var trackingEvents: [VASTTrackingEvent]
    public var videoClicks: VASTVideoClicks
    /// `AdParameters` text, for interactive creatives.
    public var adParameters: String?

    public init(
        duration: Double? = nil, skipOffset: VASTOffset? = nil, mediaFiles: [VASTMediaFile] = [],
        mezzanines: [VASTMezzanine] = [], interactiveCreativeFiles: [VASTInteractiveCreativeFile] = [],
        trackingEvents: [VASTTrackingEvent] = [], videoClicks: VASTVideoClicks = VASTVideoClicks(),
        adParameters: String? = nil
    ) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.mezzanines = mezzanines
        self.interactiveCreativeFiles = interactiveCreativeFiles
        self.trackingEvents = trackingEvents
        self.videoClicks = videoClicks
        self.adParameters = adParameters
    }

    /// Media files whose MIME `type` equals `type`, ignoring case and parameters (`; codecs=...`).
    public func mediaFiles(ofType type: String) -> [VASTMediaFile] {
        let wanted = VASTMediaFile.baseMIMEType(type)
        return mediaFiles.filter { VASTMediaFile.baseMIMEType($0.type) == wanted }
    }

    /// Streaming HLS renditions (`delivery="streaming"`, type `application/x-mpegURL` or
    /// `application/vnd.apple.mpegurl`): what SSAI can splice into an HLS stream as it is.
    public var hlsMediaFiles: [VASTMediaFile] { mediaFiles.filter(\.isHLS) }
    /// Its streaming MPEG-DASH media files (`application/dash+xml`), in document order.
    public var dashMediaFiles: [VASTMediaFile] { mediaFiles.filter(\.isDASH) }

    /// Tracking URLs for one event, in document order (for `progress`, every offset).
    public func trackingURLs(for event: VASTEventName) -> [String] {
        trackingEvents.filter { $0.event == event }.map(\.url)
    }

    /// Tracking URLs grouped by event name.
    public var trackingURLsByEvent: [VASTEventName: [String]] {
        Dictionary(grouping: trackingEvents, by: \.event).mapValues { $0.map(\.url) }
    }
}

/// One `Tracking` element: a beacon URL fired when ``event`` happens.
public struct VASTTrackingEvent: Sendable, Hashable {
    public var event: VASTEventName
    public var url: String
    /// `offset` attribute: set on `progress` events (time or percentage of the creative).
    public var offset: VASTOffset?

    public init(event: VASTEventName, url: String, offset: VASTOffset? = nil) {
        self.event = event
        self.url = url
        self.offset = offset
    }
}

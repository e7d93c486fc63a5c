/// A VMAP `Tracking` beacon of an ad break.
public struct VMAPTrackingEvent: Sendable, Hashable {
    /// VMAP break events.
    public enum Event: Sendable, Hashable {
        case breakStart
        case breakEnd
        case error
        /// Any other value, as written.
        case other(String)

        /// Reads an `event` attribute, ignoring case.
        public init(_ text: String) {
            let trimmed = text.trimmingXMLWhitespace()
            switch trimmed.lowercased() {
            case "breakstart": self = .breakStart
            case "breakend": self = .breakEnd
            case "error": self = .error
            default: self = .other(trimmed)
            }
        }
    }

    public var event: Event
    public var url: String

    public init(event: Event, url: String) {
        self.event = event
        self.url = url
    }
}

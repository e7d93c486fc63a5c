/// One `AdBreak` of a VMAP playlist.
public struct VMAPAdBreak: Sendable, Equatable {
    /// `breakId` attribute.
    public var breakId: String?
    /// `breakType`: one or more of linear, nonlinear, display (comma-separated in the XML).
    public var breakTypes: [VMAPBreakType]
    /// `timeOffset`: where the break goes.
    public var timeOffset: VMAPTimeOffset
    /// `repeatAfter` in seconds (VMAP 1.0.1): repeat the break this often after its first play.
    public var repeatAfter: Double?
    /// `AdSource`: where the ads come from; nil when the break has none.
    public var adSource: VMAPAdSource?
    /// `TrackingEvents`: breakStart, breakEnd and error beacons.
    public var trackingEvents: [VMAPTrackingEvent]
    /// `Extensions`, raw.
    public var extensions: [VASTExtension]

    public init(
        breakId: String? = nil, breakTypes: [VMAPBreakType] = [.linear], timeOffset: VMAPTimeOffset,
        repeatAfter: Double? = nil,
        adSource: VMAPAdSource? = nil, trackingEvents: [VMAPTrackingEvent] = [], extensions: [VASTExtension] = []
    ) {
        self.breakId = breakId
        self.breakTypes = breakTypes
        self.timeOffset = timeOffset
        self.repeatAfter = repeatAfter
        self.adSource = adSource
        self.trackingEvents = trackingEvents
        self.extensions = extensions
    }

    /// Whether the break holds linear ads (the only kind SSAI inserts).
    public var isLinear: Bool { breakTypes.contains(.linear) }

    /// Tracking URLs for one event.
    public func trackingURLs(for event: VMAPTrackingEvent.Event) -> [String] {
        trackingEvents.filter { $0.event == event }.map(\.url)
    }
}

/// A VMAP `breakType` value.
public enum VMAPBreakType: Sendable, Hashable {
    case linear
    case nonlinear
    case display
    /// Any other value, as written.
    case other(String)

    /// Reads one value, ignoring case and whitespace.
    public init(_ text: String) {
        let trimmed = text.trimmingXMLWhitespace()
        switch trimmed.lowercased() {
        case "linear": self = .linear
        case "nonlinear", "non-linear": self = .nonlinear
        case "display": self = .display
        default: self = .other(trimmed)
        }
    }

    /// Reads a comma-separated list, dropping empty items.
    public static func list(_ text: String) -> [VMAPBreakType] {
        text.split(separator: ",").map { String($0).trimmingXMLWhitespace() }.filter { !$0.isEmpty }.map(
            VMAPBreakType.init)
    }
}

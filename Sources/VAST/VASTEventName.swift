/// A tracking event name (`start`, `firstQuartile`, `progress`, ...).
///
/// Known IAB names are matched ignoring case and stored in their canonical spelling, so
/// `FirstQuartile` from a sloppy ad server equals ``firstQuartile``. Unknown names are kept as written.
public struct VASTEventName: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        let trimmed = rawValue.trimmingXMLWhitespace()
        self.rawValue = VASTEventName.canonical[trimmed.lowercased()] ?? trimmed
    }

    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static let creativeView: VASTEventName = "creativeView"
    public static let loaded: VASTEventName = "loaded"
    public static let start: VASTEventName = "start"
    public static let firstQuartile: VASTEventName = "firstQuartile"
    public static let midpoint: VASTEventName = "midpoint"
    public static let thirdQuartile: VASTEventName = "thirdQuartile"
    public static let complete: VASTEventName = "complete"
    public static let progress: VASTEventName = "progress"
    public static let mute: VASTEventName = "mute"
    public static let unmute: VASTEventName = "unmute"
    public static let pause: VASTEventName = "pause"
    public static let resume: VASTEventName = "resume"
    public static let rewind: VASTEventName = "rewind"
    public static let skip: VASTEventName = "skip"
    public static let fullscreen: VASTEventName = "fullscreen"
    public static let exitFullscreen: VASTEventName = "exitFullscreen"
    public static let playerExpand: VASTEventName = "playerExpand"
    public static let playerCollapse: VASTEventName = "playerCollapse"
    public static let closeLinear: VASTEventName = "closeLinear"
    public static let close: VASTEventName = "close"
    public static let acceptInvitation: VASTEventName = "acceptInvitation"
    public static let acceptInvitationLinear: VASTEventName = "acceptInvitationLinear"
    public static let timeSpentViewing: VASTEventName = "timeSpentViewing"
    public static let otherAdInteraction: VASTEventName = "otherAdInteraction"
    public static let notUsed: VASTEventName = "notUsed"
    public static let adExpand: VASTEventName = "adExpand"
    public static let adCollapse: VASTEventName = "adCollapse"
    public static let minimize: VASTEventName = "minimize"
    public static let overlayViewDuration: VASTEventName = "overlayViewDuration"
    public static let interactiveStart: VASTEventName = "interactiveStart"
    public static let verificationNotExecuted: VASTEventName = "verificationNotExecuted"

    private static let canonical: [String: String] = {
        let names = [
            "creativeView", "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress",
            "mute", "unmute", "pause", "resume", "rewind", "skip", "fullscreen", "exitFullscreen", "playerExpand",
            "playerCollapse", "closeLinear", "close", "acceptInvitation", "acceptInvitationLinear", "timeSpentViewing",
            "otherAdInteraction", "notUsed", "adExpand", "adCollapse", "minimize", "overlayViewDuration",
            "interactiveStart", "verificationNotExecuted", "expand", "collapse",
        ]
        return Dictionary(uniqueKeysWithValues: names.map { ($0.lowercased(), $0) })
    }()
}

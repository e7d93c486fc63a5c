/// The body of `POST /v1/admin/breaks`: a break to announce on a live channel.
public struct BreakAnnouncementBody: Sendable, Codable, Equatable {
    /// The channel's playlist URL as sessions play it, or a prefix of it (every channel whose URL
    /// starts with it gets the break).
    public var channelUrl: String
    /// ISO 8601 date of the break's start, on the stream's program date-time clock. Give this or
    /// `startInSeconds`.
    public var start: String?
    /// The break starts this many seconds from now.
    public var startInSeconds: Double?
    public var durationSeconds: Double
    /// Added to the ad request of each session's decision of this break.
    public var adParams: [String: String]?

    public init(
        channelUrl: String, start: String? = nil, startInSeconds: Double? = nil, durationSeconds: Double,
        adParams: [String: String]? = nil
    ) {
        self.channelUrl = channelUrl
        self.start = start
        self.startInSeconds = startInSeconds
        self.durationSeconds = durationSeconds
        self.adParams = adParams
    }
}

/// A break announced on a live channel: the answer of `POST /v1/admin/breaks`, and each item of
/// `GET /v1/admin/breaks`.
public struct BreakAnnouncement: Sendable, Codable, Equatable {
    public var breakId: String
    public var channelUrl: String
    /// ISO 8601 with milliseconds.
    public var start: String
    public var durationSeconds: Double
    public var adParams: [String: String]

    public init(breakId: String, channelUrl: String, start: String, durationSeconds: Double, adParams: [String: String])
    {
        self.breakId = breakId
        self.channelUrl = channelUrl
        self.start = start
        self.durationSeconds = durationSeconds
        self.adParams = adParams
    }
}

/// `GET /v1/admin/breaks`: the breaks announced, soonest first.
public struct BreakAnnouncementList: Sendable, Codable, Equatable {
    public var breaks: [BreakAnnouncement]

    public init(breaks: [BreakAnnouncement]) {
        self.breaks = breaks
    }
}

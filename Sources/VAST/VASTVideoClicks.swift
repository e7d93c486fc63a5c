/// `VideoClicks`: where a click on the ad goes, and the beacons that record it.
public struct VASTVideoClicks: Sendable, Hashable {
    /// `ClickThrough`: the advertiser's landing page.
    public var clickThrough: VASTClick?
    /// `ClickTracking` beacons (wrappers add theirs during chain resolution).
    public var clickTracking: [VASTClick]
    /// `CustomClick` URLs.
    public var customClicks: [VASTClick]

    public init(clickThrough: VASTClick? = nil, clickTracking: [VASTClick] = [], customClicks: [VASTClick] = []) {
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
    }
}

/// A click URL with its optional `id`.
public struct VASTClick: Sendable, Hashable {
    public var id: String?
    public var url: String

    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}

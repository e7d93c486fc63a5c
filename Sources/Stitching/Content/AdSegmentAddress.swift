/// Names one ad segment of a session, as its URL does: which pod (VOD: the filled pod's number;
/// live: the break's number), which ad of it, which rendition, which segment of the creative.
public struct AdSegmentAddress: Sendable, Hashable {
    public var pod: Int
    public var ad: Int
    public var rendition: RenditionKey
    public var segment: Int

    public init(pod: Int, ad: Int, rendition: RenditionKey, segment: Int) {
        self.pod = pod
        self.ad = ad
        self.rendition = rendition
        self.segment = segment
    }
}

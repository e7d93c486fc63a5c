/// One rendition of the demo live channel: the sample title's variant, under its folder name.
package struct DemoLiveChannelVariant: Sendable, Hashable {
    /// The folder under `Samples/media/content/` (`360p`), also the rendition's URL segment.
    package var rendition: String
    package var bandwidth: Int
    package var averageBandwidth: Int?
    package var codecs: String
    package var resolution: String
    package var frameRate: String?

    package init(
        rendition: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String,
        resolution: String, frameRate: String? = nil
    ) {
        self.rendition = rendition
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
    }

    /// The variants of `Samples/media/content/master.m3u8`, copied so the live channel advertises
    /// exactly what the looped segments are (a test compares them with the file).
    package static let samples: [DemoLiveChannelVariant] = [
        DemoLiveChannelVariant(
            rendition: "360p", bandwidth: 466_400, averageBandwidth: 75_852,
            codecs: "avc1.4d401e,mp4a.40.2", resolution: "640x360", frameRate: "25.000"),
        DemoLiveChannelVariant(
            rendition: "540p", bandwidth: 906_400, averageBandwidth: 80_665,
            codecs: "avc1.4d401f,mp4a.40.2", resolution: "960x540", frameRate: "25.000"),
        DemoLiveChannelVariant(
            rendition: "720p", bandwidth: 1_676_400, averageBandwidth: 83_623,
            codecs: "avc1.4d401f,mp4a.40.2", resolution: "1280x720", frameRate: "25.000"),
    ]

    /// The `#EXT-X-STREAM-INF` line and the URI line, relative to the multivariant playlist.
    var streamInfLines: [String] {
        var attributes = ["BANDWIDTH=\(bandwidth)"]
        if let averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(averageBandwidth)") }
        attributes.append("CODECS=\"\(codecs)\"")
        attributes.append("RESOLUTION=\(resolution)")
        if let frameRate { attributes.append("FRAME-RATE=\(frameRate)") }
        return ["#EXT-X-STREAM-INF:" + attributes.joined(separator: ","), "\(rendition)/index.m3u8"]
    }
}

import DASH

/// The DASH target: an origin's MPD through the XML reader, the MPD rules and every typed view,
/// then a write and a re-read that must give the same tree.
enum DASHFuzzing {
    static func run(_ bytes: [UInt8]) {
        let reader = XMLReader(maxBytes: 1 << 20, maxDepth: 64)
        guard let document = try? reader.read(bytes) else { return }
        let written = XMLWriter.write(document)
        guard let again = try? reader.read(written) else {
            fatalError("XMLWriter wrote a document XMLReader refuses:\n\(written)")
        }
        if again != document { fatalError("a write and read changed the document:\n\(written)") }
        guard let mpd = try? MPD(document: document) else { return }
        _ = MPDValidator.check(mpd)
        _ = (mpd.isDynamic, mpd.mediaPresentationDuration, mpd.minimumUpdatePeriod, mpd.baseURLs)
        for period in mpd.periods {
            _ = (period.id, period.start, period.duration, period.baseURLs)
            for stream in period.eventStreams { _ = (stream.schemeIdUri, stream.timescale, stream.events.count) }
            for set in period.adaptationSets {
                _ = (set.contentType, set.roles, set.isProtected, set.lang)
                for representation in set.representations {
                    _ = (representation.bandwidth, representation.codecs, representation.height)
                    _ = representation.segmentTemplate?.segments(
                        representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                        periodDuration: period.duration ?? mpd.mediaPresentationDuration)
                }
            }
        }
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        if let seconds = DASHDuration.seconds(text) { _ = DASHDuration.text(seconds) }
    }
}

import DASH
import NIOCore
import SeamWire
import Stitching

/// A DASH VOD title as a session starts from it: the origin's static MPD, where it was fetched
/// from (after redirects: its relative addresses resolve against it) and its length.
struct DASHTitle: Sendable {
    var mpd: MPD
    var url: String
    var duration: Double

    /// Whether a playback URL names an MPD: its path ends in `.mpd` (any letter case), as every
    /// packager names one. Such a URL starts a DASH session.
    static func names(_ url: String) -> Bool {
        ContentFormat.isDASH(url: url)
    }
}

extension ContentLoader {
    /// Fetches and reads the MPD at `url`, within the session's content byte budget
    /// (`sessions.maxContentBytes`, and at most the 8 MiB an MPD may have) and segment cap
    /// (`sessions.maxSegmentsPerPlaylist` per representation).
    func loadDASH(_ url: String) async throws(SeamError) -> DASHTitle {
        let (mpd, finalURL) = try await fetchMPD(url)
        guard !mpd.isDynamic else {
            throw SeamError(
                .invalidRequest,
                "\(url) is a live (dynamic) MPD; creative prefetch conditions ads for a DASH VOD title's ladder (a live channel's sessions condition them as breaks come)"
            )
        }
        return try dashTitle(mpd, url: url, finalURL: finalURL)
    }

    /// The MPD at `url` as fetched (within the byte budget) and read, and where it was fetched
    /// from after redirects.
    func fetchMPD(_ url: String) async throws(SeamError) -> (mpd: MPD, finalURL: String) {
        let response: UpstreamResponse
        do {
            response = try await origin.upstream.fetch(
                UpstreamRequest(
                    url: url, purpose: .origin, sizeLimit: min(limits.maxContentBytes, XMLReader().maxBytes)))
        } catch .tooLarge {
            throw SeamError(
                .originInvalidPlaylist,
                "the origin's MPD at \(url) is larger than Seam reads for one session (sessions.maxContentBytes, at most \(XMLReader().maxBytes) bytes); raise sessions.maxContentBytes if this content is meant to play"
            )
        } catch {
            throw OriginClient.originError(error, url: url)
        }
        do {
            return (try MPD(parsing: Array(buffer: response.body)), response.finalURL)
        } catch {
            throw SeamError(
                .originInvalidPlaylist, "the origin's answer for \(url) is not an MPD Seam can read: \(error)")
        }
    }

    /// A static MPD as a VOD title: each period's length known, its cost within the limits.
    func dashTitle(_ mpd: MPD, url: String, finalURL: String) throws(SeamError) -> DASHTitle {
        var duration = 0.0
        for (index, period) in mpd.periods.enumerated() {
            let start = period.start ?? duration
            let next = mpd.periods[safe: index + 1]?.start
            guard
                let length = period.duration ?? next.map({ $0 - start })
                    ?? mpd.mediaPresentationDuration.map({ $0 - start })
            else {
                throw SeamError(
                    .originInvalidPlaylist,
                    "\(period.path) of \(url) has no duration and the MPD no mediaPresentationDuration; Seam needs each period's length"
                )
            }
            duration = start + max(0, length)
            // Counted before anything is built: a hostile MPD must not cost a core for minutes.
            let representations = period.adaptationSets.flatMap(\.representations)
            guard representations.count <= limits.maxRenditions else {
                throw SeamError(
                    .originInvalidPlaylist,
                    "\(period.path) of the MPD at \(url) lists \(representations.count) representations, more than sessions.maxRenditions (\(limits.maxRenditions)) allows one session; raise sessions.maxRenditions if this content is meant to play"
                )
            }
            for representation in representations {
                let count = representation.segmentTemplate?.segmentCount(periodDuration: length) ?? 0
                guard count <= limits.maxSegmentsPerPlaylist else {
                    throw SeamError(
                        .originInvalidPlaylist,
                        "\(representation.path) of the MPD at \(url) has more than \(limits.maxSegmentsPerPlaylist) segments, the most sessions.maxSegmentsPerPlaylist allows; raise sessions.maxSegmentsPerPlaylist if this content is meant to play"
                    )
                }
            }
        }
        return DASHTitle(mpd: mpd, url: finalURL, duration: duration)
    }
}

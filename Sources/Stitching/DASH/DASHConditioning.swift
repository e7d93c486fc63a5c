import DASH
import HLS

/// Conditioning (MP4-only ads made into the title's ladder) for DASH titles, on the HLS
/// machinery it already has: the title's first period seen as the HLS title it would be
/// (`contentSet`: one variant per video representation, one audio rendition per audio set, each
/// segment's real address and its initialization section), whose ladder and probes conditioning
/// reads as it does any title's; and the conditioned creative (fragmented MP4 under HLS playlists)
/// seen as the ad MPD it is (`creativeMPD`), which a DASH session then fits like any ad's.
public enum DASHConditioning {
    /// `mpd`'s first period as an HLS title: nil when it has no video representation addressed by
    /// a `SegmentTemplate` (nothing to read a ladder from).
    public static func contentSet(_ mpd: MPD, url: String) -> ContentSet? {
        guard let period = mpd.periods.first else { return nil }
        let length =
            period.duration ?? mpd.mediaPresentationDuration.map { $0 - (period.start ?? 0) } ?? 0
        var base = url
        if let document = mpd.baseURLs.first { base = URIReference.resolve(document, against: base) }
        if let own = period.baseURLs.first { base = URIReference.resolve(own, against: base) }

        /// One representation's segments as a media playlist, every address absolute.
        func playlist(_ set: AdaptationSet, _ representation: Representation) -> String? {
            guard let template = representation.segmentTemplate, template.media != nil else { return nil }
            var at = base
            for next in [set.baseURLs.first, representation.baseURLs.first] {
                if let next { at = URIReference.resolve(next, against: at) }
            }
            let id = representation.id ?? ""
            let segments = template.segments(
                representationID: id, bandwidth: representation.bandwidth, periodDuration: length)
            guard !segments.isEmpty else { return nil }
            // Addresses go into playlist lines and quoted attributes: one that could end either
            // (a hostile MPD's) leaves the representation out rather than write another line.
            let addresses = [template.initialization ?? "", at] + segments.map(\.url)
            guard !addresses.contains(where: { $0.contains { $0 == "\"" || $0 == "\n" || $0 == "\r" } }) else {
                return nil
            }
            let longest = segments.map(\.duration).max() ?? 1
            var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Int(min(longest.rounded(.up), 1e9)))\n"
            text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
            if let initialization = template.initialization {
                let address = URIReference.resolve(
                    SegmentTemplate.bindingRepresentation(
                        initialization, representationID: id, bandwidth: representation.bandwidth),
                    against: at)
                text += "#EXT-X-MAP:URI=\"\(address)\"\n"
            }
            for segment in segments {
                text += "#EXTINF:\(DecimalNumber.format(segment.duration)),\n"
                text += URIReference.resolve(segment.url, against: at) + "\n"
            }
            return text + "#EXT-X-ENDLIST\n"
        }

        let video = period.adaptationSets.filter { $0.contentType == "video" && !DASHCreativeFit.isTrickPlay($0) }
        let audio = period.adaptationSets.filter { $0.contentType == "audio" }
        var multivariant = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        var media: [String: String] = [:]
        let audioCodecs = audio.first.flatMap { $0.codecs ?? $0.representations.first?.codecs }
        let audioBandwidth = audio.compactMap { $0.representations.first?.bandwidth }.max() ?? 0
        for (number, set) in audio.enumerated() {
            guard let representation = set.representations.first, let text = playlist(set, representation) else {
                continue
            }
            let uri = URIReference.resolve("seam-dash-audio-\(number).m3u8", against: url)
            media[uri] = text
            let lang = set.lang.map(quotable)
            var attributes = "TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\"\(lang ?? "audio \(number)")\""
            if let lang { attributes += ",LANGUAGE=\"\(lang)\"" }
            let channels =
                (set.element.elements(named: "AudioChannelConfiguration")
                + representation.element.elements(named: "AudioChannelConfiguration")).first?[attribute: "value"]
            if let channels, Int(channels) != nil { attributes += ",CHANNELS=\"\(channels)\"" }
            attributes += ",DEFAULT=\(number == 0 ? "YES" : "NO"),AUTOSELECT=YES,URI=\"\(uri)\""
            multivariant += "#EXT-X-MEDIA:\(attributes)\n"
        }
        var variants = 0
        for set in video {
            for representation in set.representations {
                guard let text = playlist(set, representation) else { continue }
                let uri = URIReference.resolve("seam-dash-video-\(variants).m3u8", against: url)
                media[uri] = text
                variants += 1
                var attributes = "BANDWIDTH=\(RenditionFilter.total(representation.bandwidth, audioBandwidth))"
                let codecs = [representation.codecs, audio.isEmpty ? nil : audioCodecs].compactMap { $0 }
                if !codecs.isEmpty { attributes += ",CODECS=\"\(quotable(codecs.joined(separator: ",")))\"" }
                let width = representation.width ?? set.element[attribute: "width"].flatMap { Int($0) }
                let height = representation.height ?? set.element[attribute: "height"].flatMap { Int($0) }
                if let width, let height { attributes += ",RESOLUTION=\(width)x\(height)" }
                if let rate = frameRate(
                    representation.element[attribute: "frameRate"] ?? set.element[attribute: "frameRate"])
                {
                    attributes += ",FRAME-RATE=\(DecimalNumber.format((rate * 1000).rounded() / 1000))"
                }
                if !audio.isEmpty { attributes += ",AUDIO=\"audio\"" }
                multivariant += "#EXT-X-STREAM-INF:\(attributes)\n\(uri)\n"
            }
        }
        guard variants > 0, let parsed = try? MultivariantPlaylist(parsing: multivariant) else { return nil }
        let renditions = ContentSet.wanted(in: parsed).compactMap { item -> ContentSet.Rendition? in
            guard let text = media[item.uri], let playlist = try? MediaPlaylist(parsing: text) else { return nil }
            return ContentSet.Rendition(
                key: item.key, variant: item.variant, rendition: item.rendition, playlist: playlist,
                sourceURL: item.uri)
        }
        return ContentSet(multivariant: parsed, renditions: renditions)
    }

    /// `text` without what would end a quoted playlist attribute or its line.
    static func quotable(_ text: String) -> String {
        text.filter { $0 != "\"" && $0 != "\n" && $0 != "\r" }
    }

    /// `25`, `25/1`, `30000/1001` as frames per second.
    static func frameRate(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/")
        guard let first = parts.first.flatMap({ Double($0) }), first > 0 else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? first : nil }
        guard let divisor = Double(parts[1]), divisor > 0 else { return nil }
        return first / divisor
    }

    /// A conditioned creative (fragmented MP4 under HLS playlists, every address absolute) as the
    /// static MPD of one period it is: one video adaptation set of its variants, one audio set per
    /// audio rendition, each representation's segments by a `SegmentTemplate` over their numbered
    /// names with the playlist's lengths as its timeline. The reason when it cannot be one
    /// (MPEG-TS segments, audio only inside the video segments, segments not numbered in order).
    public static func creativeMPD(_ creative: AdCreative) -> Result<MPD, AdSkip> {
        func refuse(_ why: String) -> Result<MPD, AdSkip> {
            .failure(.unusable("the conditioned creative \(creative.url) cannot play in a DASH session: \(why)"))
        }
        let catalog = creative.catalog
        guard !catalog.variants.isEmpty else { return refuse("it has no variants") }
        guard !catalog.audio.isEmpty else { return refuse("its audio is inside the video segments") }
        var duration = 0.0
        var problem: String?
        /// `playlist`'s segments as a representation's template, nil (and `problem` said) when
        /// they are not fragmented MP4 numbered in order.
        func template(_ playlist: MediaPlaylist) -> String? {
            guard let initialization = playlist.segments.first?.map?.uri else {
                problem = "its segments are not fragmented MP4 (no EXT-X-MAP)"
                return nil
            }
            guard let first = playlist.segments.first?.uri, let slash = first.lastIndex(of: "/") else { return nil }
            let folder = first[...slash]
            let name = first[first.index(after: slash)...]
            let digits = name.drop { !$0.isNumber }.prefix { $0.isNumber }
            let prefix = name.prefix { !$0.isNumber }
            let suffix = name.dropFirst(prefix.count + digits.count)
            guard let start = Int(digits), !digits.isEmpty else {
                problem = "its segment names carry no number"
                return nil
            }
            // Zero-padded numbers (`segment007.m4s`) keep their width.
            let width = digits.count > 1 && digits.hasPrefix("0") ? digits.count : 0
            func number(_ value: Int) -> String {
                let text = String(value)
                return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
            }
            for (index, segment) in playlist.segments.enumerated()
            where segment.uri != "\(folder)\(prefix)\(number(start + index))\(suffix)" {
                problem = "its segments are not numbered in order (\(segment.uri))"
                return nil
            }
            duration = max(duration, playlist.duration)
            let ticks = playlist.segments.map { Int(($0.duration * 1_000_000).rounded()) }
            var timeline = ""
            var index = 0
            while index < ticks.count {
                var run = 1
                while index + run < ticks.count, ticks[index + run] == ticks[index] { run += 1 }
                timeline +=
                    "<S\(index == 0 ? " t=\"0\"" : "") d=\"\(ticks[index])\"\(run > 1 ? " r=\"\(run - 1)\"" : "")/>"
                index += run
            }
            return """
                <SegmentTemplate timescale="1000000" startNumber="\(start)" initialization="\(escaped(initialization))" \
                media="\(escaped(String(folder) + String(prefix)))$Number\(width > 0 ? "%0\(width)d" : "")$\(escaped(String(suffix)))"><SegmentTimeline>\(timeline)</SegmentTimeline></SegmentTemplate>
                """
        }
        func isVideo(_ codec: String) -> Bool {
            ["avc1", "avc3", "hvc1", "hev1", "av01", "vp09"].contains(CreativeMatcher.families([codec]).first ?? "")
        }
        // A DASH representation's bandwidth is its own stream's; an HLS variant's counts its audio
        // too, at the bitrate conditioning gave it.
        let audioBitrate =
            catalog.audio.compactMap { option -> Int? in
                guard let codec = option.profile.codecs.first.flatMap(ConditioningLadder.AudioCodec.init) else {
                    return nil
                }
                return ConditioningLadder.audioBitrate(codec, channels: option.profile.channels ?? 2)
            }.max() ?? 0
        var video = ""
        for (number, variant) in catalog.variants.enumerated() {
            guard let segments = template(variant.playlist) else { return refuse(problem ?? "unreadable segments") }
            let codecs = variant.stream.codecs.filter(isVideo).joined(separator: ",")
            var attributes = "id=\"v\(number)\" bandwidth=\"\(max(1, variant.stream.bandwidth - audioBitrate))\""
            if !codecs.isEmpty { attributes += " codecs=\"\(escaped(codecs))\"" }
            if let resolution = variant.stream.resolution {
                attributes += " width=\"\(resolution.width)\" height=\"\(resolution.height)\""
            }
            if let rate = variant.stream.frameRate { attributes += " frameRate=\"\(DecimalNumber.format(rate))\"" }
            video += "<Representation \(attributes)>\(segments)</Representation>"
        }
        var audio = ""
        for (number, option) in catalog.audio.enumerated() {
            guard let segments = template(option.playlist) else { return refuse(problem ?? "unreadable segments") }
            let codecs = option.profile.codecs.filter { !isVideo($0) }.joined(separator: ",")
            var set = "<AdaptationSet contentType=\"audio\" mimeType=\"audio/mp4\""
            if !codecs.isEmpty { set += " codecs=\"\(escaped(codecs))\"" }
            if let lang = option.rendition.language { set += " lang=\"\(escaped(lang))\"" }
            set += ">"
            if let channels = option.profile.channels {
                set +=
                    "<AudioChannelConfiguration schemeIdUri=\"urn:mpeg:dash:23003:3:audio_channel_configuration:2011\" value=\"\(channels)\"/>"
            }
            let bandwidth = max(1, audioBitrate)
            audio +=
                set
                + "<Representation id=\"a\(number)\" bandwidth=\"\(bandwidth)\">\(segments)</Representation></AdaptationSet>"
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" profiles="urn:mpeg:dash:profile:isoff-live:2011" \
            mediaPresentationDuration="\(DASHDuration.text(duration))"><Period id="ad" duration="\(DASHDuration.text(duration))">\
            <AdaptationSet contentType="video" mimeType="video/mp4">\(video)</AdaptationSet>\(audio)</Period></MPD>
            """
        do {
            return .success(try MPD(parsing: text))
        } catch {
            return refuse("its MPD does not read back: \(error)")
        }
    }

    /// `text` for an attribute value between double quotes.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}

import HLS

/// What a progressive (MP4) creative must be turned into to play in a title without a stall or a
/// glitch at the splice: for each content variant, video in the variant's codec, profile and level,
/// at its resolution and frame rate and within its bandwidth; for each content audio rendition (or
/// a muxed variant's own audio), audio in its codec, channel count and sample rate; all in the
/// content's container, cut into segments no longer than the content's target duration.
///
/// Built from the title's playlists, with what playlists do not say (a sample rate, a frame rate or
/// a resolution left out of the multivariant playlist, the codecs of a title that declares none)
/// taken from a probe of one of the content's segments (`ProbedStream`, measured by the server).
/// Nothing is guessed: what neither says makes the ladder `Unsupported`, with the reason.
///
/// `fingerprint` names the ladder: conditioned creatives are kept per (creative, fingerprint), so
/// titles with the same ladder share them and a title whose ladder changed gets new ones.
public struct ConditioningLadder: Sendable, Hashable, Codable {
    /// How segments are packaged.
    public enum Container: String, Sendable, Hashable, Codable {
        case mpegTS = "mpegts"
        /// Fragmented MP4 with an `EXT-X-MAP` initialization section.
        case fragmentedMP4 = "fmp4"
    }

    /// A video codec Seam can encode, with the profile and level the content's decoder was set up for.
    public struct VideoCodec: Sendable, Hashable, Codable {
        public enum Family: String, Sendable, Hashable, Codable {
            case h264
            case hevc
        }

        public var family: Family
        /// The encoder's profile name (`baseline`, `main`, `high`; `main`, `main10`).
        public var profile: String
        /// The level as encoders write it (`3.1`, `4`, `5.1`).
        public var level: String
        /// The codec string as the content declares it (`avc1.64001f`): the conditioned variant
        /// declares the same, so players and `CreativeMatcher` see the same codec.
        public var declared: String

        /// Reads an RFC 6381 video codec string: `avc1`/`avc3` (`avc1.PPCCLL` in hex, or Apple's
        /// older `avc1.PP.LL` in decimal) and `hvc1`/`hev1` (`hvc1.1.6.L93.B0`). Nil for another
        /// codec or a string that does not say its profile and level.
        public init?(_ codec: String) {
            let text = AudioTrackProfile.trimmed(codec)
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard let family = parts.first?.lowercased() else { return nil }
            declared = text
            switch family {
            case "avc1", "avc3":
                let profileIDC: Int, levelIDC: Int
                if parts.count == 2, parts[1].count == 6,
                    let profile = Int(parts[1].prefix(2), radix: 16), let level = Int(parts[1].suffix(2), radix: 16)
                {
                    (profileIDC, levelIDC) = (profile, level)
                } else if parts.count == 3, let profile = Int(parts[1]), let level = Int(parts[2]) {
                    (profileIDC, levelIDC) = (profile, level)
                } else {
                    return nil
                }
                guard let name = Self.h264Profiles[profileIDC], (9...62).contains(levelIDC) else { return nil }
                self.family = .h264
                profile = name
                level = Self.levelName(levelIDC, divisor: 10)
            case "hvc1", "hev1":
                // hvc1.<profile space+idc>.<compat>.<tier L|H><level*30>.<constraints>
                guard parts.count >= 4, let profileIDC = Int(parts[1].filter(\.isNumber)),
                    let tier = parts[3].first, tier == "L" || tier == "H",
                    let levelIDC = Int(parts[3].dropFirst()), (30...186).contains(levelIDC)
                else { return nil }
                switch profileIDC {
                case 1: profile = "main"
                case 2: profile = "main10"
                default: return nil
                }
                self.family = .hevc
                level = Self.levelName(levelIDC, divisor: 30)
            default:
                return nil
            }
        }

        static let h264Profiles: [Int: String] = [66: "baseline", 77: "main", 100: "high"]

        /// `31` / 10 → `3.1`; `40` → `4`; HEVC's `93` / 30 → `3.1`.
        static func levelName(_ idc: Int, divisor: Int) -> String {
            let scaled = idc * 10 / divisor
            return scaled % 10 == 0 ? "\(scaled / 10)" : "\(scaled / 10).\(scaled % 10)"
        }
    }

    /// An audio codec Seam can encode.
    public struct AudioCodec: Sendable, Hashable, Codable {
        public enum Family: String, Sendable, Hashable, Codable {
            /// AAC-LC (`mp4a.40.2`).
            case aacLC = "aac"
            /// Dolby Digital (`ac-3`).
            case ac3
            /// Dolby Digital Plus (`ec-3`).
            case eac3
        }

        public var family: Family
        public var declared: String

        /// Nil for a codec Seam cannot encode here (HE-AAC needs an encoder Debian's ffmpeg does
        /// not ship; Opus, FLAC, AC-4 and the rest are not conditioned).
        public init?(_ codec: String) {
            let text = AudioTrackProfile.trimmed(codec)
            switch text.lowercased() {
            case "mp4a.40.2", "mp4a.40.02": family = .aacLC
            case "ac-3": family = .ac3
            case "ec-3": family = .eac3
            default: return nil
            }
            declared = text
        }
    }

    public struct Video: Sendable, Hashable, Codable {
        public var codec: VideoCodec
        public var width: Int
        public var height: Int
        public var frameRate: Double
        /// Video bits per second: the variant's peak `BANDWIDTH` less its audio's, with 10 %
        /// headroom for the container (the encoder's `maxrate`).
        public var bitrate: Int
    }

    public struct Audio: Sendable, Hashable, Codable {
        public var codec: AudioCodec
        public var channels: Int
        public var sampleRate: Int
        /// Bits per second the encoder is given.
        public var bitrate: Int
    }

    /// One content variant's target.
    public struct Variant: Sendable, Hashable, Codable {
        public var video: Video
        /// The audio in the variant's own segments (no audio group with URIs), nil when demuxed or silent.
        public var muxedAudio: Audio?
        /// The content's `BANDWIDTH`: the conditioned variant declares the same.
        public var bandwidth: Int
        /// The content's `CODECS`, declared as is.
        public var codecs: [String]
        /// The content's `AUDIO` group when its audio is demuxed.
        public var audioGroup: String?
    }

    /// One content audio rendition's target (demuxed audio).
    public struct AudioRendition: Sendable, Hashable, Codable {
        public var audio: Audio
        public var groupID: String
        public var name: String
        public var language: String?
        public var isDefault: Bool
        /// `CHANNELS` as the content writes it.
        public var channelsAttribute: String?
    }

    public var container: Container
    /// The longest segment the conditioned renditions may have: the content's target duration.
    public var segmentSeconds: Int
    public var variants: [Variant]
    public var audio: [AudioRendition]

    /// What a probe of a content rendition's segment found (ffprobe's first video and audio stream).
    public struct ProbedStream: Sendable, Hashable, Codable {
        public var width: Int?
        public var height: Int?
        public var frameRate: Double?
        public var sampleRate: Int?
        public var channels: Int?
        public var videoCodec: String?
        public var audioCodec: String?

        public init(
            width: Int? = nil, height: Int? = nil, frameRate: Double? = nil, sampleRate: Int? = nil,
            channels: Int? = nil, videoCodec: String? = nil, audioCodec: String? = nil
        ) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
            self.videoCodec = videoCodec
            self.audioCodec = audioCodec
        }
    }

    /// Why a title's ladder cannot be conditioned for.
    public struct Unsupported: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The ladder of `content`; `probes` holds what probing a segment of a rendition found, by key.
    public static func of(
        _ content: ContentSet, probes: [RenditionKey: ProbedStream] = [:]
    ) -> Result<ConditioningLadder, Unsupported> {
        let fail = { (reason: String) in
            Result<ConditioningLadder, Unsupported>.failure(Unsupported(description: reason))
        }
        let multivariant = content.multivariant
        let container: Container = content.reference.segments.first?.map != nil ? .fragmentedMP4 : .mpegTS
        let segmentSeconds = max(1, content.reference.targetDuration)
        var audio: [AudioRendition] = []
        var audioBitrates: [String: Int] = [:]
        for rendition in content.renditions where rendition.kind == .audio {
            guard let entry = rendition.rendition else { continue }
            let profile = AudioTrackProfile(rendition: entry, in: multivariant)
            let probe = probes[rendition.key]
            guard let declared = profile.codecs.first ?? probe?.audioCodec else {
                return fail(
                    "audio rendition \(quoted(entry.name)) declares no codec (no variant of group \(quoted(entry.groupID)) lists one)"
                )
            }
            guard let codec = AudioCodec(declared) else {
                return fail(
                    "audio rendition \(quoted(entry.name)) is \(declared), which Seam cannot encode (AAC-LC, AC-3 and E-AC-3 are)"
                )
            }
            guard let channels = profile.channels ?? probe?.channels, (1...8).contains(channels) else {
                return fail("audio rendition \(quoted(entry.name)) has no channel count (CHANNELS) and none was probed")
            }
            guard let sampleRate = entry.sampleRate ?? probe?.sampleRate, (8_000...192_000).contains(sampleRate) else {
                return fail(
                    "audio rendition \(quoted(entry.name)) has no sample rate (SAMPLE-RATE) and none was probed")
            }
            let target = Audio(
                codec: codec, channels: channels, sampleRate: sampleRate,
                bitrate: audioBitrate(codec, channels: channels))
            audioBitrates[entry.groupID] = max(audioBitrates[entry.groupID] ?? 0, target.bitrate)
            audio.append(
                AudioRendition(
                    audio: target, groupID: entry.groupID, name: entry.name, language: entry.language,
                    isDefault: entry.isDefault, channelsAttribute: entry.channels))
        }
        var variants: [Variant] = []
        for rendition in content.renditions where rendition.kind == .variant {
            guard let variant = rendition.variant else { continue }
            let probe = probes[rendition.key]
            let label = "variant \(quoted(variant.uri))"
            let videoDeclared = variant.codecs.first { VideoCodec($0) != nil } ?? probe?.videoCodec
            guard let videoDeclared, let codec = VideoCodec(videoDeclared) else {
                let named = variant.codecs.filter { AudioTrackProfile.audioCodecs(in: [$0]).isEmpty }
                return fail(
                    "\(label) has no video codec Seam can encode (\(named.isEmpty ? "none declared" : named.joined(separator: ", ")); H.264 and HEVC with profile and level are)"
                )
            }
            guard let width = variant.resolution?.width ?? probe?.width,
                let height = variant.resolution?.height ?? probe?.height,
                (16...7680).contains(width), (16...4320).contains(height)
            else {
                return fail("\(label) has no resolution (RESOLUTION) and none was probed")
            }
            guard let frameRate = variant.frameRate ?? probe?.frameRate, frameRate.isFinite,
                (1...120).contains(frameRate)
            else {
                return fail("\(label) has no frame rate (FRAME-RATE) and none was probed")
            }
            let demuxed = variant.audioGroup.map { group in audio.contains { $0.groupID == group } } ?? false
            var muxed: Audio?
            if !demuxed, let declared = AudioTrackProfile.audioCodecs(in: variant.codecs).first ?? probe?.audioCodec {
                guard let audioCodec = AudioCodec(declared) else {
                    return fail(
                        "\(label) carries \(declared) audio, which Seam cannot encode (AAC-LC, AC-3 and E-AC-3 are)")
                }
                let profile = AudioTrackProfile(muxedVariant: variant, in: multivariant)
                guard let channels = profile.channels ?? probe?.channels, (1...8).contains(channels) else {
                    return fail("\(label) has no channel count for its audio and none was probed")
                }
                guard let sampleRate = probe?.sampleRate, (8_000...192_000).contains(sampleRate) else {
                    return fail("\(label) has no sample rate for its audio and none was probed")
                }
                muxed = Audio(
                    codec: audioCodec, channels: channels, sampleRate: sampleRate,
                    bitrate: audioBitrate(audioCodec, channels: channels))
            }
            let audioShare = muxed?.bitrate ?? (demuxed ? (variant.audioGroup.flatMap { audioBitrates[$0] } ?? 0) : 0)
            // BANDWIDTH is the variant's peak: what a player picked the variant for. The ad's
            // peak must stay under it (AVERAGE-BANDWIDTH of a still picture says nothing of an ad).
            let bandwidth = variant.bandwidth
            guard bandwidth > audioShare + 50_000 else {
                return fail(
                    "\(label) declares \(variant.bandwidth) bit/s, too little for its video once its audio has \(audioShare)"
                )
            }
            let video = Video(
                codec: codec, width: width, height: height, frameRate: frameRate,
                bitrate: (bandwidth - audioShare) * 9 / 10)
            variants.append(
                Variant(
                    video: video, muxedAudio: muxed, bandwidth: variant.bandwidth, codecs: variant.codecs,
                    audioGroup: demuxed ? variant.audioGroup : nil))
        }
        guard !variants.isEmpty else { return fail("the title has no variant to condition for") }
        return .success(
            ConditioningLadder(container: container, segmentSeconds: segmentSeconds, variants: variants, audio: audio))
    }

    /// The multivariant playlist of a creative conditioned to this ladder: variant `i` at
    /// `v<i>/index.m3u8`, audio rendition `j` at `a<j>/index.m3u8`, each declaring what its content
    /// counterpart declares (`BANDWIDTH`, `CODECS`, `RESOLUTION`, `FRAME-RATE`, the audio group's
    /// `GROUP-ID`, `NAME`, `LANGUAGE`, `CHANNELS`), so the stitcher matches each content rendition
    /// to its own (`CreativeFit`) and a player sees the same stream shape across the splice.
    public var multivariantText: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(container == .fragmentedMP4 ? 7 : 3)", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (index, rendition) in audio.enumerated() {
            var attributes = ["TYPE=AUDIO", "GROUP-ID=\"\(rendition.groupID)\"", "NAME=\"\(rendition.name)\""]
            if let language = rendition.language { attributes.append("LANGUAGE=\"\(language)\"") }
            attributes.append("DEFAULT=\(rendition.isDefault ? "YES" : "NO")")
            attributes.append("AUTOSELECT=YES")
            attributes.append("CHANNELS=\"\(rendition.channelsAttribute ?? String(rendition.audio.channels))\"")
            attributes.append("SAMPLE-RATE=\(rendition.audio.sampleRate)")
            attributes.append("URI=\"a\(index)/index.m3u8\"")
            lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
        }
        for (index, variant) in variants.enumerated() {
            let video = variant.video
            var attributes = ["BANDWIDTH=\(variant.bandwidth)"]
            if !variant.codecs.isEmpty {
                attributes.append("CODECS=\"\(variant.codecs.map(AudioTrackProfile.trimmed).joined(separator: ","))\"")
            }
            attributes.append("RESOLUTION=\(video.width)x\(video.height)")
            attributes.append("FRAME-RATE=\(Self.frameRateText(video.frameRate))")
            if let group = variant.audioGroup { attributes.append("AUDIO=\"\(group)\"") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append("v\(index)/index.m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `FRAME-RATE` with three decimals, as HLS writes it.
    static func frameRateText(_ rate: Double) -> String {
        let thousandths = Int((rate * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// What the encoder is given for audio: the usual rates for each codec and channel count.
    static func audioBitrate(_ codec: AudioCodec, channels: Int) -> Int {
        switch codec.family {
        case .aacLC: return channels <= 2 ? 64_000 * channels : 64_000 * channels * 3 / 4
        case .ac3, .eac3: return channels <= 2 ? 192_000 : 384_000
        }
    }

    /// A short stable name of the ladder (16 hex digits, FNV-1a of its canonical description):
    /// conditioned creatives are kept per creative and fingerprint.
    public var fingerprint: String { Self.hash(canonicalDescription) }

    /// 16 hex digits of FNV-1a over `text`'s UTF-8: a stable short name (not a secret; collisions
    /// only cost a cache entry shared by two creatives' names, as unlikely as 1 in 2^64).
    public static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Every field that changes the encoded output, in a fixed order.
    var canonicalDescription: String {
        var lines = ["container=\(container.rawValue)", "segment=\(segmentSeconds)"]
        for variant in variants {
            let v = variant.video
            var line =
                "v \(v.codec.declared) \(v.codec.profile)@\(v.codec.level) \(v.width)x\(v.height)@\(v.frameRate) \(v.bitrate) bw=\(variant.bandwidth) codecs=\(variant.codecs.joined(separator: "+")) group=\(variant.audioGroup ?? "-")"
            if let a = variant.muxedAudio {
                line += " a \(a.codec.declared) \(a.channels)ch \(a.sampleRate) \(a.bitrate)"
            }
            lines.append(line)
        }
        for rendition in audio {
            let a = rendition.audio
            lines.append(
                "a \(rendition.groupID) \(rendition.name) \(rendition.language ?? "-") \(rendition.isDefault) \(a.codec.declared) \(a.channels)ch \(a.sampleRate) \(a.bitrate)"
            )
        }
        return lines.joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

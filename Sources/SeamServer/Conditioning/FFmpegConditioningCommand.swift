import Stitching

/// The ffmpeg command lines that turn one downloaded MP4 creative into one HLS rendition of a
/// `ConditioningLadder`: a content variant's video (with its muxed audio, if any) or one content
/// audio rendition. Argument lists only, no I/O: the runner adds the time limit, the niceness and
/// the resource limits.
///
/// What keeps the splice clean, rule by rule:
/// - ffmpeg reads only the local file (`-protocol_whitelist file`), only as an MP4 (`-f mp4`: the
///   conditioner checked its `ftyp` box first, `MediaContainer`), and at most `maxInputSeconds` of
///   it (`-t` before `-i`);
/// - video is scaled into the variant's frame keeping the creative's aspect and padded to the
///   content's (black bars), square pixels, 4:2:0, the variant's frame rate, the codec's profile and
///   level, capped at the ladder's rate (`maxrate`, a buffer of one second);
/// - a key frame at every segment start (`force_key_frames` every `segmentSeconds`, no scene-cut
///   key frames), so segments cut at `segmentSeconds` and never exceed the content's target duration;
/// - audio in the content's codec, sample rate and channel count; a creative without audio gets
///   silence of the same shape, since a rendition the content plays with audio must not go silent
///   by losing its track;
/// - segments as the content's: MPEG-TS, or fragmented MP4 with an `EXT-X-MAP` (`init.mp4`).
struct FFmpegConditioningCommand: Sendable, Equatable {
    /// ffmpeg's arguments (without the executable).
    var arguments: [String]
    /// The media playlist ffmpeg writes.
    var playlistPath: String

    /// Video of `variant` (and its muxed audio) from `input` into `directory`.
    /// - Parameters:
    ///   - inputHasAudio: whether the creative has an audio stream (probed): without, silence.
    ///   - inputSeconds: the creative's duration (probed), for the length of that silence.
    /// `threads`: decoder, filter and encoder threads of the run (0: ffmpeg's choice, every core).
    static func video(
        input: String, variant: ConditioningLadder.Variant, ladder: ConditioningLadder, directory: String,
        inputHasAudio: Bool, inputSeconds: Double, maxInputSeconds: Double, threads: Int = 0
    ) -> FFmpegConditioningCommand {
        var arguments = prologue(input: input, maxInputSeconds: maxInputSeconds, threads: threads)
        let video = variant.video
        if let audio = variant.muxedAudio, !inputHasAudio {
            arguments += silence(audio, seconds: min(inputSeconds, maxInputSeconds))
        }
        arguments += ["-map", "0:v:0"]
        if variant.muxedAudio != nil { arguments += ["-map", inputHasAudio ? "0:a:0" : "1:a:0"] }
        let pixelFormat = video.codec.profile == "main10" ? "yuv420p10le" : "yuv420p"
        let (w, h) = (video.width, video.height)
        arguments += [
            "-vf",
            "fps=\(number(video.frameRate)),scale=w=\(w):h=\(h):force_original_aspect_ratio=decrease,"
                + "pad=\(w):\(h):(ow-iw)/2:(oh-ih)/2,setsar=1,format=\(pixelFormat)",
        ]
        let keyInterval = max(1, Int((video.frameRate * Double(ladder.segmentSeconds)).rounded()))
        switch video.codec.family {
        case .h264:
            arguments += [
                "-c:v", "libx264", "-preset", "veryfast", "-profile:v", video.codec.profile, "-level:v",
                video.codec.level,
                "-g", "\(keyInterval)", "-keyint_min", "\(keyInterval)", "-sc_threshold", "0",
            ]
        case .hevc:
            arguments += [
                "-c:v", "libx265", "-preset", "veryfast", "-profile:v", video.codec.profile, "-tag:v", "hvc1",
                "-x265-params",
                "level-idc=\(video.codec.level):keyint=\(keyInterval):min-keyint=\(keyInterval):scenecut=0:log-level=error",
            ]
        }
        arguments += [
            "-b:v", "\(video.bitrate)", "-maxrate", "\(video.bitrate)", "-bufsize", "\(video.bitrate)",
            "-force_key_frames", "expr:gte(t,n_forced*\(ladder.segmentSeconds))",
        ]
        if let audio = variant.muxedAudio {
            arguments += audioEncoding(audio)
        } else {
            arguments += ["-an"]
        }
        arguments += ["-sn", "-dn"]
        return finish(arguments, ladder: ladder, directory: directory, threads: threads)
    }

    /// One content audio rendition from `input` into `directory`.
    static func audio(
        input: String, rendition: ConditioningLadder.AudioRendition, ladder: ConditioningLadder, directory: String,
        inputHasAudio: Bool, inputSeconds: Double, maxInputSeconds: Double, threads: Int = 0
    ) -> FFmpegConditioningCommand {
        var arguments = prologue(input: input, maxInputSeconds: maxInputSeconds, threads: threads)
        if !inputHasAudio { arguments += silence(rendition.audio, seconds: min(inputSeconds, maxInputSeconds)) }
        arguments += ["-map", inputHasAudio ? "0:a:0" : "1:a:0", "-vn", "-sn", "-dn"]
        arguments += audioEncoding(rendition.audio)
        return finish(arguments, ladder: ladder, directory: directory, threads: threads)
    }

    private static func prologue(input: String, maxInputSeconds: Double, threads: Int) -> [String] {
        // With a thread count: the same for the filter graph (a global option) and the decoder
        // (an input option) here, and the encoder (an output option, in `finish`).
        let limit = threads > 0 ? ["-filter_threads", "\(threads)", "-threads", "\(threads)"] : []
        return ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-protocol_whitelist", "file"] + limit
            + ["-t", number(maxInputSeconds), "-f", MediaContainer.mp4.demuxer, "-i", input]
    }

    /// A second input of silence shaped like `audio` (lavfi's `anullsrc`, no protocol involved).
    private static func silence(_ audio: ConditioningLadder.Audio, seconds: Double) -> [String] {
        [
            "-f", "lavfi", "-t", number(seconds), "-i",
            "anullsrc=r=\(audio.sampleRate):cl=\(channelLayout(audio.channels))",
        ]
    }

    private static func audioEncoding(_ audio: ConditioningLadder.Audio) -> [String] {
        let encoder: String
        switch audio.codec.family {
        case .aacLC: encoder = "aac"
        case .ac3: encoder = "ac3"
        case .eac3: encoder = "eac3"
        }
        var arguments = [
            "-c:a", encoder, "-b:a", "\(audio.bitrate)", "-ar", "\(audio.sampleRate)", "-ac", "\(audio.channels)",
        ]
        if audio.codec.family == .aacLC { arguments += ["-profile:a", "aac_low"] }
        return arguments
    }

    private static func finish(
        _ arguments: [String], ladder: ConditioningLadder, directory: String, threads: Int
    ) -> FFmpegConditioningCommand {
        var arguments = arguments
        if threads > 0 { arguments += ["-threads", "\(threads)"] }
        let playlist = directory + "/index.m3u8"
        arguments += [
            "-f", "hls", "-hls_time", "\(ladder.segmentSeconds)", "-hls_playlist_type", "vod", "-hls_list_size", "0",
            "-hls_flags", "independent_segments",
        ]
        switch ladder.container {
        case .mpegTS:
            arguments += ["-hls_segment_type", "mpegts", "-hls_segment_filename", directory + "/segment%03d.ts"]
        case .fragmentedMP4:
            arguments += [
                "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                "-hls_segment_filename", directory + "/segment%03d.m4s",
            ]
        }
        arguments.append(playlist)
        return FFmpegConditioningCommand(arguments: arguments, playlistPath: playlist)
    }

    /// ffmpeg's name for a channel count's usual layout.
    static func channelLayout(_ channels: Int) -> String {
        switch channels {
        case 1: return "mono"
        case 2: return "stereo"
        case 3: return "2.1"
        case 4: return "quad"
        case 5: return "5.0"
        case 6: return "5.1"
        case 7: return "6.1"
        default: return "7.1"
        }
    }

    /// `25` for 25.0, `29.97` as is.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(value)
    }
}

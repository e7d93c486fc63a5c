/// What a downloaded file's first bytes say it is, checked before ffprobe or ffmpeg read it, and
/// the demuxer forced on them (`-f`).
///
/// Why: left to guess, ffmpeg's tools pick a demuxer by content, and a "creative" whose bytes are
/// an HLS playlist is read as HLS — its segment lines name local files, which the tools then read
/// and encode into a conditioned ad anyone can fetch. With the container checked here and the
/// demuxer forced, the tools only ever read the one file as what it was checked to be (the MP4
/// demuxer follows no external data references: its `enable_drefs` is off by default).
enum MediaContainer: Equatable, Sendable {
    /// ISO base media (MP4; a fragmented MP4 segment after its init section): a first box of
    /// type `ftyp`.
    case mp4
    /// MPEG-2 transport stream: 188-byte packets starting with the sync byte 0x47.
    case mpegTS

    /// ffmpeg's demuxer for the container, given to `-f` before `-i`.
    var demuxer: String {
        switch self {
        case .mp4: "mp4"
        case .mpegTS: "mpegts"
        }
    }

    /// The container of `bytes`, or nil when they are neither.
    static func sniff(_ bytes: some Collection<UInt8>) -> MediaContainer? {
        let head = Array(bytes.prefix(8))
        if head.count == 8 {
            let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: head[4..<8], as: UTF8.self)
            // A box of at least its own header, or 1 (a 64-bit size follows).
            if (size >= 8 || size == 1), type == "ftyp" { return .mp4 }
        }
        // Two sync bytes a packet apart (one alone is any byte 0x47).
        if bytes.count >= 189 {
            let start = bytes.startIndex
            if bytes[start] == 0x47, bytes[bytes.index(start, offsetBy: 188)] == 0x47 { return .mpegTS }
        } else if bytes.count == 188, bytes.first == 0x47 {
            return .mpegTS
        }
        return nil
    }
}

/// Whether a title is spliced once, whole (VOD), or followed as it grows (live).
public enum PlaybackKind: String, Sendable, Hashable {
    case vod
    case live
}

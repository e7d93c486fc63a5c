import Foundation
import NIOConcurrencyHelpers
import Stitching

/// The breaks announced on live channels at run time (`POST /v1/admin/breaks`), for streams
/// whose cues Seam cannot use (or that carry none): every session of a matching channel opens
/// the break where its start falls on the stream's program date-time clock, and decides it as a
/// cued break, with the announcement's ad parameters added to the ad request.
///
/// This replica's list; replicas sharing a store each read everyone's announcements into theirs
/// (`BreakAnnouncementSync`). An announcement is forgotten ten minutes after its break ends, and
/// at most `capacity` are kept.
package final class BreakAnnouncements: Sendable {
    /// One announced break.
    package struct Announcement: Sendable, Equatable {
        package var id: String
        /// Channel playlist URLs that start with this get the break (as `live.schedules` match).
        package var channelPrefix: String
        package var start: Date
        package var durationSeconds: Double
        /// Added to the ad request of every session's decision of this break (`ads.*` as for
        /// sessions: appended to the ad tag, or filling `{player.params.NAME}`).
        package var adParameters: [String: String]

        var end: Date { start.addingTimeInterval(durationSeconds) }

        var announced: AnnouncedBreak {
            AnnouncedBreak(id: id, start: start.timeIntervalSince1970, duration: durationSeconds)
        }
    }

    package static let capacity = 1000
    /// How long an announcement is kept after its break ends, seconds.
    static let retentionSeconds = 600.0

    private let state = NIOLockedValueBox<[Announcement]>([])

    package init() {}

    /// Adds a break; false when `capacity` breaks are announced and none has ended.
    package func announce(_ announcement: Announcement, now: Date) -> Bool {
        state.withLockedValue { list in
            list.removeAll { $0.end.addingTimeInterval(Self.retentionSeconds) < now }
            guard list.count < Self.capacity else { return false }
            list.append(announcement)
            list.sort { $0.start < $1.start }
            return true
        }
    }

    /// Removes break `id`; the announcement removed, or nil when there was none.
    package func cancel(_ id: String) -> Announcement? {
        state.withLockedValue { list in
            guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
            return list.remove(at: index)
        }
    }

    /// The list as a store shared by the replicas has it (`BreakAnnouncementSync`).
    func replace(with list: [Announcement]) {
        let sorted = list.sorted { $0.start < $1.start }.prefix(Self.capacity)
        state.withLockedValue { $0 = Array(sorted) }
    }

    /// Every announcement, soonest first.
    package func all() -> [Announcement] { state.withLockedValue { $0 } }

    /// The breaks announced for the channel at `url`, as its timeline takes them. Called on each
    /// live reload: a lock and a scan of a short list (empty unless the API was used).
    func breaks(for url: String) -> [AnnouncedBreak] {
        state.withLockedValue { list in
            guard !list.isEmpty else { return [] }
            return list.filter { Self.matches($0.channelPrefix, url) }.map(\.announced)
        }
    }

    /// The ad parameters of the announced break a timeline opened as `signalID`, if it is one.
    func adParameters(forSignal signalID: String?) -> [String: String] {
        guard let signalID, signalID.hasPrefix(AnnouncedBreak.signalPrefix) else { return [:] }
        let id = signalID.dropFirst(AnnouncedBreak.signalPrefix.count)
        return state.withLockedValue { list in list.first { $0.id == id }?.adParameters ?? [:] }
    }

    static func matches(_ prefix: String, _ url: String) -> Bool {
        UpstreamURL.lowercasingSchemeAndAuthority(url).hasPrefix(UpstreamURL.lowercasingSchemeAndAuthority(prefix))
    }
}

import Foundation
import Logging
import ServiceLifecycle

/// Where announced breaks are shared by the replicas of one deployment (PostgreSQL, the store
/// they share sessions through): each replica writes the breaks announced through it, and reads
/// everyone's into its own `BreakAnnouncements` (`BreakAnnouncementSync`).
package protocol BreakAnnouncementSharing: Sendable {
    func saveAnnouncement(_ announcement: BreakAnnouncements.Announcement) async throws(SessionStoreError)
    /// False when there was no such break.
    func deleteAnnouncement(_ id: String) async throws(SessionStoreError) -> Bool
    /// Every break whose end is after `date`, soonest first.
    func announcements(endingAfter date: Date) async throws(SessionStoreError) -> [BreakAnnouncements.Announcement]
}

/// Reads the breaks every replica announced into this replica's `BreakAnnouncements`, every
/// `interval`, so its sessions open them too: a break announced through any replica reaches every
/// replica's sessions within `interval` (announce breaks at least a few seconds ahead).
struct BreakAnnouncementSync: Service {
    let shared: any BreakAnnouncementSharing
    let announcements: BreakAnnouncements
    let interval: Duration
    let clock: @Sendable () -> Date
    let logger: Logger

    func run() async {
        var failing = false
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await sync()
                if failing { logger.info("announced breaks read from the session store again") }
                failing = false
            } catch {
                if !failing {
                    logger.warning(
                        "announced breaks could not be read from the session store; this replica keeps the ones it has",
                        metadata: ["error": "\(error)"])
                }
                failing = true
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// One read: the replica's list becomes the store's.
    func sync() async throws(SessionStoreError) {
        let list = try await shared.announcements(
            endingAfter: clock().addingTimeInterval(-BreakAnnouncements.retentionSeconds))
        announcements.replace(with: list)
    }
}

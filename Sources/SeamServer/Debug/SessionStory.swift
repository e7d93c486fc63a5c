import Foundation
import SeamWire

/// A session's story as a store keeps it beside the session's record: the newest entries, at
/// most a bound (`debug.storyEntries`), and how many older ones were dropped. Bounded, so a live
/// session followed for days costs what one followed for minutes.
package struct SessionStory: Sendable, Codable, Equatable {
    package var entries: [SessionStoryEntry]
    /// Entries dropped to keep within the bound, oldest first.
    package var dropped: Int

    package init(entries: [SessionStoryEntry] = [], dropped: Int = 0) {
        self.entries = entries
        self.dropped = dropped
    }

    /// Appends `new`, then drops the oldest entries beyond `keep`.
    package mutating func append(_ new: [SessionStoryEntry], keep: Int) {
        entries += new
        let excess = entries.count - max(1, keep)
        guard excess > 0 else { return }
        entries.removeFirst(excess)
        dropped += excess
    }
}

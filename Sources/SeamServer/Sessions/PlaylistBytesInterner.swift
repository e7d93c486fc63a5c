import NIOConcurrencyHelpers
import NIOCore

/// Keeps one copy of playlist bytes that many sessions serve alike: an interstitial ad asset's
/// playlists name no session (their URIs are relative), so every session that plays one creative
/// in one rendition would otherwise hold its own copy of the same bytes. `ByteBuffer`s share
/// their storage, so a session holding the interned buffer costs a reference, not the bytes.
///
/// Bounded: when it holds `capacity` entries it starts over (sessions keep the buffers they were
/// given; later sessions fill the table again), so memory follows the creatives in use.
final class PlaylistBytesInterner: Sendable {
    private let table = NIOLockedValueBox<[ByteBuffer: ByteBuffer]>([:])
    let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The buffer already held with these bytes, else `bytes` (now held).
    func intern(_ bytes: ByteBuffer) -> ByteBuffer {
        table.withLockedValue { table in
            if let existing = table[bytes] { return existing }
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[bytes] = bytes
            return bytes
        }
    }

    var count: Int { table.withLockedValue { $0.count } }
}

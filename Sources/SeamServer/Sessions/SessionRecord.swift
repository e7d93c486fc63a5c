import Foundation
import NIOCore
import Stitching

/// A session written down: what it was built from and what it serves, as a `Codable` value: what
/// every store keeps (`SessionStore` knows records, not sessions), and what a database several
/// replicas share writes, so another instance can serve the session.
///
/// VOD: the inputs, and everything the session serves as it is in `StitchedSession` (the
/// serialized playlists and their gzip copies, the tracking document, the ad segment table and
/// the beacons). The bytes are a cache of the session's plan: once the plan is a value of its own,
/// a record can carry it and the bytes become optional.
///
/// Live: the channel URL, the inputs and the tracking mode, and the session machine's snapshot
/// (timeline, the decision of each break on it — ads, layout, creative URLs, not the playlists,
/// which the shared channel gives back — and what each rendition last served). Another replica
/// takes a live session up from its record (`LiveSessionFactory.revive`) on the shared channel.
package struct SessionRecord: Sendable, Codable, Equatable {
    /// Bumped when the encoded form changes incompatibly; a store refuses records of another
    /// version. Version 4: a live timeline's entries and a layout's slots as columns
    /// (`EntryColumns`, `SlotColumns`), so a replica of an earlier release refuses a live record
    /// it cannot read (`503`) instead of failing on it.
    package static let currentVersion = 4
    /// VOD records' form has not changed since version 2; they are still written as version 3, so
    /// replicas of the previous release serve the VOD sessions new ones made through a rolling
    /// upgrade.
    package static let vodVersion = 3
    /// Versions this Seam reads: version 2 (before live timelines counted their changes) differs
    /// only in live records, so the VOD sessions a replica of an earlier release wrote are
    /// served through a rolling upgrade; its live records do not decode (`isFromEarlierRelease`)
    /// and those sessions are lost, as in a restart (`410`, the player starts again). Live records
    /// of version 3 (entries and slots one object each) read as written.
    package static let readableVersions = 2...4

    package var version: Int
    package var id: SessionID
    package var inputs: SessionInputs
    package var trackingMode: TrackingMode
    /// The rendering `manifestUrl` named (`stitched` or `interstitials`).
    package var mode: SessionMode
    package var kind: Kind

    /// The main of a picture-in-picture session; nil for a main.
    package var pipOf: SessionID? { inputs.request.pipOf }

    /// Whose claim set the session's server-side beacons go in (`SessionStore.claimBeacons`).
    package var beaconOwner: SessionID { pipOf ?? id }

    /// Boxed (`indirect`): a record stays a few words wide, and a copy of it (the in-memory store's,
    /// a load's) shares the kind's storage.
    package indirect enum Kind: Sendable, Equatable {
        case vod(VOD)
        case live(Live)
    }

    /// What a VOD session serves. The bytes are the session's own buffers (shared, not copied),
    /// written as base64 strings as `Data` was, so records keep their form.
    ///
    /// Made from a session, the record holds that session's value (its buffers and tables shared,
    /// nothing copied or rebuilt: the in-memory store keeps it at no cost beyond a reference, and
    /// the session it gives back is the same value); its rows (`Rows`) are worked out when it is
    /// written or read. Decoded, it holds the rows.
    @dynamicMemberLookup
    package struct VOD: Sendable, Codable, Equatable {
        private enum Storage: Sendable {
            case session(StitchedSession)
            case rows(Rows)
        }

        private var storage: Storage

        package init(_ session: StitchedSession) { storage = .session(session) }

        package init(rows: Rows) { storage = .rows(rows) }

        /// The session the record was made from; nil for a record read from its bytes.
        package var session: StitchedSession? {
            if case .session(let session) = storage { return session }
            return nil
        }

        /// What the record writes.
        package var rows: Rows {
            switch storage {
            case .session(let session): return Rows(session)
            case .rows(let rows): return rows
            }
        }

        package subscript<Value>(dynamicMember path: KeyPath<Rows, Value>) -> Value { rows[keyPath: path] }

        package init(from decoder: any Decoder) throws { storage = .rows(try Rows(from: decoder)) }

        package func encode(to encoder: any Encoder) throws { try rows.encode(to: encoder) }

        package static func == (a: VOD, b: VOD) -> Bool { a.rows == b.rows }

        /// The record's written form: rows sorted, so one session always gives the same bytes.
        package struct Rows: Sendable, Codable, Equatable {
            package var contentURL: String
            package var createdAt: Date
            /// The multivariant playlist, serialized.
            package var multivariant: ByteBuffer
            /// Media playlists by rendition key (`v0`, `a0`, `s0`, ...), serialized.
            package var media: [String: ByteBuffer]
            /// The gzip copies of the media playlists, by rendition key.
            package var gzipped: [String: ByteBuffer]
            /// The gzip copy of the multivariant playlist, when it has one.
            package var gzippedMultivariant: ByteBuffer?
            package var tracking: TrackingDocument
            package var adSegments: [AdSegment]
            package var beacons: [Beacons]
            package var interstitials: Interstitials
            /// A DASH session's stitched MPD and its gzip copy (nil for HLS, and in records
            /// written before DASH).
            package var mpd: ByteBuffer? = nil
            package var gzippedMPD: ByteBuffer? = nil

            package typealias AdSegment = VOD.AdSegment
            package typealias Beacons = VOD.Beacons
            package typealias Interstitials = VOD.Interstitials
            package typealias AdAsset = VOD.AdAsset
        }

        /// The interstitials rendering, serialized: playlists by rendition key, asset lists by
        /// break id, ad assets by pod and ad.
        package struct Interstitials: Sendable, Codable, Equatable {
            package var multivariant: ByteBuffer
            package var gzippedMultivariant: ByteBuffer?
            package var media: [String: ByteBuffer]
            package var gzipped: [String: ByteBuffer]
            package var assetLists: [String: ByteBuffer]
            package var adAssets: [AdAsset]
        }

        /// One ad as an interstitial asset: its multivariant playlist and its media playlists by rendition key.
        package struct AdAsset: Sendable, Codable, Equatable {
            package var breakNumber: Int
            package var ad: Int
            package var multivariant: ByteBuffer
            package var media: [String: ByteBuffer]
        }

        /// Where one ad segment of one rendition really is, and what fetching it reports.
        package struct AdSegment: Sendable, Codable, Equatable {
            package var rendition: String
            package var breakNumber: Int
            package var ad: Int
            package var segment: Int
            package var url: String
            package var events: [AdProgressEvent]
        }

        /// The beacon URLs of one event of one ad, for server-side tracking.
        package struct Beacons: Sendable, Codable, Equatable {
            package var breakNumber: Int
            package var ad: Int
            package var event: AdProgressEvent
            package var urls: [String]
        }
    }

    /// A live session: its channel (by URL; sessions of one channel share it) and its machine's
    /// snapshot (`LiveSessionMachine.Snapshot`: the stitched timeline, the decision of each break
    /// still on it, what each rendition last served). No twin of the machine's values: the
    /// snapshot is written as it is, and another replica resumes it with the machine's own
    /// initializer (`LiveSessionMachine(resuming:)`) on the shared channel. Written flat
    /// (`channelURL`, `timeline`, `decisions`, `served`), the form records have had since version 2.
    package struct Live: Sendable, Codable, Equatable {
        /// The channel's multivariant (or media) playlist URL.
        package var channelURL: String
        package var session: LiveSessionMachine.Snapshot

        package init(channelURL: String, session: LiveSessionMachine.Snapshot) {
            self.channelURL = channelURL
            self.session = session
        }

        private enum CodingKeys: String, CodingKey { case channelURL }

        package init(from decoder: any Decoder) throws {
            channelURL = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .channelURL)
            session = try LiveSessionMachine.Snapshot(from: decoder)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(channelURL, forKey: .channelURL)
            try session.encode(to: encoder)
        }
    }

    /// Which state of a live session a record keeps.
    package enum LiveState: Sendable {
        /// The machine's snapshot now: what another replica takes the session up from.
        case current
        /// The session before its first reload (its channel's shared `begunRecordKind`): what a
        /// store only this process reads keeps, since it never gives the record back while the
        /// runtime holds the session (`SessionRuntime.insert`). No snapshot of a window the machine
        /// copies away from at its next reload, at a kilobyte per viewer.
        case asBegun
    }

    /// The record of a session built from `inputs`. For a live session the inputs the session
    /// keeps (with its channel's shared strings) are used.
    package init(_ session: SeamSession, inputs: SessionInputs, liveState: LiveState = .current) {
        if case .vod = session { version = Self.vodVersion } else { version = Self.currentVersion }
        id = session.id
        switch session {
        case .vod(let vod):
            self.inputs = inputs
            trackingMode = vod.trackingMode
            mode = vod.mode
            kind = .vod(VOD(vod))
        case .live(let live):
            self.inputs = live.inputs
            trackingMode = live.trackingMode
            mode = live.mode
            kind = liveState == .asBegun ? live.begunRecordKind() : .live(live.snapshot())
        }
        // The main the session plays along, as built (a pip's request names it, checked; a pip of
        // a pip is recorded as the root main's).
        // Set only when it differs: the inputs are the session's own box, shared, not copied.
        if self.inputs.request.pipOf != session.pipOf { self.inputs.request.pipOf = session.pipOf }
    }

    // MARK: Bytes

    /// The record as JSON bytes (keys sorted, so equal records give equal bytes), written as it
    /// is encoded (`StreamingJSONEncoder`: Foundation's encoder builds a tree of the record first,
    /// and a shared store writes a live session's record at each break's decision and end).
    package func encoded() throws(SessionRecordError) -> [UInt8] {
        do {
            return try StreamingJSONEncoder().encode(self)
        } catch {
            throw .unwritable("\(error)")
        }
    }

    /// A record from `encoded()`'s bytes.
    package init(decoding bytes: some Collection<UInt8>) throws(SessionRecordError) {
        let data = Data(bytes)
        // The version first: a record of another version may lack fields this one needs.
        let version = (try? JSONDecoder().decode(Versioned.self, from: data))?.version
        if let version, !Self.readableVersions.contains(version) {
            throw .unreadable(
                "record version \(version); this Seam reads versions \(Self.readableVersions.lowerBound) to \(Self.readableVersions.upperBound)"
            )
        }
        do {
            self = try JSONDecoder().decode(SessionRecord.self, from: data)
        } catch {
            if let version, version < Self.currentVersion { throw .earlierRelease(version: version) }
            throw .unreadable("\(error)")
        }
    }
}

/// The version field of a record, read before the rest.
private struct Versioned: Decodable {
    var version: Int
}

/// Why a record could not be written or read.
package enum SessionRecordError: Error, Sendable, Equatable {
    case unwritable(String)
    case unreadable(String)
    /// A record of an earlier release in a form this one no longer reads (a live session written
    /// before an upgrade): the session is lost, as in a restart.
    case earlierRelease(version: Int)
}

extension SessionRecord.Kind: Codable {
    enum CodingKeys: String, CodingKey {
        case type, vod, live
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "vod": self = .vod(try container.decode(SessionRecord.VOD.self, forKey: .vod))
        case "live": self = .live(try container.decode(SessionRecord.Live.self, forKey: .live))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown session type \(other)")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .vod(let vod):
            try container.encode("vod", forKey: .type)
            try container.encode(vod, forKey: .vod)
        case .live(let live):
            try container.encode("live", forKey: .type)
            try container.encode(live, forKey: .live)
        }
    }
}

import NIOCore

/// Puts a session's response bodies in one allocation: every body becomes a slice of it. A VOD
/// session serves a dozen or more small bodies (two renderings' playlists, their gzip copies,
/// asset lists); each in its own buffer pays the allocator's header and rounding, a third again
/// of the bytes for playlists of one or two KiB. Slices share the storage, so serving one is
/// still a reference, not a copy.
struct BodyArena {
    private var bodies: [ByteBuffer] = []

    /// Adds `body`; `slices()[index]` is its copy.
    mutating func add(_ body: ByteBuffer) -> Int {
        bodies.append(body)
        return bodies.count - 1
    }

    /// Every body added, in order, as slices of one buffer. Written completely before any slice
    /// is taken: a write to a buffer whose storage a slice shares would copy it.
    func slices() -> [ByteBuffer] {
        var arena = ByteBufferAllocator().buffer(capacity: bodies.reduce(0) { $0 + $1.readableBytes })
        var ranges: [(at: Int, length: Int)] = []
        ranges.reserveCapacity(bodies.count)
        for body in bodies {
            ranges.append((arena.writerIndex, body.readableBytes))
            arena.writeImmutableBuffer(body)
        }
        return zip(bodies, ranges).map { body, range in
            arena.getSlice(at: range.at, length: range.length) ?? body
        }
    }
}

extension StitchedSession {
    /// The same session with its own bodies in one allocation (`BodyArena`). Ad asset
    /// playlists, shared between sessions (`PlaylistBytesInterner`), stay as they are.
    func packed() -> StitchedSession {
        var arena = BodyArena()
        func add<Key>(_ table: [Key: ByteBuffer]) -> [(Key, Int)] { table.map { ($0.key, arena.add($0.value)) } }
        let multivariant = arena.add(self.multivariant)
        let gzippedMultivariant = self.gzippedMultivariant.map { arena.add($0) }
        let media = add(self.media)
        let gzipped = add(self.gzipped)
        let rendering = interstitials
        let interstitialsMultivariant = arena.add(rendering.multivariant)
        let interstitialsGzippedMultivariant = rendering.gzippedMultivariant.map { arena.add($0) }
        let interstitialsMedia = add(rendering.media)
        let interstitialsGzipped = add(rendering.gzipped)
        let assetLists = add(rendering.assetLists)
        let slices = arena.slices()
        func table<Key>(_ entries: [(Key, Int)]) -> [Key: ByteBuffer] {
            Dictionary(uniqueKeysWithValues: entries.map { ($0.0, slices[$0.1]) })
        }
        let packedRendering = InterstitialsRendering(
            multivariant: slices[interstitialsMultivariant],
            gzippedMultivariant: interstitialsGzippedMultivariant.map { slices[$0] },
            media: table(interstitialsMedia), gzipped: table(interstitialsGzipped), assetLists: table(assetLists),
            adAssets: rendering.adAssets, adAssetMedia: rendering.adAssetMedia)
        return StitchedSession(
            id: id, contentURL: contentURL, trackingMode: trackingMode, multivariant: slices[multivariant],
            media: table(media), gzipped: table(gzipped), tracking: tracking, adSegments: adSegments,
            beacons: beacons, createdAt: createdAt, gzippedMultivariant: gzippedMultivariant.map { slices[$0] },
            mode: mode, interstitials: packedRendering, pipOf: pipOf, policy: policy)
    }
}

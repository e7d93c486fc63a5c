import Foundation
import Testing
import HLS
@testable import Stitching

/// The hls-splice test vectors copied into `Resources/hls-splice/` (see its README.md), and
/// fixtures derived from them by editing their text.
enum SpliceVectors {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "test vector not found: \(path)" }
    }

    static func url(_ path: String) throws -> URL {
        // `.copy("Resources")` puts the folder inside the bundle; where `resourceURL` points
        // differs between platforms, so look in both places.
        let bases = [Bundle.module.resourceURL, Bundle.module.bundleURL].compactMap { $0 }
        let candidates = bases.flatMap {
            [
                $0.appendingPathComponent("Resources/hls-splice/" + path),
                $0.appendingPathComponent("hls-splice/" + path),
            ]
        }
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Missing(path: path)
        }
        return url
    }

    /// A vector's text, byte for byte (most use CRLF line endings).
    static func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: url(path)), as: UTF8.self)
    }

    static func media(_ path: String) throws -> MediaPlaylist {
        try MediaPlaylist(parsing: text(path))
    }

    static func multivariant(_ path: String) throws -> MultivariantPlaylist {
        try MultivariantPlaylist(parsing: text(path))
    }

    /// The media playlists a multivariant in `folder` lists, by URI as listed (relative). URIs
    /// whose file the vector lacks are left out (`demux/ad1` lists `index_0_av.m3u8` but ships
    /// `index_0_v.m3u8`), as a loader would leave out what it could not fetch.
    static func playlists(of multivariant: MultivariantPlaylist, in folder: String) throws -> [String: MediaPlaylist] {
        var playlists: [String: MediaPlaylist] = [:]
        for uri in AdMediaCatalog.mediaPlaylistURIs(of: multivariant) {
            guard (try? url(folder + "/" + uri)) != nil else { continue }
            playlists[uri] = try media(folder + "/" + uri)
        }
        return playlists
    }

    /// An ad creative's catalog, loaded as `CreativeLoader` would: its multivariant, then every
    /// media playlist `AdMediaCatalog.mediaPlaylistURIs` names.
    static func catalog(
        _ folder: String, master: String = "master.m3u8", edit: (String) throws -> String = { $0 }
    ) throws -> AdMediaCatalog {
        let multivariant = try MultivariantPlaylist(parsing: edit(text(folder + "/" + master)))
        return AdMediaCatalog(multivariant: multivariant, playlists: try playlists(of: multivariant, in: folder))
    }

    /// A title as `ContentLoader` loads it: its multivariant, then the media playlist of every
    /// rendition `ContentSet.wanted` names, URIs as listed (relative to `folder`).
    static func title(
        _ folder: String, master: String = "master.m3u8", edit: (String) throws -> String = { $0 }
    ) throws -> ContentSet {
        let multivariant = try MultivariantPlaylist(parsing: edit(text(folder + "/" + master)))
        let renditions = try ContentSet.wanted(in: multivariant).map { wanted in
            ContentSet.Rendition(
                key: wanted.key, variant: wanted.variant, rendition: wanted.rendition,
                playlist: try media(folder + "/" + wanted.uri), sourceURL: wanted.uri)
        }
        return try #require(ContentSet(multivariant: multivariant, renditions: renditions))
    }

    /// An ad creative as `CreativeLoader` loads it (see `catalog`).
    static func creative(
        _ folder: String, master: String = "master.m3u8", edit: (String) throws -> String = { $0 }
    ) throws -> AdCreative {
        AdCreative(
            url: "https://ads.example/\(folder)/\(master)", catalog: try catalog(folder, master: master, edit: edit))
    }

    /// `text` with `original` replaced by `replacement` everywhere; records an issue when
    /// `original` is not there, so a derived fixture cannot silently stay the vector.
    static func edited(
        _ text: String, _ original: String, _ replacement: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        #expect(text.contains(original), "the vector no longer contains \(original)", sourceLocation: sourceLocation)
        return text.replacingOccurrences(of: original, with: replacement)
    }

    /// The audio rendition of `multivariant` in `group` and `language`.
    static func audio(
        _ multivariant: MultivariantPlaylist, group: String, language: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Rendition {
        try #require(
            multivariant.renditions.first { $0.type == .audio && $0.groupID == group && $0.language == language },
            sourceLocation: sourceLocation)
    }
}

import Foundation
import Testing
@testable import VAST

/// Loads fixtures copied into `Resources/` (see `Resources/README.md`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture not found: \(path)" }
    }

    static func url(_ path: String) throws -> URL {
        // `.copy("Resources")` puts the folder inside the bundle; where `resourceURL` points
        // differs between platforms, so look in both places.
        let bases = [Bundle.module.resourceURL, Bundle.module.bundleURL].compactMap { $0 }
        let candidates = bases.flatMap {
            [$0.appendingPathComponent("Resources/" + path), $0.appendingPathComponent(path)]
        }
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Missing(path: path)
        }
        return url
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(path)))
    }

    /// A file of dailymotion/vast-client-js by name, e.g. `sample.xml`.
    static func vastClient(_ name: String) throws -> [UInt8] {
        try bytes("dailymotion/vast-client-js/" + name)
    }

    static func vmap(_ name: String) throws -> [UInt8] {
        try bytes("dailymotion/vmap-js/" + name)
    }

    static func parse(_ name: String) throws -> VASTDocument {
        try VASTParser().parse(vastClient(name))
    }

    /// A fetch closure that serves vast-client-js files by their relative tag URI, as upstream's
    /// wrapper fixtures expect, and records what it was asked for.
    static func fileFetcher(log: FetchLog? = nil) -> WrapperChain.Fetch {
        { uri in
            await log?.record(uri)
            return try vastClient(uri)
        }
    }

    /// A fetch closure over in-memory documents keyed by URI.
    static func memoryFetcher(_ documents: [String: String], log: FetchLog? = nil) -> WrapperChain.Fetch {
        { uri in
            await log?.record(uri)
            guard let text = documents[uri] else { throw Missing(path: uri) }
            return Array(text.utf8)
        }
    }
}

actor FetchLog {
    private(set) var uris: [String] = []
    func record(_ uri: String) { uris.append(uri) }
}

/// Builds small VAST documents for tests.
enum Make {
    static func wrapper(id: String, uri: String, sequence: Int? = nil, attributes: String = "") -> String {
        """
        <VAST version="4.2"><Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><Wrapper\(attributes.isEmpty ? "" : " " + attributes)>
          <AdSystem>test</AdSystem>
          <VASTAdTagURI><![CDATA[\(uri)]]></VASTAdTagURI>
          <Error>https://err.example/\(id)?code=[ERRORCODE]</Error>
          <Impression>https://imp.example/\(id)</Impression>
          <Creatives><Creative><Linear><TrackingEvents>
            <Tracking event="start">https://track.example/\(id)/start</Tracking>
          </TrackingEvents></Linear></Creative></Creatives>
        </Wrapper></Ad></VAST>
        """
    }

    static func inline(id: String, sequence: Int? = nil, duration: String = "00:00:15") -> String {
        """
        <VAST version="4.2"><Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine>
          <AdSystem>test</AdSystem><AdTitle>\(id)</AdTitle>
          <Impression>https://imp.example/\(id)</Impression>
          <Creatives><Creative id="c-\(id)"><Linear><Duration>\(duration)</Duration>
            <TrackingEvents><Tracking event="start">https://track.example/\(id)/start</Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="streaming" type="application/x-mpegURL" width="1280" height="720">https://ads.example/\(id)/master.m3u8</MediaFile></MediaFiles>
          </Linear></Creative></Creatives>
        </InLine></Ad></VAST>
        """
    }
}

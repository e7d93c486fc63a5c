import Foundation
import NIOCore
import Stitching

/// Makes picture-in-picture sessions (`pipOf`): a second player of the same viewer (a small
/// window, usually stitched at low resolution) that plays its main session's ads without asking
/// the ad server again and without firing a beacon the main fired.
///
/// What a pip shares with its main: the content, every break decision (VOD: the whole plan, the
/// main's bytes with the pip's own URLs; live: the main's timeline and decision record, so breaks
/// the main decided before the pip joined and those decided later are the same for both), the
/// tracking mode and the interstitials policy, and the claim set of server-side beacons
/// (`SeamSession.beaconOwner`). What it keeps for itself: its id and URLs, its life in the store
/// (keep-alive, expiry, delete: either may outlive the other), and its rendering mode.
///
/// A pip of a pip is a pip of the root main: it plays what the session it names plays, and
/// claims in the root's set.
struct PipSessionFactory: Sendable {
    /// Refuses what a pip cannot ask for differently from `main`, naming the field: a pip that
    /// asked for other ads, another tracking mode, policy or content would silently get the
    /// main's. A tracking mode or policy equal to the main's is accepted (a client may send the
    /// options it sent for the main). Returns the request as the pip is built from it and recorded: `pipOf` the root
    /// main, the main's tracking mode and policy.
    static func checked(_ request: SessionRequest, main: SeamSession) throws(SeamError) -> SessionRequest {
        let mainURL: String
        let mainTracking: TrackingMode
        let mainPolicy: AdPolicy?
        switch main {
        case .vod(let session):
            mainURL = session.contentURL
            mainTracking = session.trackingMode
            mainPolicy = session.policy
        case .live(let session):
            mainURL = session.inputs.request.url
            mainTracking = session.trackingMode
            mainPolicy = session.inputs.request.policy
        }
        guard sameContent(request.url, mainURL) else {
            throw SeamError(
                .invalidRequest,
                "url must be the main session's content URL: a picture-in-picture session plays its main's content (pipOf \(main.id) plays \(SessionRequest.quoted(mainURL))); got \(SessionRequest.quoted(request.url))"
            )
        }
        let adRequestFields: [(String, Bool)] = [
            // Empty is absent (the implicit path always has its `ads.*` parameters, maybe none).
            ("adParams", request.adParams?.isEmpty == false), ("customParams", request.customParams?.isEmpty == false),
            ("adTagHeaders", request.adTagHeaders?.isEmpty == false), ("contentId", request.contentId != nil),
            ("durationMs", request.durationMs != nil), ("palNonce", request.palNonce != nil),
            ("consent", request.consent != nil),
        ]
        if let field = adRequestFields.first(where: \.1)?.0 {
            throw SeamError(
                .invalidRequest,
                "\(field) does not apply to a picture-in-picture session: it makes no ad request and plays its main session's ad decisions; leave \(field) out"
            )
        }
        if let asked = request.trackingMode, asked != mainTracking {
            throw SeamError(
                .invalidRequest,
                "trackingMode must be the main session's (\"\(mainTracking.rawValue)\") or left out: a picture-in-picture session shares its main's beacons, so both track them the same way; got \"\(asked.rawValue)\""
            )
        }
        // Compared as rendered: a policy spelling out Seam's defaults is the main's default.
        if let asked = request.policy, InterstitialPolicy(asked) != InterstitialPolicy(mainPolicy) {
            throw SeamError(
                .invalidRequest,
                "policy must be the main session's or left out: a picture-in-picture session plays its main's breaks under the main's policy"
            )
        }
        if request.renditions != nil {
            throw SeamError(
                .invalidRequest,
                "renditions does not apply to a picture-in-picture session: it plays its main session's playlists; leave renditions out"
            )
        }
        if request.adIdDecoration != nil {
            throw SeamError(
                .invalidRequest,
                "adIdDecoration does not apply to a picture-in-picture session: it shows its main session's breaks, decorated as the main's playlists are; leave adIdDecoration out"
            )
        }
        var checked = request
        checked.pipOf = main.beaconOwner
        checked.trackingMode = mainTracking
        checked.policy = mainPolicy
        if case .live(let session) = main { checked.adIdDecoration = session.inputs.request.adIdDecoration }
        return checked
    }

    /// The same content: equal URLs, or equal once scheme and host case, the default port and a
    /// fragment are set aside.
    static func sameContent(_ one: String, _ other: String) -> Bool {
        if one == other { return true }
        guard let first = try? UpstreamURL(one), let second = try? UpstreamURL(other) else { return false }
        return first.scheme == second.scheme && first.host.lowercased() == second.host.lowercased()
            && first.port == second.port
            && first.pathAndQuery == second.pathAndQuery
    }

    /// A pip of `main` with id `id`, from `inputs` as `checked` returned them.
    func make(
        _ inputs: SessionInputs, id: SessionID, of main: SeamSession, mode: SessionMode, createdAt: Date
    ) -> SeamSession {
        switch main {
        case .vod(let session):
            // A DASH main has one rendering, the stitched MPD, whatever the pip's mode rules say.
            return .vod(vod(session, id: id, mode: session.format == .dash ? .stitched : mode, createdAt: createdAt))
        case .live(let session):
            return .live(
                LiveSession(
                    pipOf: session, id: id,
                    inputs: inputs.interned(by: session.channel.interner).sharing(session.channel.inputsPool),
                    mode: session.format == .dash ? .stitched : mode))
        }
    }

    /// The main's plan as it serves it, with the pip's id in every session URL: the playlists
    /// (compressed again where the main's were), the interstitials rendering, a DASH main's MPD
    /// and the tracking JSON. The ad segment table and the beacons name no session and are shared as they are.
    func vod(_ main: StitchedSession, id: SessionID, mode: SessionMode, createdAt: Date) -> StitchedSession {
        let rewrite = SessionURLRewrite(from: main.id, to: id)
        func gzip(
            _ plain: [RenditionKey: ByteBuffer], like main: [RenditionKey: ByteBuffer]
        ) -> [RenditionKey: ByteBuffer] {
            var result: [RenditionKey: ByteBuffer] = [:]
            for key in main.keys {
                if let body = plain[key], let compressed = VODSessionFactory.compressed(body) {
                    result[key] = compressed
                }
            }
            return result
        }
        let multivariant = rewrite(main.multivariant)
        let media = main.media.mapValues(rewrite.callAsFunction)
        let source = main.interstitials
        let interstitialsMultivariant = rewrite(source.multivariant)
        let interstitialsMedia = source.media.mapValues(rewrite.callAsFunction)
        let interstitials = InterstitialsRendering(
            multivariant: interstitialsMultivariant,
            gzippedMultivariant: source.gzippedMultivariant == nil
                ? nil : VODSessionFactory.compressed(interstitialsMultivariant),
            media: interstitialsMedia, gzipped: gzip(interstitialsMedia, like: source.gzipped),
            assetLists: source.assetLists.mapValues(rewrite.callAsFunction),
            adAssets: source.adAssets.mapValues(rewrite.callAsFunction),
            adAssetMedia: source.adAssetMedia.mapValues(rewrite.callAsFunction))
        var tracking = main.tracking
        tracking.sessionId = id.value
        tracking.mode = mode
        tracking.pipOf = (main.pipOf ?? main.id).value
        tracking.renderings = tracking.renderings?.map {
            TrackingDocument.Rendering(mode: $0.mode, manifestUrl: rewrite($0.manifestUrl))
        }
        for index in tracking.avails.indices {
            tracking.avails[index].assetListUrl = tracking.avails[index].assetListUrl.map(rewrite.callAsFunction)
        }
        let dashManifest = main.dashManifestBody.map { body in
            let bytes = rewrite(body.bytes)
            return PlaylistBody(bytes: bytes, gzipped: body.gzipped == nil ? nil : VODSessionFactory.compressed(bytes))
        }
        return StitchedSession(
            id: id, contentURL: main.contentURL, trackingMode: main.trackingMode, multivariant: multivariant,
            media: media, gzipped: gzip(media, like: main.gzipped), tracking: tracking,
            adSegments: main.adSegments, beacons: main.beacons, createdAt: createdAt,
            gzippedMultivariant: main.gzippedMultivariant == nil ? nil : VODSessionFactory.compressed(multivariant),
            mode: mode, interstitials: interstitials, pipOf: main.pipOf ?? main.id, policy: main.policy,
            dashManifest: dashManifest)
    }
}

/// Puts another session's id in a session's URLs: every `/v1/sessions/<from>/` becomes
/// `/v1/sessions/<to>/`. Session ids are 40 random-looking characters, so nothing but a session
/// URL matches. The base URL stays the main's (both reach the same Seam). A body without a
/// session URL (an ad asset playlist, shared by every session) is returned as it is, not copied.
struct SessionURLRewrite: Sendable {
    let from: [UInt8]
    let to: [UInt8]

    init(from: SessionID, to: SessionID) {
        self.from = Array("/v1/sessions/\(from.value)/".utf8)
        self.to = Array("/v1/sessions/\(to.value)/".utf8)
    }

    func callAsFunction(_ body: ByteBuffer) -> ByteBuffer {
        let bytes = body.readableBytesView
        guard let replaced = replacing(bytes) else { return body }
        return ByteBuffer(bytes: replaced)
    }

    func callAsFunction(_ text: String) -> String {
        guard let replaced = replacing(Array(text.utf8)) else { return text }
        return String(decoding: replaced, as: UTF8.self)
    }

    /// The bytes with every occurrence replaced; nil when there is none.
    func replacing<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> [UInt8]?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard let first = from.first else { return nil }
        var output: [UInt8] = []
        var copied = bytes.startIndex
        var index = bytes.startIndex
        let last = bytes.endIndex - from.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + from.count)].elementsEqual(from) {
                if output.isEmpty { output.reserveCapacity(bytes.count + 256) }
                output.append(contentsOf: bytes[copied..<index])
                output.append(contentsOf: to)
                index += from.count
                copied = index
            } else {
                index += 1
            }
        }
        guard copied != bytes.startIndex else { return nil }
        output.append(contentsOf: bytes[copied..<bytes.endIndex])
        return output
    }
}

import DASH
import NIOCore
import Stitching

extension VODSessionFactory {
    /// Makes a DASH VOD session: plans its breaks as an HLS title's are planned
    /// (`AdPlanner.planDASH`), has the engine stitch the MPD (`DASHVODStitcher`), and keeps the
    /// stitched MPD (with its gzip copy), the ad segment table, the beacons and the tracking JSON.
    /// An MPD Seam cannot cut at a break (segments not aligned, `SegmentBase`) is refused, naming
    /// the fix.
    func makeDASH(
        _ inputs: SessionInputs, id: SessionID, title: DASHTitle, started: ContinuousClock.Instant
    ) async throws(SeamError) -> StitchedSession {
        let plan = await planner.planDASH(inputs, id: id, title: title, deadline: started + adBudget)
        let mode = inputs.trackingMode(default: defaultTrackingMode)
        let urls = SessionURLs(baseURL: inputs.baseURL, sessionID: id.value)
        // `sessions.removeOriginCues`: the events of the breaks that get ads leave the MPD.
        let content =
            removeOriginCues
            ? DASHMarkers.removing(breaksAt: plan.filled.map { max(0, $0.position.cuePoint) }, from: title.mpd)
            : title.mpd
        let stitched: DASHVODStitcher.Stitched
        switch DASHVODStitcher.stitch(content, contentURL: title.url, plan: plan, mode: mode, urls: urls) {
        case .success(let result): stitched = result
        case .failure(let refusal):
            throw SeamError(.originInvalidPlaylist, "Seam cannot stitch the MPD at \(title.url): \(refusal)")
        }
        var tracking = stitched.tracking
        tracking.mode = .stitched
        tracking.renderings = [.init(mode: .stitched, manifestUrl: urls.dashManifest)]
        let bytes = ByteBuffer(bytes: stitched.mpd.serializedBytes())
        let adSegments = stitched.adSegments.mapValues {
            StitchedSession.AdSegmentTarget(url: sharedURLs.intern($0.url), events: sharedEvents.intern($0.events))
        }
        let beacons = stitched.beacons.mapValues { sharedBeaconLists.intern($0.map(sharedURLs.intern)) }
        let empty = InterstitialsRendering(
            multivariant: ByteBuffer(), gzippedMultivariant: nil, media: [:], gzipped: [:], assetLists: [:],
            adAssets: [:], adAssetMedia: [:])
        let session = StitchedSession(
            id: id, contentURL: inputs.request.url, trackingMode: mode, multivariant: ByteBuffer(), media: [:],
            gzipped: [:], tracking: tracking, adSegments: adSegments, beacons: beacons, createdAt: date(),
            mode: .stitched, interstitials: empty, policy: inputs.request.policy,
            dashManifest: PlaylistBody(bytes: bytes, gzipped: gzip ? Self.compressed(bytes) : nil))
        logger.info(
            "session created",
            metadata: [
                "session": "\(id)", "format": "dash", "breaks": "\(plan.breaks.count)",
                "filled": "\(stitched.plan.filled.count)",
            ])
        return session
    }
}

import Hummingbird
import Stitching

/// Server-side tracking: an ad segment fetch fires the events the segment crosses (once per ad,
/// whatever the rendition or re-fetch: `SessionStore.claimBeacons`), then redirects to the ad
/// CDN. Served at the stitched playlists' ad segment URIs and at the same segments as an
/// interstitial ad asset lists them (relative to its playlist).
struct AdSegmentRoutes: Sendable {
    let access: SessionAccess
    let beacons: any BeaconSending
    let addressing: RequestAddressing

    func add(to router: some RouterMethods<SeamRequestContext>) {
        router.get("/v1/sessions/:id/ad/:pod/:ad/:rendition/:segment") { request, context in
            try await adSegment(request, context)
        }
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/media/:rendition/:segment") { request, context in
            try await adSegment(request, context)
        }
    }

    func adSegment(_ request: Request, _ context: SeamRequestContext) async throws -> Response {
        let id = try SessionRoutes.sessionID(context)
        guard let podText = context.parameters.get("pod"), let adText = context.parameters.get("ad"),
            let rendition = context.parameters.get("rendition"), let segment = context.parameters.get("segment"),
            let address = SessionURLs.adSegment(
                pod: podText[...], ad: adText[...], rendition: rendition[...], segment: segment[...])
        else {
            _ = try await access.open(id)
            throw SessionAnswerError.noAdSegment
        }
        let target = try await access.serve(id) { session async throws(SeamError) in
            try await session.adSegment(address)
        }
        let (pod, ad) = (address.pod, address.ad)
        if !target.events.isEmpty {
            let fresh = try await access.stored { () async throws(SessionStoreError) in
                try await access.store.claimBeacons(target.events, breakNumber: pod, ad: ad, in: id)
            }
            // The viewer fetching the segment: the device the ad plays on, as trackers attribute it.
            let viewer = BeaconViewer(
                deviceIP: addressing.deviceIP(request, context), userAgent: request.headers[.userAgent])
            let story = access.sessions.story
            for event in fresh {
                let urls = target.beacons[event] ?? []
                guard !urls.isEmpty else { continue }
                // The session's story lists each beacon with its answer (`debug.*`).
                var report: BeaconReport?
                if story.isOn {
                    report = { @Sendable answer in
                        story.record(
                            id,
                            [SessionStoryEntries.beacon(answer, pod: pod, ad: ad, event: event.rawValue, at: story.now)]
                        )
                    }
                }
                beacons.send(
                    urls, event: event.rawValue, viewer: viewer, context: "\(id) pod \(pod) ad \(ad) \(event.rawValue)",
                    report: report)
            }
            access.analytics.adEvents(fresh, session: id, breakNumber: pod, ad: ad, at: access.clock())
        }
        return Response(status: .found, headers: [.location: target.url, .cacheControl: "no-cache"])
    }
}

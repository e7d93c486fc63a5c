/// Every metric family Seam exposes at `GET /metrics`, with the `# HELP` text Prometheus shows
/// for it. One list, so a family cannot appear without its explanation: `SeamMetricsFactory`
/// takes the help from here, `docs/metrics.md` explains the same names (a test keeps the two in
/// step), and label values are bounded (routes, codes, events, never URLs or ids).
package enum SeamMetricCatalog {
    package struct Family: Sendable {
        package var name: String
        package var help: String
    }

    /// Help for a family recorded through swift-metrics by a library Seam uses, not by Seam.
    package static let libraryHelp = "Recorded by a library Seam uses; see docs/metrics.md."

    /// The help text of `name`.
    package static func help(for name: String) -> String {
        byName[name] ?? libraryHelp
    }

    private static let byName: [String: String] = Dictionary(
        all.map { ($0.name, $0.help) }, uniquingKeysWith: { first, _ in first })

    package static let all: [Family] = [
        // Build and process
        Family(
            name: "seam_build_info",
            help: "Always 1; the label version names the Seam release answering (for dashboards across a rollout)."),
        Family(name: "process_cpu_seconds_total", help: "User and system CPU time of the Seam process, in seconds."),
        Family(
            name: "seam_heap_in_use_bytes",
            help: "Heap bytes allocated and not freed, read at each scrape (memory malloc keeps is not counted)."),

        // HTTP
        Family(
            name: "seam_http_requests_total",
            help: "Requests answered, by route pattern, method and status."),
        Family(
            name: "seam_http_request_duration_seconds",
            help: "Time to answer a request, by route pattern, method and status."),
        Family(
            name: "seam_http_playlists_answered_early_total",
            help:
                "Playlist and MPD requests answered on the network thread, before the router (VOD playlists and MPDs, and live reloads whose origin windows are cached); also counted in seam_http_requests_total."
        ),
        Family(name: "seam_http_connections_open", help: "Client connections open now."),
        Family(
            name: "seam_http_connections_closed_total",
            help: "Client connections Seam closed itself, by reason: header_timeout, idle_timeout, evicted, refused."),

        // Sessions
        Family(
            name: "seam_sessions_created_total",
            help:
                "Sessions started on this replica, by kind (vod, live), mode (stitched, interstitials) and format (hls, dash)."
        ),
        Family(
            name: "seam_sessions_ended_total",
            help:
                "Sessions ended on this replica, by reason: deleted (by the player) or expired (no request for a TTL)."),
        Family(
            name: "seam_sessions_active",
            help: "Sessions this replica holds now, by kind (read at each scrape; replicas each count their own)."),

        // Avails, fill and ads
        Family(
            name: "seam_avails_total",
            help:
                "Ad breaks decided, by kind, outcome (filled, empty) and reason (the skip reason of an empty break, none when filled)."
        ),
        Family(
            name: "seam_avails_prefetched_total",
            help:
                "Live breaks decided before they started (live.prefetchSeconds), by kind and outcome (filled, empty); also counted in seam_avails_total."
        ),
        Family(
            name: "seam_asset_lists_answered_total",
            help:
                "Interstitial asset lists answered, by where the player said it begins (_HLS_start_offset): start, inside (a live join inside the break), after (past the list's end)."
        ),
        Family(
            name: "seam_asset_list_ads_passed_total",
            help:
                "Ads of asset lists that players joining inside a break pass by (wholly before their _HLS_start_offset): never fetched, never seen."
        ),
        Family(
            name: "seam_avail_seconds_total",
            help:
                "Seconds of ad breaks decided, by kind: a filled break's ad time (bumpers left out), an empty live break's cue duration. Fill rate = seam_avail_filled_seconds_total / this."
        ),
        Family(
            name: "seam_avail_filled_seconds_total",
            help: "Seconds of ads placed in decided breaks, by kind."),
        Family(
            name: "seam_ads_inserted_total",
            help: "Ads placed in decided breaks (stitched or listed in an interstitial's asset list), by kind."),
        Family(
            name: "seam_ads_skipped_total",
            help:
                "Ads the ad server returned that were not played, by kind and reason: wrapper_failed, no_playable_media, invalid_ad, pod_limit, conditioning, creative_failed, creative_late, creative_mismatch, does_not_fit (the words are in the session's tracking JSON)."
        ),

        Family(
            name: "seam_bumpers_played_total",
            help:
                "Bumpers (ads.bumpers.*) placed in filled breaks, by kind and position (start, end); not ads: never in the ad or fill counts."
        ),
        Family(
            name: "seam_bumpers_missed_total",
            help:
                "Configured bumpers a filled break played without, by kind, position and reason: conditioning (its MP4 is being conditioned), failed (fetch or conditioning failed), late (not loaded within the ad budget), mismatch (cannot play in the content), does_not_fit (live: no room in the break)."
        ),

        // Ad decisions
        Family(
            name: "seam_ad_requests_total",
            help:
                "Ad server requests (each VAST or VMAP document fetched, wrappers included), by outcome: ok, timeout, http_error, unreachable, blocked (upstream.allowedHosts), no_connection (Seam's connections to the host stayed busy), invalid, rate_limited (not sent: no turn under ads.requestsPerSecond within the ad budget)."
        ),
        Family(
            name: "seam_ad_request_duration_seconds",
            help: "Time of one ad server request (one document), by outcome."),
        Family(
            name: "seam_vast_wrapper_depth",
            help: "Wrappers followed to reach each ad that plays (0: the ad server answered with the ad itself)."),
        Family(
            name: "seam_vast_errors_total",
            help:
                "VAST errors Seam met, by IAB code (e.g. 301 wrapper timeout, 302 wrapper limit, 303 no ads after wrappers, 403 no supported media file); each reported to the ad's Error URLs when it has any."
        ),
        Family(
            name: "seam_ad_requests_shaped_total",
            help:
                "Ad requests to hosts ads.requestsPerSecond caps, by host (the configured ones; other for the rest) and outcome: sent (its turn came), expired (the ad budget ended first; not sent)."
        ),
        Family(
            name: "seam_ad_requests_shaped_waiting",
            help:
                "Ad requests waiting for their turn under ads.requestsPerSecond, by host (the configured ones; other for the rest)."
        ),
        Family(
            name: "seam_ad_request_cap_replicas",
            help:
                "Replicas the ads.requestsPerSecond caps are divided among: this one and those it hears through the PostgreSQL store's notifications (1 without them)."
        ),
        Family(
            name: "seam_ads_requests_waiting",
            help: "Live break decisions waiting for a free slot of live.adRequestConcurrency."),

        // Beacons and analytics
        Family(
            name: "seam_beacons_total",
            help:
                "Server-side beacon URLs, by event (impression, start, firstQuartile, midpoint, thirdQuartile, complete; a VMAP breakStart goes with the break's first impression, breakEnd with its last complete; error for Error URLs) and outcome: sent, failed, blocked (upstream.allowedHosts), dropped (queue full)."
        ),
        Family(
            name: "seam_analytics_events_total",
            help: "Analytics events, by outcome: queued, or dropped (the queue was full)."),
        Family(
            name: "seam_analytics_batches_total",
            help: "Analytics batches per collector, by outcome: sent, or failed (every attempt failed)."),

        // Origin and upstream
        Family(
            name: "seam_origin_playlist_fetches_total",
            help: "Origin media playlists fetched for live channels (one per URL per refresh, shared by all viewers)."),
        Family(
            name: "seam_origin_playlist_cache_hits_total",
            help: "Origin media playlists answered from the live channel cache without a fetch."),
        Family(
            name: "seam_origin_playlist_stale_served_total",
            help: "Last good origin windows served because the origin failed."),
        Family(
            name: "seam_upstream_connection_wait_seconds",
            help:
                "Wait for one of Seam's connections to an upstream host, by purpose (origin, adDecision, adMedia, beacon); not part of the upstream time-out."
        ),
        Family(
            name: "seam_upstream_response_seconds",
            help: "Upstream answer time once a connection was free, per redirect hop, by purpose."),
        Family(
            name: "seam_upstream_no_connection_total",
            help: "Upstream requests never sent because every connection to the host stayed busy, by purpose."),

        // Session store
        Family(
            name: "seam_store_queries_total",
            help: "Queries sent to PostgreSQL, by operation and outcome (unavailable: the request answered 503)."),
        Family(
            name: "seam_store_cache_lookups_total",
            help: "Session lookups on a shared store, by result: hit (answered from this replica's map) or miss."),
        Family(
            name: "seam_store_live_writes_total",
            help:
                "Live session records written to a shared store, by when: before_answer (the answer shows a break decision only the record can tell) or after_answer (written behind the answer)."
        ),
        Family(
            name: "seam_store_live_records_behind",
            help: "Live sessions whose record waits to be written behind the answers that showed its changes."),

        // Conditioning
        Family(name: "seam_conditioning_jobs_queued", help: "MP4 creatives waiting to be conditioned."),
        Family(name: "seam_conditioning_jobs_running", help: "MP4 creatives being conditioned now."),
        Family(
            name: "seam_conditioning_job_duration_seconds",
            help: "Time to condition one MP4 creative, by outcome: conditioned, failed."),
        Family(
            name: "seam_conditioning_lookups_total",
            help: "Conditioned-creative lookups, by result: hit (ready) or miss."),
        Family(name: "seam_conditioning_bytes_on_disk", help: "Bytes of conditioned creatives on disk."),
    ]
}

/// Everything an operator can set. Defaults work for a local try-out; every field is
/// documented in `docs/configuration.md` with its YAML key, environment variable and flag.
package struct SeamConfiguration: Sendable, Codable, Equatable {
    package var server = Server()
    package var domains = Domains()
    package var upstream = Upstream()
    package var ads = Ads()
    package var sessions = Sessions()
    package var beacons = Beacons()
    package var live = Live()
    package var analytics = Analytics()
    package var store = Store()
    package var tracing = Tracing()
    package var conditioning = Conditioning()
    package var debug = Debug()

    package init() {}

    package struct Server: Sendable, Codable, Equatable {
        package var host = "127.0.0.1"
        package var port = 8080
        /// The base URL players reach Seam at, used in every URL Seam writes
        /// (`http://host:port` when empty).
        package var publicBaseURL = ""
        /// Compress responses with gzip when the client accepts it.
        package var gzip = true
        /// Largest request body accepted (POST /v1/sessions), in bytes.
        package var maxRequestBodyBytes = 64 * 1024
        /// Least severe log level written: `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
        package var logLevel = "info"
        /// `text` (one readable line per event) or `json` (one JSON object per line, for log shippers).
        package var logFormat = "text"
        /// How long in-flight requests may take to finish after SIGTERM/SIGINT before Seam stops anyway, seconds.
        package var shutdownTimeoutSeconds = 10.0
        /// After SIGTERM/SIGINT, how long `/readyz` answers 503 while Seam still serves, seconds,
        /// so load balancers stop sending viewers before it stops accepting connections. 0 (the
        /// default for a single process) goes straight to the shutdown; behind a balancer use a
        /// little more than its health-check period (`deploy/` sets 5).
        package var drainSeconds = 0.0
        /// How long a connection may wait for its next request after a response, seconds. Longer
        /// than the 60 s idle time-out of common load balancers, so they, not Seam, close idle
        /// connections (no race on a connection the balancer just reused).
        package var idleTimeoutSeconds = 75.0
        /// How long a client may take to send a whole request head (request line and headers),
        /// from the connection's opening or the first byte of a request, seconds. Slowloris guard.
        package var headerReadTimeoutSeconds = 10.0
        /// Most client connections held open at once. At the limit a new connection closes the
        /// connection that has waited longest for a request; when every connection has a request
        /// in flight the new one is closed at once.
        package var maxConnections = 10_000
        /// The proxies (addresses or CIDR ranges) whose `X-Forwarded-For` and `Forwarded` headers
        /// Seam believes. The viewer's address is the right-most forwarded address not in this
        /// list, when it is a valid IP address; otherwise, and always when the list is empty, the
        /// connection's peer. A client cannot name its own address by sending the header.
        package var trustedProxies: [String] = []
        package init() {}
    }

    package struct Domains: Sendable, Codable, Equatable {
        package enum Mode: String, Sendable, Codable { case all, none, custom }
        /// Which content URLs get ads: `all`, `none` (a transparent redirect), or `custom` (`hosts`).
        package var mode: Mode = .all
        /// Exact host names and `*.suffix` wildcards, for `custom`.
        package var hosts: [String] = []
        package init() {}
    }

    package struct Upstream: Sendable, Codable, Equatable {
        /// Hosts Seam may fetch from (exact or `*.suffix`); empty means any public host.
        package var allowedHosts: [String] = []
        /// Allow loopback, link-local and private addresses (off in production: SSRF).
        package var allowPrivateNetworks = false
        /// CIDR ranges Seam may fetch from even though they are private (`10.1.2.0/24`, `fd00::/64`):
        /// a narrower opening than `allowPrivateNetworks` for an origin inside a private network.
        package var allowedNetworks: [String] = []
        package var originTimeoutSeconds = 5.0
        package var adMediaTimeoutSeconds = 3.0
        package var maxPlaylistBytes = 4 * 1024 * 1024
        package var maxVASTBytes = 1024 * 1024
        package var maxRedirects = 5
        /// Connections to one origin host at once. Session starts fetch a multivariant playlist
        /// and every media playlist in parallel, so a burst of starts needs many; a request beyond
        /// it waits for a free connection, and that wait is not counted against the origin's time-out.
        package var originConnectionsPerHost = 64
        /// Connections to one ad server or ad CDN host at once (ad requests and creative playlists):
        /// as many as `live.adRequestConcurrency` decisions can run at once.
        package var adConnectionsPerHost = 64
        /// Connections to one beacon host at once: as many as `beacons.concurrency` beacons are sent at once.
        package var beaconConnectionsPerHost = 32
        package init() {}
    }

    package struct Ads: Sendable, Codable, Equatable {
        /// The ad tag template: `{session.id}`, `{player.params.NAME}` and IAB `[MACROS]` are filled in.
        package var adTagURL = ""
        /// Per-request time-out for the ADS, seconds.
        package var requestTimeoutSeconds = 2.0
        /// Total time a viewer may wait for ads at session start, seconds.
        package var totalBudgetSeconds = 5.0
        package var maxWrapperDepth = 5
        /// Mid-roll positions in seconds used when the ad server answers VAST (not VMAP)
        /// and the content has no markers. Pre-roll `0`, post-roll `-1`.
        package var cuePoints: [Double] = [0]
        /// Default tracking mode for sessions that do not ask: `server`, `client` or `hybrid`.
        package var trackingMode = "server"
        /// Most ads one pod plays; the ad server's further ads are skipped (listed in `skippedAds`),
        /// so a 200-ad answer costs 10 creative fetches, not 200.
        package var maxAdsPerPod = 10
        /// Longest pod, seconds (by the ads' VAST durations); a break with its own duration (a cue's)
        /// is never overfilled either.
        package var maxPodSeconds = 300.0
        /// Caps of ad requests per second by ad-server host, as `host=rate` (`*=rate`: every host
        /// not listed, each on its own); empty: no cap. Requests over a cap wait their turn,
        /// earliest deadline first, within their ad budget (`AdRequestShaper`).
        package var requestsPerSecond: [String] = []
        /// Live: the share of a break (0 to 1) the ads must fill for Seam to replace it; below
        /// it the break plays the origin's content (`PERSONALIZATION_THRESHOLD`). 0: any ad replaces.
        package var personalizationThreshold = 0.0
        /// Clips played around the ads of every filled break (`Bumper`).
        package var bumpers = Bumpers()
        package init() {}
    }

    /// `ads.bumpers`: a clip before the first ad and/or after the last ad of every filled break
    /// (HLS, or an MP4 conditioned like an MP4-only ad). Not ads: no beacons, not fill.
    package struct Bumpers: Sendable, Codable, Equatable {
        /// Before the first ad; empty: none.
        package var startURL = ""
        /// After the last ad (live: after the slate, the last thing before content); empty: none.
        package var endURL = ""
        /// DASH sessions' bumper before the first ad: a static MPD. Empty: `startURL` when it is
        /// an MP4 (conditioned for the title as an MPD too), else none in DASH sessions.
        package var dashStartURL = ""
        /// DASH sessions' bumper after the last ad; as `dashStartURL`, for `endURL`.
        package var dashEndURL = ""
        /// Whether pre-rolls (VOD) get bumpers too; false: a viewer who just pressed play sees the ad first.
        package var preroll = true
        package init() {}
    }

    package struct Sessions: Sendable, Codable, Equatable {
        /// Idle time after which a session expires unless kept alive, seconds.
        package var ttlSeconds = 300.0
        /// How often clients should call keepalive, seconds (returned to clients).
        package var keepAliveSeconds = 10.0
        package var maxSessions = 100_000
        /// Most renditions (variants and alternate audio, subtitle and video renditions) one session
        /// fetches and stitches; a multivariant playlist listing more is refused.
        package var maxRenditions = 64
        /// Most segments in one content media playlist; a longer one is refused before it is parsed.
        package var maxSegmentsPerPlaylist = 20_000
        /// Most bytes of content playlists one session start reads, all renditions together.
        package var maxContentBytes = 32 * 1024 * 1024
        /// The secret session ids are signed with (at least 32 characters), so a restarted Seam
        /// answers 410, not 404, to the ids it issued. Empty: kept in `stateDirectory`.
        package var idSecret = ""
        /// Where Seam keeps its generated id secret when `idSecret` is empty. Empty:
        /// `$STATE_DIRECTORY`, `$XDG_STATE_HOME/seam` or `$HOME/.local/state/seam`.
        package var stateDirectory = ""
        /// How a session delivers ads when the request does not say and no `modeRules` entry
        /// matches: `stitched` or `interstitials`.
        package var defaultMode = "stitched"
        /// `"<User-Agent substring>=<mode>"` entries, first match wins (case-insensitive), e.g.
        /// `"AppleCoreMedia=interstitials"`: players known to play HLS Interstitials get them.
        package var modeRules: [String] = []
        /// Whether stitched playlists carry one date range per ad and per break (ad ids, SVTA2053
        /// creative signaling) when the request does not say (`adIdDecoration`).
        package var adIdDecoration = false
        /// Whether the origin's cue tags and SCTE-35 date ranges of the breaks Seam filled are left
        /// out of the stitched playlists (those of breaks that play content stay).
        package var removeOriginCues = false
        package init() {}
    }

    package struct Beacons: Sendable, Codable, Equatable {
        package var timeoutSeconds = 2.0
        /// Attempts per beacon (first try included) before it is given up and logged.
        package var maxAttempts = 3
        package var concurrency = 32
        package init() {}
    }

    /// Live ad replacement: the shared origin cache, the ADS limit, slate and cue-less schedules.
    package struct Live: Sendable, Codable, Equatable {
        /// How long one fetched origin playlist is reused for every viewer of the channel, seconds.
        package var originCacheSeconds = 1.0
        /// How long the last good window is served while the origin fails, seconds.
        package var maxStaleSeconds = 12.0
        /// ADS requests in flight at once across all live sessions.
        package var adRequestConcurrency = 64
        /// Multivariant or media playlist of the slate that fills what the ads leave of a break
        /// (empty: content fills it).
        package var slateURL = ""
        /// The slate of DASH channels: a static MPD (empty: content fills what the ads leave).
        package var dashSlateURL = ""
        /// Break length for cues that carry no duration, seconds.
        package var defaultBreakSeconds = 60.0
        /// Breaks for streams without cues: `"<channel URL prefix> every=<s> offset=<s> duration=<s>"`.
        package var schedules: [String] = []
        /// The bearer token of the break API (`POST /v1/admin/breaks`: announce a break on a
        /// channel at run time); empty: the API is off (`404`).
        package var breaksToken = ""
        /// Decide an announced break once the live edge is this many seconds before its start,
        /// instead of when each viewer reaches it; 0: at the break.
        package var prefetchSeconds = 0.0
        /// What an early return (a `CUE-IN` before the break's planned end) does to the ad in play:
        /// `cut` it at the return, or `complete` it (content resumes after it, that much later).
        package var earlyReturn = "cut"
        /// A live pre-roll of at most this many seconds before the first content a viewer sees;
        /// 0: none.
        package var prerollMaxSeconds = 0.0
        /// Spreads the sessions' prefetches over this many seconds of the lead (each session by
        /// its id), so a channel's viewers do not all ask in the same second.
        package var prefetchSpreadSeconds = 0.0
        package init() {}

        /// `schedules`, parsed. Loaded configurations are validated, so this throws only for a
        /// configuration built in code with a malformed entry.
        package var parsedSchedules: [LiveSchedule] {
            get throws(ConfigurationError) {
                var parsed: [LiveSchedule] = []
                for entry in schedules { parsed.append(try LiveSchedule.parse(entry)) }
                return parsed
            }
        }

        /// The schedule for the playlist at `url`: the one with the longest matching prefix.
        package func schedule(for url: String) throws(ConfigurationError) -> LiveSchedule? {
            try parsedSchedules.filter { $0.matches(url) }.max { $0.channelPrefix.count < $1.channelPrefix.count }
        }
    }

    /// Session analytics sent to the customer's collectors (`docs/analytics.md`): off until
    /// `endpoints` lists one.
    package struct Analytics: Sendable, Codable, Equatable {
        /// The collectors every batch of events is POSTed to, as JSON; empty: analytics off.
        package var endpoints: [String] = []
        /// What happens to personal data (device IP, User-Agent, device ids) before it leaves Seam:
        /// `clear`, `encrypted`, `anonymized` or `delete`. The default keeps nothing that can be
        /// turned back into the originals.
        package var privacy: AnalyticsPrivacyMode = .anonymized
        /// For `encrypted`: the AES-256-GCM key, 32 bytes in base64 (`openssl rand -base64 32`).
        package var encryptionKey = ""
        /// For `anonymized`: the secret each period's hash key is derived from, so replicas hash
        /// alike (at least 32 characters). Empty: a random key per process and period.
        package var hashSecret = ""
        /// How long one hash key lives (values link within a period, not across), seconds.
        package var hashRotationSeconds = 86_400.0
        /// Most events in one POST.
        package var batchSize = 100
        /// Longest an event waits for its batch to fill before it is sent anyway, seconds.
        package var flushSeconds = 5.0
        /// Time limit for one POST to one collector, seconds.
        package var timeoutSeconds = 5.0
        /// Attempts per batch and collector, first included.
        package var maxAttempts = 3
        /// Most events waiting to be sent; beyond it new events are dropped and counted.
        package var queueCapacity = 10_000
        package init() {}
    }

    /// Where sessions live: in this process (the default), or in PostgreSQL shared by replicas
    /// (`docs/store.md`).
    package struct Store: Sendable, Codable, Equatable {
        /// `postgres://user:password@host:5432/database` (`?sslmode=require`, `?schema=name`);
        /// empty: sessions stay in this process's memory.
        package var postgresURL = ""
        /// Most connections one replica opens to PostgreSQL.
        package var postgresPoolSize = 10
        /// Longest one store operation may take, waiting for a connection included, seconds; then
        /// the request answers `503 STORE_UNAVAILABLE`.
        package var postgresTimeoutSeconds = 2.0
        /// How often a replica writes the activity of the sessions it holds to PostgreSQL, seconds;
        /// without notifications, also how long it serves a session it holds without asking
        /// PostgreSQL again (a delete through another replica is seen within this).
        package var cacheSeconds = 2.0
        /// Listen to PostgreSQL's notifications of deleted and rewritten sessions, so a replica
        /// trusts the sessions it holds until told otherwise (false behind a pooler in transaction
        /// mode, where `LISTEN` does not work).
        package var notifications = true
        package init() {}
    }

    /// Ad conditioning (`docs/conditioning.md`): creatives the ad server sends only as progressive
    /// MP4 transcoded to the content's ladder with ffmpeg, kept on disk. Off until `directory` is set.
    package struct Conditioning: Sendable, Codable, Equatable {
        /// Where conditioned creatives are kept (created when missing); empty: no conditioning,
        /// MP4-only ads are skipped (`NO_VARIANT_MATCH`).
        package var directory = ""
        /// Most bytes the directory holds; the least recently used creatives go first.
        package var maxBytes = 2_147_483_648
        /// Conditioning jobs run at once on this replica.
        package var concurrency = 1
        /// Jobs waiting for a worker at most; beyond, a break is skipped without queueing.
        package var queueLimit = 100
        /// `nice` of ffmpeg (0 to 19): jobs yield to serving.
        package var niceness = 10
        /// ffmpeg under the `SCHED_IDLE` policy (`chrt --idle`): it runs only on CPU serving leaves.
        package var idlePriority = true
        /// Threads of each ffmpeg run; 0: half this machine's cores (at least 1), so a job never
        /// spreads over every core serving needs.
        package var threads = 0
        /// Longest one job may take (download, probe, every rendition), seconds.
        package var jobTimeoutSeconds = 300.0
        /// Longest creative conditioned, seconds.
        package var maxInputSeconds = 120.0
        /// Largest MP4 downloaded, bytes.
        package var maxInputBytes = 209_715_200
        /// How long a creative that failed to condition is not tried again, seconds.
        package var retryAfterSeconds = 600.0
        /// Where players fetch conditioned creatives when `directory` is published through a CDN
        /// (`<publicBaseURL>/<name>/master.m3u8`); empty: Seam serves them under `/v1/conditioned/`.
        package var publicBaseURL = ""
        /// The bearer token `POST /v1/creatives/prefetch` requires; empty: the route is open to
        /// whoever reaches Seam, which Seam allows only when `server.host` is loopback.
        package var prefetchToken = ""
        /// Prefetch requests a minute per client address (a burst of as many); more answer `429`.
        package var prefetchPerMinute = 30
        package init() {}
    }

    /// OpenTelemetry spans (`docs/tracing.md`): off until `otlpEndpoint` names a collector.
    package struct Tracing: Sendable, Codable, Equatable {
        /// The OTLP/HTTP collector's base URL (`http://127.0.0.1:4318`; spans go to its
        /// `/v1/traces`); empty: tracing off, no span is recorded.
        package var otlpEndpoint = ""
        /// `service.name` of every span.
        package var serviceName = "seam"
        /// The share of new traces recorded, 0 to 1; a trace continued from a caller's
        /// `traceparent` follows the caller's choice.
        package var sampleRatio = 1.0
        package init() {}
    }

    /// Per-session debugging (`docs/debugging.md`): the story of each session's ads — requests,
    /// wrapper hops, each ad's verdict, avails, beacons — at an authenticated route, and as log
    /// lines for a sample of sessions.
    package struct Debug: Sendable, Codable, Equatable {
        /// The bearer token `GET /v1/admin/sessions/{id}` requires (at least 16 characters;
        /// `openssl rand -hex 32`); empty: the route is off (`404`) and no story is kept.
        package var token = ""
        /// Entries kept per session, the newest (older ones are dropped and counted).
        package var storyEntries = 200
        /// The share of sessions, 0 to 1, whose story is also logged as JSON lines
        /// (`server.logFormat: json`), chosen by session id so every replica logs the same ones.
        package var logSampleRate = 0.0
        package init() {}
    }
}

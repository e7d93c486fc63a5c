// Seam demo player. Plays a stitched HLS stream in the browser's own <video> element and draws the
// session's ad timeline from Seam's tracking JSON. No dependencies, nothing loaded from the network
// but Seam and the demo servers.
//
// Query parameters:
//   ?session=<manifestUrl>&tracking=<trackingUrl>  play an existing session
//   ?content=<playlistUrl>                          create a session for this content instead of the default
//   ?trackingMode=server|client|hybrid              ask for this tracking mode
//   ?autostart=0                                    do not create a session on load
//   ?autoplay=1                                     start playing (muted, as browsers require) once loaded
//
// Tracking JSON fields are read defensively (avails[].startTimeSeconds, durationSeconds, skipReason,
// ads[].adId/title/startTimeSeconds/durationSeconds/trackingEvents[].event/startTimeSeconds/beaconUrls,
// cuePoints); unknown or missing fields are skipped, never fatal.
// State for automated checks lives on window.seamDemo.
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const video = $('video');
  const params = new URLSearchParams(location.search);
  const state = window.seamDemo = {
    config: {}, session: null, tracking: null, avails: [], errors: [], firedBeacons: [], ready: false,
  };
  let keepAliveTimer = null;
  let trackingTimer = null;
  let lastTime = 0;
  const fired = new Set();

  // ---------- helpers ----------

  function num(object, ...keys) {
    for (const key of keys) {
      const value = object ? object[key] : undefined;
      if (typeof value === 'number' && isFinite(value)) return value;
      if (typeof value === 'string' && value.trim() !== '' && isFinite(Number(value))) return Number(value);
    }
    return undefined;
  }

  function clock(seconds) {
    if (!isFinite(seconds) || seconds < 0) return '–';
    const m = Math.floor(seconds / 60);
    const s = seconds - m * 60;
    return `${m}:${s < 10 ? '0' : ''}${s.toFixed(1)}`;
  }

  function setStatus(text, isError) {
    const element = $('status');
    element.textContent = text;
    element.className = isError ? 'error' : 'muted';
    if (isError) state.errors.push(text);
  }

  function link(element, url) {
    element.textContent = url || '–';
    element.href = url || '#';
  }

  async function fetchJSON(url, options) {
    const response = await fetch(url, Object.assign({ cache: 'no-store' }, options));
    const text = await response.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (_) { /* not JSON */ }
    if (!response.ok) {
      const error = body && body.error;
      const message = error ? `${error.code || response.status}: ${error.message || ''}` : `HTTP ${response.status}`;
      const failure = new Error(message);
      failure.status = response.status;
      throw failure;
    }
    return body;
  }

  function describeCue(cue) {
    if (cue === 0) return 'pre-roll';
    if (cue === -1) return 'post-roll';
    return typeof cue === 'number' ? `mid-roll @ ${clock(cue)}` : '';
  }

  // ---------- tracking JSON ----------

  function normalize(tracking) {
    const avails = Array.isArray(tracking && tracking.avails) ? tracking.avails
      : Array.isArray(tracking && tracking.adBreaks) ? tracking.adBreaks : [];
    return avails.map((avail, index) => {
      const start = num(avail, 'startTimeSeconds', 'startTime', 'start') ?? 0;
      let cursor = start;
      const ads = (Array.isArray(avail.ads) ? avail.ads : []).map((ad, adIndex) => {
        const adStart = num(ad, 'startTimeSeconds', 'startTime', 'start') ?? cursor;
        const duration = num(ad, 'durationSeconds', 'duration') ?? 0;
        cursor = adStart + duration;
        const events = (Array.isArray(ad.trackingEvents) ? ad.trackingEvents : []).map((event) => ({
          event: String(event.event || event.type || ''),
          at: num(event, 'startTimeSeconds', 'startTime') ?? adStart,
          urls: Array.isArray(event.beaconUrls) ? event.beaconUrls : Array.isArray(event.urls) ? event.urls : [],
        }));
        return { id: String(ad.adId ?? ad.id ?? `ad ${adIndex + 1}`), title: ad.title || '', start: adStart, duration, events };
      });
      const duration = num(avail, 'durationSeconds', 'duration') ?? (cursor - start);
      const skipped = Array.isArray(avail.skippedAds) ? avail.skippedAds : [];
      return {
        index, id: String(avail.availId ?? avail.id ?? index + 1),
        position: avail.position || describeCue(num(avail, 'cuePoint')),
        start, duration, ads,
        skipReason: avail.skipReason || (ads.length === 0 ? 'no ads' : null),
        skipDetail: avail.skipDetail || skipped.map((s) => `${s.adId}: ${s.reason}`).join('; '),
      };
    });
  }

  function totalDuration() {
    if (isFinite(video.duration) && video.duration > 0) return video.duration;
    const declared = num(state.tracking, 'durationSeconds');
    if (declared) return declared;
    return state.avails.reduce((end, a) => Math.max(end, a.start + a.duration), 1);
  }

  function renderTimeline() {
    const bar = $('timeline-bar');
    bar.replaceChildren();
    const total = totalDuration();
    const percent = (seconds) => `${Math.min(100, Math.max(0, (seconds / total) * 100))}%`;
    for (const avail of state.avails) {
      if (avail.ads.length === 0) {
        const marker = document.createElement('div');
        marker.className = 'segment skipped';
        marker.style.left = percent(avail.start);
        marker.title = `${avail.position || 'avail'} at ${clock(avail.start)}: ${avail.skipReason}`;
        bar.append(marker);
        continue;
      }
      for (const ad of avail.ads) {
        const segment = document.createElement('div');
        segment.className = 'segment';
        segment.style.left = percent(ad.start);
        segment.style.width = percent(ad.duration);
        segment.title = `${ad.id}${ad.title ? ' — ' + ad.title : ''}: ${clock(ad.start)} for ${ad.duration.toFixed(1)} s`;
        bar.append(segment);
      }
    }
    updatePlayhead();
  }

  function renderAvails() {
    const body = $('avails').tBodies[0];
    body.replaceChildren();
    for (const avail of state.avails) {
      const row = body.insertRow();
      row.dataset.index = String(avail.index);
      const ads = avail.ads.map((ad) => `${ad.id} (${ad.duration.toFixed(1)} s)${ad.title ? ' ' + ad.title : ''}`).join(', ');
      const skip = avail.ads.length === 0 ? `${avail.skipReason}${avail.skipDetail ? ' — ' + avail.skipDetail : ''}` : '';
      for (const text of [avail.id, avail.position, clock(avail.start), `${avail.duration.toFixed(1)} s`, ads || '–', skip]) {
        row.insertCell().textContent = text;
      }
    }
    const cues = state.tracking && Array.isArray(state.tracking.cuePoints) ? state.tracking.cuePoints : [];
    $('cue-points').textContent = cues.length ? cues.map((c) => `${c} (${describeCue(c)})`).join(', ') : '–';
  }

  function updatePlayhead() {
    const t = video.currentTime || 0;
    const total = totalDuration();
    $('playhead').style.left = `${Math.min(100, (t / total) * 100)}%`;
    let where = 'content';
    for (const avail of state.avails) {
      const row = $('avails').tBodies[0].rows[avail.index];
      const current = avail.ads.length > 0 && t >= avail.start && t < avail.start + avail.duration;
      if (row) {
        row.classList.toggle('current', current);
        row.classList.toggle('played', t >= avail.start + avail.duration && avail.ads.length > 0);
      }
      if (current) {
        const adIndex = avail.ads.findIndex((ad) => t >= ad.start && t < ad.start + ad.duration);
        const ad = avail.ads[adIndex];
        where = ad ? `ad ${adIndex + 1} of ${avail.ads.length} (${ad.id})` : 'ad break';
      }
    }
    $('clock').textContent = `${clock(t)} / ${clock(total)} — ${where}`;
  }

  async function loadTracking() {
    const url = state.session && state.session.trackingUrl;
    if (!url) return;
    try {
      state.tracking = await fetchJSON(url);
      state.avails = normalize(state.tracking);
      renderTimeline();
      renderAvails();
      state.ready = true;
    } catch (error) {
      setStatus(`Tracking JSON unavailable: ${error.message}`, true);
    }
  }

  // ---------- client-side beacons ----------
  // Only URLs present in the tracking JSON are called: when Seam fires an event itself
  // (server-side tracking) it leaves beaconUrls empty, so nothing is counted twice.

  function fillMacros(url) {
    return url
      .replace(/\[CACHEBUSTING\]/g, String(Math.floor(10000000 + Math.random() * 89999999)))
      .replace(/\[TIMESTAMP\]/g, encodeURIComponent(new Date().toISOString()));
  }

  function fireBetween(from, to) {
    for (const avail of state.avails) {
      for (const ad of avail.ads) {
        for (const event of ad.events) {
          const key = `${avail.id}/${ad.id}/${event.event}`;
          if (event.urls.length === 0 || fired.has(key) || event.at < from || event.at > to) continue;
          fired.add(key);
          for (const url of event.urls) {
            const filled = fillMacros(url);
            state.firedBeacons.push({ adId: ad.id, event: event.event, url: filled, at: video.currentTime });
            fetch(filled, { mode: 'no-cors', cache: 'no-store', keepalive: true }).catch(() => {});
          }
        }
      }
    }
  }

  video.addEventListener('timeupdate', () => {
    const t = video.currentTime;
    // Fire only for continuous playback; a seek skips the events it jumps over.
    if (!video.paused && !video.seeking && t >= lastTime && t - lastTime < 2) fireBetween(lastTime, t);
    lastTime = t;
    updatePlayhead();
  });
  video.addEventListener('ended', () => fireBetween(lastTime, Infinity));

  // Chromium's built-in HLS player waits forever at the few-millisecond holes AAC audio leaves
  // at splice points; hls.js and Shaka step over them. So does this page: when playback is stuck
  // just before a buffered range that starts less than half a second ahead, jump to it.
  setInterval(() => {
    if (video.paused || video.seeking || video.ended || video.readyState >= 3) return;
    const t = video.currentTime;
    for (let i = 0; i < video.buffered.length; i++) {
      const start = video.buffered.start(i);
      if (start > t && start - t < 0.5) {
        video.currentTime = start + 0.01;
        return;
      }
    }
  }, 500);
  video.addEventListener('seeked', () => { lastTime = video.currentTime; updatePlayhead(); });
  video.addEventListener('durationchange', renderTimeline);
  video.addEventListener('error', () => {
    const error = video.error;
    setStatus(`Playback error${error ? ` ${error.code}: ${error.message || ''}` : ''}`, true);
  });
  video.addEventListener('playing', () => setStatus('Playing.'));
  $('timeline').addEventListener('click', (event) => {
    const box = $('timeline').getBoundingClientRect();
    if (box.width > 0) video.currentTime = ((event.clientX - box.left) / box.width) * totalDuration();
  });

  // ---------- sessions ----------

  function sessionsURL() {
    return new URL(state.config.sessionsUrl || '/v1/sessions', location.href).href;
  }

  function startKeepAlive(session) {
    clearInterval(keepAliveTimer);
    if (!session.sessionId) return;
    const url = session.keepAliveUrl
      ? new URL(session.keepAliveUrl, sessionsURL()).href
      : `${sessionsURL()}/${encodeURIComponent(session.sessionId)}/keepalive`;
    const seconds = Math.max(2, num(session, 'keepAliveSeconds') ?? 10);
    keepAliveTimer = setInterval(async () => {
      try {
        await fetchJSON(url, { method: 'POST' });
      } catch (error) {
        if (error.status === 410 || error.status === 404) {
          clearInterval(keepAliveTimer);
          setStatus(`The session ended (${error.message}). Press “New session” to start again.`, true);
        }
      }
    }, seconds * 1000);
  }

  function useSession(session) {
    state.session = session;
    state.tracking = null;
    state.avails = [];
    state.ready = false;
    fired.clear();
    lastTime = 0;
    link($('manifest-link'), session.manifestUrl);
    link($('tracking-link'), session.trackingUrl);
    $('session-id').textContent = session.sessionId || '–';
    renderTimeline();
    renderAvails();
    video.src = session.manifestUrl;
    video.load();
    if (params.get('autoplay') === '1') {
      video.muted = true;
      video.play().catch((error) => setStatus(`Autoplay refused: ${error.message}`, true));
    }
    startKeepAlive(session);
    clearInterval(trackingTimer);
    if (session.trackingUrl) {
      loadTracking();
      trackingTimer = setInterval(loadTracking, 15000);
    } else {
      state.ready = true;
    }
  }

  async function createSession() {
    const url = $('content-url').value.trim();
    if (!url) { setStatus('Enter a content playlist URL.', true); return; }
    const request = { url };
    const mode = $('tracking-mode').value;
    if (mode) request.trackingMode = mode;
    setStatus('Creating a session…');
    try {
      const endpoint = sessionsURL();
      const answer = await fetchJSON(endpoint, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
      });
      if (!answer || !answer.manifestUrl) throw new Error('the answer has no manifestUrl');
      const session = Object.assign({}, answer, {
        manifestUrl: new URL(answer.manifestUrl, endpoint).href,
        trackingUrl: answer.trackingUrl ? new URL(answer.trackingUrl, endpoint).href : null,
      });
      setStatus(session.sessionId ? 'Session ready. Press play.' : 'Seam does not insert ads for this URL; playing it as it is.');
      useSession(session);
    } catch (error) {
      setStatus(`Could not create a session: ${error.message}`, true);
    }
  }

  $('session-form').addEventListener('submit', (event) => { event.preventDefault(); createSession(); });

  // ---------- beacon log of the demo ad server ----------

  async function pollBeacons() {
    try {
      const log = await fetchJSON(state.config.beaconsUrl);
      const beacons = Array.isArray(log) ? log : (log && Array.isArray(log.beacons) ? log.beacons : []);
      $('beacon-count').textContent = `(${beacons.length})`;
      const list = $('beacon-list');
      list.replaceChildren(...beacons.slice(-40).reverse().map((beacon) => {
        const item = document.createElement('li');
        const time = typeof beacon.at === 'string' ? beacon.at.slice(11, 23) : '';
        item.textContent = `${time} ${beacon.method || ''} ${beacon.path}${beacon.query ? '?' + beacon.query : ''}` +
          (beacon.status && beacon.status >= 300 ? ` → ${beacon.status}` : '');
        return item;
      }));
    } catch (_) {
      $('beacon-count').textContent = '(ad server unreachable)';
    }
  }

  $('clear-beacons').addEventListener('click', async () => {
    try { await fetch(state.config.beaconsUrl, { method: 'DELETE' }); } catch (_) { /* shown by the next poll */ }
    pollBeacons();
  });

  // ---------- start ----------

  async function main() {
    if (!video.canPlayType('application/vnd.apple.mpegurl')) $('hls-warning').hidden = false;
    try {
      state.config = (await fetchJSON('config.json')) || {};
    } catch (_) {
      state.config = {};
    }
    $('note').textContent = state.config.note || '';
    $('content-url').value = params.get('content') || state.config.contentUrl || '';
    const mode = params.get('trackingMode') || state.config.trackingMode || '';
    if ([...$('tracking-mode').options].some((option) => option.value === mode)) $('tracking-mode').value = mode;
    if (state.config.beaconsUrl) {
      $('beacons').hidden = false;
      pollBeacons();
      setInterval(pollBeacons, 2000);
    }
    if (params.get('session')) {
      const manifestUrl = new URL(params.get('session'), location.href).href;
      const tracking = params.get('tracking');
      useSession({ manifestUrl, trackingUrl: tracking ? new URL(tracking, location.href).href : null });
      setStatus('Playing the session from the page URL. Press play.');
    } else if ($('content-url').value && params.get('autostart') !== '0') {
      await createSession();
    } else {
      setStatus('Enter a content playlist URL and press “New session”.');
    }
  }

  main();
})();

// Seam demo player. Plays a session in the browser's own <video> element and draws the session's
// ad timeline from Seam's tracking JSON, in either rendering:
//   stitched       the ads are spliced into the stream; breaks sit on the stitched timeline
//                  (avails[].startTimeSeconds).
//   interstitials  the stream is the content with one HLS Interstitial per break. The browser's own
//                  player ignores the interstitial date ranges and plays the content through, so the
//                  page places each break on the content timeline (VOD: cuePoint, -1 = the end of the
//                  content; live: startTimeSeconds), links its asset list (assetListUrl), lists that
//                  list's assets and plays one at a time in a second <video>, firing client-side
//                  beacons against the asset's own clock.
// No dependencies, nothing loaded from the network but Seam and the demo servers.
//
// Query parameters:
//   ?session=<manifestUrl>&tracking=<trackingUrl>  play an existing session (either rendering)
//   ?content=<playlistUrl>                          create a session for this content instead of the default
//   ?trackingMode=server|client|hybrid              ask for this tracking mode
//   ?mode=stitched|interstitials                    ask for this rendering (sent as `mode`)
//   ?ads=mp4                                        the MP4-only ad (when Seam conditions): the page
//                                                   follows its conditioning (POST /v1/creatives/prefetch)
//   ?autostart=0                                    do not create a session on load
//   ?autoplay=1                                     start playing (muted, as browsers require) once loaded
//
// Tracking JSON fields are read defensively (mode, renderings[].mode/manifestUrl, avails[].startTimeSeconds,
// durationSeconds, cuePoint, position, programDateTime, interstitialId, assetListUrl, skipReason,
// ads[].adId/title/startTimeSeconds/durationSeconds/trackingEvents[].event/startTimeSeconds/beaconUrls,
// cuePoints); unknown or missing fields are skipped, never fatal. Asset lists: ASSETS[].URI/DURATION.
// State for automated checks lives on window.seamDemo.
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const video = $('video');
  const assetVideo = $('asset-video');
  const params = new URLSearchParams(location.search);
  const MODES = ['stitched', 'interstitials'];
  const state = window.seamDemo = {
    config: {}, session: null, tracking: null, avails: [], errors: [], firedBeacons: [], ready: false,
    // The rendering the <video> plays: 'stitched' or 'interstitials'.
    mode: 'stitched',
    // The asset list in the panel: { availId, url, assets: [{ uri, duration }], skipControl, ready, error }.
    assetList: null,
    // The asset the second <video> plays: { availId, index, uri, adId }.
    asset: null,
    // The MP4-only ad's conditioning, as the prefetch route last answered it:
    // { status: 'conditioning'|'conditioned'|'failed'|'error', creatives: [...], restarted }.
    conditioning: null,
  };
  let conditioningTimer = null;
  let keepAliveTimer = null;
  let trackingTimer = null;
  let lastTime = 0;
  let assetLastTime = 0;
  const fired = new Set();
  // Breaks whose asset list the playhead has already fetched (interstitials), by avail id.
  const reached = new Set();

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
      const cuePoint = num(avail, 'cuePoint');
      return {
        index, id: String(avail.availId ?? avail.id ?? index + 1),
        position: avail.position || describeCue(cuePoint),
        live: avail.position === 'live',
        cuePoint, programDateTime: typeof avail.programDateTime === 'string' ? avail.programDateTime : null,
        interstitialId: avail.interstitialId != null ? String(avail.interstitialId) : null,
        assetListUrl: typeof avail.assetListUrl === 'string' && avail.assetListUrl ? absolute(avail.assetListUrl) : null,
        start, duration, ads,
        skipReason: avail.skipReason || (ads.length === 0 ? 'no ads' : null),
        skipDetail: avail.skipDetail || skipped.map((s) => `${s.adId}: ${s.reason}`).join('; '),
      };
    });
  }

  function interstitials() { return state.mode === 'interstitials'; }

  function totalDuration() {
    if (isFinite(video.duration) && video.duration > 0) return video.duration;
    const declared = num(state.tracking, 'durationSeconds');
    if (declared) {
      // The tracking JSON's duration is the stitched title's; the interstitials primary is the
      // content alone, without the filled breaks (VOD; live breaks replace content).
      if (!interstitials()) return declared;
      const ads = state.avails.filter((a) => !a.live && a.ads.length > 0).reduce((sum, a) => sum + a.duration, 0);
      return Math.max(1, declared - ads);
    }
    return state.avails.reduce((end, a) => Math.max(end, a.start + a.duration), 1);
  }

  // Where a break sits on the timeline of what the <video> plays, and how much of it it takes.
  // Stitched: its span of the stitched stream. Interstitials, VOD: a point at its cue on the content
  // (the ads play elsewhere, from the asset list); -1 is the end of the content. Interstitials, live:
  // the break replaces the content it covers, so its span on the session's timeline as today.
  function placed(avail) {
    if (!interstitials() || avail.live || avail.cuePoint === undefined) {
      return { start: avail.start, span: avail.duration, point: false };
    }
    return { start: avail.cuePoint < 0 ? totalDuration() : avail.cuePoint, span: 0, point: true };
  }

  function renderTimeline() {
    const bar = $('timeline-bar');
    bar.replaceChildren();
    const total = totalDuration();
    const percent = (seconds) => `${Math.min(100, Math.max(0, (seconds / total) * 100))}%`;
    for (const avail of state.avails) {
      const where = placed(avail);
      if (avail.ads.length === 0) {
        const marker = document.createElement('div');
        marker.className = 'segment skipped';
        marker.style.left = percent(where.start);
        marker.title = `${avail.position || 'avail'} at ${clock(where.start)}: ${avail.skipReason}`;
        bar.append(marker);
        continue;
      }
      if (where.point) {
        const marker = document.createElement('div');
        marker.className = 'segment interstitial point';
        marker.style.left = percent(where.start);
        marker.title = `${avail.position || 'break'} ${avail.interstitialId || ''} at ${clock(where.start)} of the content: ` +
          `${avail.ads.length} ad${avail.ads.length === 1 ? '' : 's'}, ${avail.duration.toFixed(1)} s`;
        marker.addEventListener('click', (event) => { event.stopPropagation(); loadAssets(avail); });
        bar.append(marker);
        continue;
      }
      if (interstitials()) {
        // Live interstitials: one span for the break, its ads play from the asset list.
        const segment = document.createElement('div');
        segment.className = 'segment interstitial';
        segment.style.left = percent(where.start);
        segment.style.width = percent(where.span);
        segment.title = `break ${avail.interstitialId || avail.id} at ${clock(where.start)} for ${avail.duration.toFixed(1)} s`;
        bar.append(segment);
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
      row.dataset.availId = avail.id;
      const ads = avail.ads.map((ad) => `${ad.id} (${ad.duration.toFixed(1)} s)${ad.title ? ' ' + ad.title : ''}`).join(', ');
      const skip = avail.ads.length === 0 ? `${avail.skipReason}${avail.skipDetail ? ' — ' + avail.skipDetail : ''}` : '';
      const where = placed(avail);
      let start = clock(where.start);
      if (where.point && avail.cuePoint < 0) start += ' (end of content)';
      if (avail.live && avail.programDateTime) start += ` · ${avail.programDateTime}`;
      for (const text of [avail.id, avail.position, start, `${avail.duration.toFixed(1)} s`, ads || '–', skip]) {
        row.insertCell().textContent = text;
      }
      const cell = row.insertCell();
      cell.className = 'interstitial';
      if (avail.interstitialId) {
        const id = document.createElement('code');
        id.className = 'interstitial-id';
        id.textContent = avail.interstitialId;
        cell.append(id);
      }
      if (avail.assetListUrl) {
        const list = document.createElement('a');
        list.className = 'asset-list-link';
        list.href = avail.assetListUrl;
        list.target = '_blank';
        list.rel = 'noopener';
        list.textContent = 'asset list';
        cell.append(cell.childNodes.length ? ' ' : '', list);
      }
      if (!cell.childNodes.length) cell.textContent = '–';
      if (interstitials() && avail.assetListUrl) {
        row.classList.add('clickable');
        row.title = 'Show this break\'s assets';
        row.classList.toggle('selected', !!state.assetList && state.assetList.availId === avail.id);
        row.addEventListener('click', (event) => {
          if (event.target.closest('a')) return; // the link opens the JSON itself
          loadAssets(avail);
        });
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
      const at = placed(avail);
      if (at.point) {
        // Interstitials (VOD): the break is a point on the content; the panel below plays its ads.
        const asset = state.asset && state.asset.availId === avail.id && !assetVideo.paused;
        if (row) {
          row.classList.toggle('current', asset);
          row.classList.toggle('played', avail.ads.length > 0 && (video.ended || (t > at.start && at.start < totalDuration())));
        }
        continue;
      }
      const current = avail.ads.length > 0 && t >= at.start && t < at.start + at.span;
      if (row) {
        row.classList.toggle('current', current);
        row.classList.toggle('played', t >= at.start + at.span && avail.ads.length > 0);
      }
      if (current && interstitials()) {
        where = `break ${avail.interstitialId || avail.id} (content replaced; its ads play from the asset list)`;
        continue;
      }
      if (current) {
        const adIndex = avail.ads.findIndex((ad) => t >= ad.start && t < ad.start + ad.duration);
        const ad = avail.ads[adIndex];
        where = ad ? `ad ${adIndex + 1} of ${avail.ads.length} (${ad.id})` : 'ad break';
      }
    }
    if (state.asset && !assetVideo.paused) where = `break ${state.asset.availId}, asset ${state.asset.index + 1} playing below`;
    $('clock').textContent = `${clock(t)} / ${clock(total)} — ${where}`;
  }

  async function loadTracking() {
    const url = state.session && state.session.trackingUrl;
    if (!url) return;
    try {
      state.tracking = await fetchJSON(url);
      state.avails = normalize(state.tracking);
      showMode(modeOfSession(state.session, state.tracking));
      renderRenderings();
      renderTimeline();
      renderAvails();
      reachPreRoll();
      state.ready = true;
    } catch (error) {
      setStatus(`Tracking JSON unavailable: ${error.message}`, true);
    }
  }

  // ---------- renderings ----------

  function absolute(url, base) {
    try { return new URL(url, base || location.href).href; } catch (_) { return url; }
  }

  function withoutQuery(url) {
    try { const u = new URL(url, location.href); return u.origin + u.pathname; } catch (_) { return url; }
  }

  // Which rendering the <video> plays: the one of the tracking JSON's renderings whose manifest
  // URL it is (a ?session= link may name either), else what Seam's answer or the tracking JSON
  // says, else what the page asked for.
  function modeOfSession(session, tracking) {
    const renderings = tracking && Array.isArray(tracking.renderings) ? tracking.renderings : [];
    const playing = session && session.manifestUrl ? withoutQuery(session.manifestUrl) : null;
    const match = renderings.find((r) => r && typeof r.manifestUrl === 'string' && withoutQuery(absolute(r.manifestUrl)) === playing);
    const mode = (match && match.mode) || (session && session.mode) || (tracking && tracking.mode) || state.mode;
    return MODES.includes(mode) ? mode : 'stitched';
  }

  function showMode(mode) {
    const changed = state.mode !== mode;
    state.mode = mode;
    $('rendering').textContent = mode;
    $('mode-note').hidden = mode !== 'interstitials';
    $('assets').hidden = mode !== 'interstitials';
    $('legend-interstitial').hidden = mode !== 'interstitials';
    if (changed && mode !== 'interstitials') stopAsset();
  }

  function renderRenderings() {
    const target = $('renderings');
    const tracking = state.tracking;
    const session = state.session || {};
    let renderings = tracking && Array.isArray(tracking.renderings) ? tracking.renderings : [];
    if (renderings.length === 0) {
      renderings = [{ mode: 'stitched', manifestUrl: session.stitchedManifestUrl },
        { mode: 'interstitials', manifestUrl: session.interstitialsManifestUrl }].filter((r) => r.manifestUrl);
    }
    target.replaceChildren();
    for (const rendering of renderings) {
      if (!rendering || !rendering.manifestUrl) continue;
      const item = document.createElement('div');
      const anchor = document.createElement('a');
      anchor.href = absolute(rendering.manifestUrl);
      anchor.textContent = anchor.href;
      anchor.className = `rendering-${rendering.mode}`;
      item.append(`${rendering.mode}${rendering.mode === state.mode ? ' (playing)' : ''}: `, anchor);
      target.append(item);
    }
    if (!target.childNodes.length) target.textContent = '–';
  }

  // ---------- interstitials: asset lists and their assets ----------

  function availById(id) { return state.avails.find((a) => a.id === id); }

  // Fetches a break's asset list into the panel. Asset lists are answered the same on every
  // request for a break, so a second fetch only refreshes what is shown.
  async function loadAssets(avail) {
    if (!avail || !avail.assetListUrl) return;
    const entry = { availId: avail.id, interstitialId: avail.interstitialId, url: avail.assetListUrl, assets: [],
      skipControl: null, ready: false, error: null };
    state.assetList = entry;
    reached.add(avail.id);
    $('asset-break').textContent = `— break ${avail.interstitialId || avail.id} (${avail.position || 'avail'})`;
    $('asset-status').textContent = `Fetching ${avail.assetListUrl}…`;
    for (const row of $('avails').tBodies[0].rows) row.classList.toggle('selected', row.dataset.availId === avail.id);
    $('asset-table').tBodies[0].replaceChildren();
    try {
      const list = await fetchJSON(avail.assetListUrl);
      if (state.assetList !== entry) return; // another break was picked meanwhile
      const assets = list && Array.isArray(list.ASSETS) ? list.ASSETS : [];
      entry.assets = assets.filter((a) => a && typeof a.URI === 'string').map((a) => ({
        uri: absolute(a.URI, avail.assetListUrl), duration: num(a, 'DURATION'),
      }));
      entry.skipControl = list && list['SKIP-CONTROL'] ? list['SKIP-CONTROL'] : null;
      entry.ready = true;
      renderAssets(avail, entry);
    } catch (error) {
      if (state.assetList !== entry) return;
      entry.error = error.message;
      entry.ready = true;
      $('asset-status').textContent = '';
      setStatus(`Asset list unavailable: ${error.message}`, true);
    }
  }

  function renderAssets(avail, entry) {
    const body = $('asset-table').tBodies[0];
    body.replaceChildren();
    const skip = entry.skipControl && num(entry.skipControl, 'OFFSET') !== undefined
      ? ` Skippable after ${num(entry.skipControl, 'OFFSET')} s.` : '';
    $('asset-status').textContent = entry.assets.length
      ? `${entry.assets.length} asset${entry.assets.length === 1 ? '' : 's'}, ` +
        `${entry.assets.reduce((sum, a) => sum + (a.duration || 0), 0).toFixed(3)} s.${skip}`
      : `No assets: the break plays no ads${avail.skipReason ? ` (${avail.skipReason})` : ''}.`;
    entry.assets.forEach((asset, index) => {
      const row = body.insertRow();
      row.dataset.index = String(index);
      row.insertCell().textContent = String(index + 1);
      const uri = document.createElement('a');
      uri.className = 'asset-uri';
      uri.href = asset.uri;
      uri.textContent = asset.uri;
      row.insertCell().append(uri);
      const duration = row.insertCell();
      duration.className = 'asset-duration';
      duration.textContent = asset.duration !== undefined ? `${asset.duration} s` : '–';
      const ad = avail.ads[index];
      row.insertCell().textContent = ad ? `${ad.id}${ad.title ? ' ' + ad.title : ''}` : '–';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'play-asset';
      button.textContent = 'Play';
      button.addEventListener('click', () => playAsset(avail.id, index));
      row.insertCell().append(button);
    });
  }

  // Plays asset `index` of the panel's list in the second <video>; an interstitials player plays
  // the list's assets in order, so the next one follows when it ends.
  function playAsset(availId, index) {
    const entry = state.assetList;
    const avail = availById(availId);
    const asset = entry && entry.availId === availId ? entry.assets[index] : null;
    if (!avail || !asset) return;
    const ad = avail.ads[index];
    state.asset = { availId, index, uri: asset.uri, adId: ad ? ad.id : null };
    assetLastTime = 0;
    for (const row of $('asset-table').tBodies[0].rows) row.classList.toggle('current', row.dataset.index === String(index));
    assetVideo.hidden = false;
    // An interstitials player pauses the primary while the break plays (VOD).
    if (!avail.live && !video.paused) video.pause();
    assetVideo.src = asset.uri;
    assetVideo.load();
    assetVideo.play().catch((error) => setStatus(`Asset playback refused: ${error.message}`, true));
  }

  function stopAsset() {
    state.asset = null;
    assetVideo.pause();
    assetVideo.removeAttribute('src');
    assetVideo.load();
    assetVideo.hidden = true;
    $('asset-clock').textContent = '';
  }

  // The playhead of the primary reached a break: fetch its asset list, once per break.
  function reachBetween(from, to) {
    if (!interstitials()) return;
    for (const avail of state.avails) {
      if (!avail.assetListUrl || reached.has(avail.id)) continue;
      const at = placed(avail).start;
      if (at >= from && at <= to) { loadAssets(avail); return; }
    }
  }

  // Before playing, the playhead sits on a pre-roll: show what the player will play first.
  function reachPreRoll() {
    if (!interstitials() || state.assetList || (video.currentTime || 0) > 0.5) return;
    const pre = state.avails.find((a) => !a.live && a.cuePoint === 0 && a.assetListUrl);
    if (pre) loadAssets(pre);
  }

  // ---------- client-side beacons ----------
  // Only URLs present in the tracking JSON are called: when Seam fires an event itself
  // (server-side tracking) it leaves beaconUrls empty, so nothing is counted twice.

  function fillMacros(url) {
    return url
      .replace(/\[CACHEBUSTING\]/g, String(Math.floor(10000000 + Math.random() * 89999999)))
      .replace(/\[TIMESTAMP\]/g, encodeURIComponent(new Date().toISOString()));
  }

  // Fires the beacons of `ad` whose events fall in [from, to] of a clock that reads `offset` at
  // the ad's timeline position 0: the stitched stream's own (offset 0), or an interstitial asset
  // that starts at the ad's start (offset = ad.start).
  function fireAd(avail, ad, from, to, offset, at) {
    for (const event of ad.events) {
      const key = `${avail.id}/${ad.id}/${event.event}`;
      const when = event.at - offset;
      if (event.urls.length === 0 || fired.has(key) || when < from || when > to) continue;
      fired.add(key);
      for (const url of event.urls) {
        const filled = fillMacros(url);
        state.firedBeacons.push({ adId: ad.id, event: event.event, url: filled, at, mode: state.mode });
        fetch(filled, { mode: 'no-cors', cache: 'no-store', keepalive: true }).catch(() => {});
      }
    }
  }

  function fireBetween(from, to) {
    for (const avail of state.avails) {
      for (const ad of avail.ads) fireAd(avail, ad, from, to, 0, video.currentTime);
    }
  }

  // The same rule for the asset the second <video> plays, against the asset's own time.
  function fireAssetBetween(from, to) {
    const playing = state.asset;
    const avail = playing && availById(playing.availId);
    const ad = avail && avail.ads[playing.index];
    if (!ad) return;
    fireAd(avail, ad, from, to, ad.start, assetVideo.currentTime);
  }

  video.addEventListener('timeupdate', () => {
    const t = video.currentTime;
    // Fire only for continuous playback; a seek skips the events it jumps over. The last
    // timeupdate at the end comes with `paused` already set (Chromium), so `ended` counts as
    // playing: otherwise an event right at the end (a post-roll's complete) is never fired. In the
    // interstitials rendering the primary is the content alone: its beacons are the assets'.
    if ((!video.paused || video.ended) && !video.seeking && t >= lastTime && t - lastTime < 2) {
      if (interstitials()) reachBetween(lastTime, t); else fireBetween(lastTime, t);
    }
    lastTime = t;
    updatePlayhead();
  });
  video.addEventListener('ended', () => {
    if (interstitials()) reachBetween(lastTime, Infinity); else fireBetween(lastTime, Infinity);
  });

  assetVideo.addEventListener('timeupdate', () => {
    const t = assetVideo.currentTime;
    if ((!assetVideo.paused || assetVideo.ended) && !assetVideo.seeking && t >= assetLastTime && t - assetLastTime < 2) {
      fireAssetBetween(assetLastTime, t);
    }
    assetLastTime = t;
    const playing = state.asset;
    $('asset-clock').textContent = playing
      ? `asset ${playing.index + 1}${playing.adId ? ` (${playing.adId})` : ''}: ${clock(t)} / ${clock(assetVideo.duration)}` : '';
    updatePlayhead();
  });
  assetVideo.addEventListener('seeked', () => { assetLastTime = assetVideo.currentTime; });
  assetVideo.addEventListener('ended', () => {
    fireAssetBetween(assetLastTime, Infinity);
    const playing = state.asset;
    const entry = state.assetList;
    if (playing && entry && entry.availId === playing.availId && playing.index + 1 < entry.assets.length) {
      playAsset(playing.availId, playing.index + 1);
    } else {
      $('asset-clock').textContent = 'Break over.';
      for (const row of $('asset-table').tBodies[0].rows) row.classList.remove('current');
      state.asset = null;
      updatePlayhead();
    }
  });
  assetVideo.addEventListener('error', () => {
    const error = assetVideo.error;
    setStatus(`Asset playback error${error ? ` ${error.code}: ${error.message || ''}` : ''}`, true);
  });

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
    state.assetList = null;
    fired.clear();
    reached.clear();
    lastTime = 0;
    stopAsset();
    $('asset-table').tBodies[0].replaceChildren();
    $('asset-break').textContent = '';
    $('asset-status').textContent = 'Click a break above, or play to one, to fetch its asset list.';
    link($('manifest-link'), session.manifestUrl);
    link($('tracking-link'), session.trackingUrl);
    $('session-id').textContent = session.sessionId || '–';
    showMode(modeOfSession(session, null));
    renderRenderings();
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
    const trackingMode = $('tracking-mode').value;
    if (trackingMode) request.trackingMode = trackingMode;
    const mode = $('mode').value;
    if (mode) request.mode = mode;
    const mp4 = state.config.conditioning && $('ads').value === 'mp4';
    if (mp4) request.adParams = state.config.conditioning.adParams;
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
        // The rendering Seam chose (the request's, a User-Agent rule's or its default).
        mode: MODES.includes(answer.mode) ? answer.mode : (answer.sessionId ? 'stitched' : null),
        stitchedManifestUrl: answer.stitchedManifestUrl ? new URL(answer.stitchedManifestUrl, endpoint).href : null,
        interstitialsManifestUrl: answer.interstitialsManifestUrl ? new URL(answer.interstitialsManifestUrl, endpoint).href : null,
      });
      setStatus(session.sessionId ? 'Session ready. Press play.' : 'Seam does not insert ads for this URL; playing it as it is.');
      useSession(session);
      if (mp4 && session.sessionId) watchConditioning(url); else stopConditioning();
    } catch (error) {
      setStatus(`Could not create a session: ${error.message}`, true);
    }
  }

  $('session-form').addEventListener('submit', (event) => { event.preventDefault(); createSession(); });


  // ---------- conditioning of the MP4-only ad ----------
  // The session's ad server answers an ad whose only creative is an MP4. Seam conditions it for
  // this title's ladder with ffmpeg: the first session skips the break (TRANSCODE_IN_PROGRESS),
  // later ones play it. The page follows the job by asking POST /v1/creatives/prefetch (which
  // joins the running job, never starts a second) and, once it is conditioned, starts one new
  // session, which plays the ad.

  function stopConditioning() {
    clearInterval(conditioningTimer);
    conditioningTimer = null;
    $('conditioning').hidden = true;
  }

  function sessionWaitsForConditioning() {
    return state.avails.some((avail) => avail.skipReason === 'TRANSCODE_IN_PROGRESS');
  }

  function renderConditioning(answer) {
    const rows = (answer && Array.isArray(answer.creatives) ? answer.creatives : []).map((creative) => {
      const row = document.createElement('tr');
      const cells = [creative.url, creative.identity, creative.status + (creative.detail ? ` — ${creative.detail}` : '')];
      for (const text of cells) {
        const cell = document.createElement('td');
        cell.textContent = text || '';
        row.append(cell);
      }
      const playlist = document.createElement('td');
      if (creative.manifestUrl) {
        const anchor = document.createElement('a');
        link(anchor, creative.manifestUrl);
        playlist.append(anchor);
      } else {
        playlist.textContent = '–';
      }
      row.append(playlist);
      return row;
    });
    $('conditioning-table').tBodies[0].replaceChildren(...rows);
  }

  async function pollConditioning(contentUrl) {
    const config = state.config.conditioning;
    let answer;
    try {
      const headers = { 'content-type': 'application/json' };
      if (config.prefetchToken) headers.authorization = `Bearer ${config.prefetchToken}`;
      answer = await fetchJSON(new URL(config.prefetchUrl, location.href).href, {
        method: 'POST', headers,
        body: JSON.stringify({ contentUrl, adTagUrl: config.adTagUrl }),
      });
    } catch (error) {
      state.conditioning = Object.assign({}, state.conditioning, { status: 'error' });
      $('conditioning-status').textContent = `Seam could not say where the conditioning stands: ${error.message}`;
      return;
    }
    const creatives = Array.isArray(answer && answer.creatives) ? answer.creatives : [];
    const done = creatives.length > 0 && creatives.every((creative) => creative.status === 'conditioned');
    const failed = creatives.find((creative) => creative.status === 'failed');
    const restarted = state.conditioning ? state.conditioning.restarted : false;
    state.conditioning = { status: done ? 'conditioned' : failed ? 'failed' : 'conditioning', creatives, restarted };
    renderConditioning(answer);
    if (failed) {
      $('conditioning-status').textContent = `Seam could not condition the MP4: ${failed.detail || 'no reason given'}. It tries again later.`;
      clearInterval(conditioningTimer);
    } else if (!done) {
      $('conditioning-status').textContent = 'Seam is conditioning the MP4 for this title\'s ladder (ffmpeg, in the background, one ' +
        'rendition after another). This session plays without it (TRANSCODE_IN_PROGRESS); the next one gets it.';
    } else if (sessionWaitsForConditioning() && !restarted) {
      $('conditioning-status').textContent = 'Conditioned. A new session plays it…';
      state.conditioning.restarted = true;
      clearInterval(conditioningTimer);
      await createSession();
    } else {
      $('conditioning-status').textContent = 'Conditioned: this session plays the MP4 ad, fitted to every rendition of the title.' +
        (restarted ? ' (The session before skipped it, TRANSCODE_IN_PROGRESS, while it was being conditioned.)' : '');
      clearInterval(conditioningTimer);
    }
  }

  function watchConditioning(contentUrl) {
    clearInterval(conditioningTimer);
    $('conditioning').hidden = false;
    $('conditioning-status').textContent = 'Asking Seam where the MP4\'s conditioning stands…';
    pollConditioning(contentUrl);
    // Every 3 s: within the route's per-client limit (conditioning.prefetchPerMinute, 30).
    conditioningTimer = setInterval(() => pollConditioning(contentUrl), 3000);
  }

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
    const trackingMode = params.get('trackingMode') || state.config.trackingMode || '';
    if ([...$('tracking-mode').options].some((option) => option.value === trackingMode)) $('tracking-mode').value = trackingMode;
    const mode = params.get('mode') || state.config.mode || '';
    if ([...$('mode').options].some((option) => option.value === mode)) $('mode').value = mode;
    if (state.config.conditioning) {
      $('ads-picker').hidden = false;
      if (params.get('ads') === 'mp4') $('ads').value = 'mp4';
    }
    if (state.config.beaconsUrl) {
      $('beacons').hidden = false;
      pollBeacons();
      setInterval(pollBeacons, 2000);
    }
    if (params.get('session')) {
      const manifestUrl = new URL(params.get('session'), location.href).href;
      const tracking = params.get('tracking');
      const mode = params.get('mode');
      useSession({ manifestUrl, trackingUrl: tracking ? new URL(tracking, location.href).href : null,
        mode: MODES.includes(mode) ? mode : (/\/interstitials\//.test(manifestUrl) ? 'interstitials' : null) });
      setStatus('Playing the session from the page URL. Press play.');
    } else if ($('content-url').value && params.get('autostart') !== '0') {
      await createSession();
    } else {
      setStatus('Enter a content playlist URL and press “New session”.');
    }
  }

  main();
})();

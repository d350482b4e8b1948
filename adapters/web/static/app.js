// The live table's page: shows the states the bot sends and sends back the presses they offer.
// Protocol: adapters/web/PROTOCOL.md. The page decides nothing (no dice, no score, no rights).
// This entry holds the connection, the session and the states; the table's parts are drawn by
// dice.js, sheet.js and end.js, the Discord Activity's sign-in is discord.js.
import { $, el, colour, page, t, unlock } from './common.js';
import { makeDice, play, roll, land, reduced, tumbling } from './dice.js';
import { lobby, actions, sheet, chances } from './sheet.js';
import { ending, playLabel, stopReplay, startReplay, replayControls } from './end.js';
import { discord } from './discord.js';

let session = null;
let table = ''; // the game the session's answer named: a finished one is replayed
let delay = 1000;
let stopped = false;
let offset = 0; // the bot's clock minus the page's, in seconds
let toastTimer = 0;

// Telegram: its launch data and theme come in the URL's fragment.
const tgEvent = (name) => {
  try {
    if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(name, '{}');
    else window.parent.postMessage(JSON.stringify({ eventType: name, eventData: {} }), '*');
  } catch (e) { /* not inside Telegram after all */ }
};
const VARS = {
  bg_color: '--bg', text_color: '--fg', hint_color: '--hint', button_color: '--accent',
  button_text_color: '--accent-fg', secondary_bg_color: '--bg2',
};
const theme = (params) => {
  if (!params || typeof params !== 'object') return;
  const root = document.documentElement;
  for (const k in VARS) {
    const v = params[k];
    if (typeof v === 'string' && /^#[0-9a-f]{3,8}$/i.test(v)) root.style.setProperty(VARS[k], v);
  }
  const bg = /^#([0-9a-f]{6})$/i.exec(params.bg_color || '');
  if (bg) {
    const n = parseInt(bg[1], 16);
    const light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 140;
    root.dataset.scheme = light ? 'light' : 'dark';
  }
};
const launch = () => {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const data = hash.get('tgWebAppData');
  if (data) {
    try { theme(JSON.parse(hash.get('tgWebAppThemeParams') || '{}')); } catch (e) { /* no theme */ }
    const receive = (type, payload) => {
      if (type === 'theme_changed' && payload) theme(payload.theme_params);
    };
    window.Telegram = Object.assign(window.Telegram || {}, { WebView: { receiveEvent: receive } });
    window.addEventListener('message', (e) => {
      try { const m = JSON.parse(e.data); receive(m.eventType, m.eventData); } catch (err) { /* not Telegram's */ }
    });
    tgEvent('web_app_ready');
    tgEvent('web_app_expand');
    return query.get('t') ? { telegram: data, table: query.get('t') } : { telegram: data };
  }
  if (query.get('k')) return { link: query.get('k') };
  if (query.get('t')) return { table: query.get('t') };
  return {};
};

// The connection: a session first, then the table's WebSocket, reopened with backoff.
const retry = (fn) => {
  connection('reconnecting');
  setTimeout(fn, delay);
  delay = Math.min(delay * 2, 15000);
};
const start = async () => {
  let res;
  let data = null;
  try {
    res = await fetch('api/session', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(identity),
    });
    data = await res.json();
  } catch (e) {
    if (!res || res.status >= 500) return retry(start);
  }
  if (res.status >= 500) return retry(start);
  if (!res.ok || !data || !data.session) return fatal((data && data.message) || String(res.status));
  session = data.session;
  table = typeof data.table === 'string' ? data.table : '';
  connect();
};
const connect = () => {
  const query = `session=${encodeURIComponent(session)}&table=${encodeURIComponent(table)}`;
  const url = new URL(`api/live?${query}`, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  let fresh = true;
  page.ws = socket;
  socket.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    if (!m || typeof m !== 'object') return;
    if (fresh && (m.type === 'state' || m.type === 'replay')) {
      fresh = false;
      delay = 1000;
      connection('open');
      page.state = null;
      page.pressed = null;
    }
    receive(m);
  };
  // A socket that closes before saying anything may have a session the bot no longer knows: ask again.
  socket.onclose = () => {
    if (page.ws === socket) page.ws = null;
    if (!stopped) retry(fresh ? start : connect);
  };
};
const connection = (how) => {
  const c = $('connection');
  c.dataset.state = how;
  c.hidden = how === 'open';
  c.textContent = page.texts ? t(how) : '';
};
const fatal = (text) => {
  stopped = true;
  stopReplay();
  const e = $('error');
  e.textContent = text;
  e.hidden = false;
  $('app').hidden = true;
};

const receive = (m) => {
  if (m.type === 'texts') {
    page.texts = m.texts && typeof m.texts === 'object' ? m.texts : {};
    document.documentElement.lang = m.language || 'en';
    words();
    if (page.state) render();
  } else if (m.type === 'state' && m.state) {
    stopReplay();
    show(m.state, true);
  } else if (m.type === 'replay' && Array.isArray(m.frames) && m.frames.length) {
    startReplay(m.frames);
  } else if (m.type === 'note' || m.type === 'refused') {
    if (m.type === 'refused') unlock();
    toast(m.text, m.type);
  } else if (m.type === 'error') {
    fatal(m.text || m.code || '');
    if (page.ws) page.ws.close();
  }
};

// The page's fixed words, set again whenever texts come.
const words = () => {
  document.title = t('title');
  $('title').textContent = t('title');
  $('badge-spectator').textContent = t('spectating');
  $('badge-replay').textContent = t('replay');
  $('lobby-title').textContent = t('lobby');
  $('players-title').textContent = t('players');
  $('end-title').textContent = t('finished');
  $('chances-title').textContent = t('chances');
  $('review-title').textContent = t('review');
  $('chart-title').textContent = t('chart');
  $('replay-prev').setAttribute('aria-label', t('previous'));
  $('replay-next').setAttribute('aria-label', t('next'));
  $('replay-slider').setAttribute('aria-label', t('replay'));
  const c = $('connection');
  if (!c.hidden) c.textContent = t(c.dataset.state);
  playLabel();
};

// A state shown: animate the throw when it is new, then draw everything.
const show = (s, live) => {
  const before = page.state;
  if (!before || before.version !== s.version) unlock();
  if (typeof s.now === 'number') offset = s.now - Date.now() / 1000;
  page.state = s;
  const dice = Array.isArray(s.dice) ? s.dice : [];
  if (before && live && dice.length && s.thrown !== before.thrown && !reduced.matches) roll(dice);
  else if (tumbling() && (!dice.length || !live)) land();
  render();
};

const render = () => {
  const s = page.state;
  const players = Array.isArray(s.players) ? s.players : [];
  const watching = s.you == null;
  document.body.dataset.version = String(s.version);
  document.body.dataset.phase = s.phase;
  document.body.classList.toggle('fit', s.phase === 'playing');
  $('loading').hidden = true;
  $('main').hidden = false;
  $('badge-spectator').hidden = !watching || !!page.replay;
  $('badge-replay').hidden = !page.replay;
  $('status').textContent = s.status || '';
  $('status').hidden = !!s.end;
  turnbar(s, players);
  $('lobby').hidden = s.phase !== 'lobby';
  $('lobby-title').hidden = s.phase !== 'lobby';
  if (s.phase === 'lobby') lobby(players);
  $('play').hidden = s.phase !== 'playing';
  if (s.phase === 'playing') play(s, watching);
  actions(Array.isArray(s.actions) ? s.actions : []);
  sheet(s, players);
  chances(players);
  ending(s, players);
  seal(s.seal, s.phase);
  tick();
};

// The dice's seal in the lobby (the whole of it a tap away), and at the end the seed it seals
// with the game's dice as a file; hidden in play, where the turn must fit the screen.
const seal = (sealed, phase) => {
  $('seal').hidden = !sealed || phase === 'playing';
  if (!sealed) return;
  $('seal-short').textContent = sealed.short;
  $('seal-full').textContent = sealed.commitment;
  $('seal-seed').textContent = sealed.revealed || '';
  $('seal-seed').hidden = !sealed.revealed;
  const file = $('seal-file');
  file.hidden = !sealed.file;
  if (sealed.file) {
    file.textContent = sealed.file.label;
    file.href = sealed.file.href;
  }
};

const turnbar = (s, players) => {
  const playing = s.phase === 'playing';
  $('turnbar').hidden = !playing;
  $('title').hidden = playing;
  const turn = $('turn');
  const cur = players.findIndex((p) => p.current);
  turn.hidden = !playing || cur < 0;
  turn.classList.toggle('mine', !!s.to_act);
  turn.dataset.seat = String(cur);
  turn.textContent = '';
  if (cur >= 0) {
    const dot = el('i', 'dot');
    dot.style.background = colour(cur);
    turn.append(dot, el('span', 'name', s.to_act ? t('your-turn') : players[cur].name));
    turn.title = players[cur].name;
  }
  $('round').hidden = !playing;
  $('round').textContent = t('round', { round: s.round, rounds: s.rounds });
  $('throw').hidden = !playing || !s.throw;
  $('throw').textContent = t('throw', { throw: s.throw, throws: s.max_throws });
};

// The countdown, from the bot's clock (the page's own may be off).
const tick = () => {
  const box = $('timer');
  const s = page.state;
  if (!s || typeof s.deadline !== 'number' || page.replay || s.phase !== 'playing') {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(s.deadline - (Date.now() / 1000 + offset)));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  box.hidden = false;
  box.dataset.left = String(left);
  box.lastChild.textContent = text;
  box.classList.toggle('low', left <= 10);
  box.setAttribute('aria-label', t('time-left', { time: text }));
};

const toast = (text, kind) => {
  const box = $('toast');
  box.textContent = text || '';
  box.dataset.kind = kind;
  box.hidden = !text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, kind === 'refused' ? 5000 : 2500);
};

makeDice();
replayControls(show);
setInterval(tick, 1000);
let identity = {};
const activity = new URLSearchParams(location.search);
if (activity.get('frame_id') && activity.get('instance_id')) {
  discord(activity).then((given) => { identity = given; start(); });
} else {
  identity = launch();
  start();
}
